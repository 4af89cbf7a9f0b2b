import { anthropicMessagesRequestSchema } from '../anthropic';
import type { ModelInfo } from '../catalog';
import { chatCompletionRequestSchema } from '../chat';
import { holdMicros } from '../pricing';
import { parseOrThrow } from '../validation';
import { planChatCompletion } from './chat-completions/chat-plan';
import { planMessages } from './messages/messages-plan';
import { chatAsksOneHourCache, messagesAskOneHourCache } from './one-hour-cache';

const sigma: ModelInfo = {
  id: 'sigma-sonnet-4-6',
  family: 'sigma',
  kind: 'chat',
  owned_by: 'x',
  created: 0,
  context_window: 200_000,
  max_output_tokens: 64_000,
  prices: {
    input_per_mtok: 3_000_000,
    cached_input_per_mtok: 300_000,
    cache_write_input_per_mtok: 3_750_000,
    cache_write_1h_input_per_mtok: 6_000_000,
    output_per_mtok: 15_000_000,
  },
};
const hour = { type: 'ephemeral', ttl: '1h' };
const fiveMinutes = { type: 'ephemeral' };

const messages = (extra: Record<string, unknown>) =>
  parseOrThrow(anthropicMessagesRequestSchema, { model: sigma.id, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...extra });
const chat = (extra: Record<string, unknown>) =>
  parseOrThrow(chatCompletionRequestSchema, { model: sigma.id, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...extra });
const text = (cache_control: object) => [{ type: 'text', text: 'rules', cache_control }];

describe('a request asking for one-hour prompt-cache writes', () => {
  it('is found wherever a messages-format request can mark one, and only there', () => {
    expect(messagesAskOneHourCache(messages({}))).toBe(false);
    expect(messagesAskOneHourCache(messages({ system: text(fiveMinutes) }))).toBe(false);
    expect(messagesAskOneHourCache(messages({ system: text(hour) }))).toBe(true);
    expect(messagesAskOneHourCache(messages({ messages: [{ role: 'user', content: text(hour) }] }))).toBe(true);
    const tool = { name: 'lookup', input_schema: { type: 'object' }, cache_control: hour };
    expect(messagesAskOneHourCache(messages({ tools: [tool] }))).toBe(true);
    const result = { type: 'tool_result', tool_use_id: 't1', content: text(hour) };
    const call = { type: 'tool_use', id: 't1', name: 'lookup', input: {} };
    const turns = [
      { role: 'user', content: 'look' },
      { role: 'assistant', content: [call] },
      { role: 'user', content: [result] },
    ];
    expect(messagesAskOneHourCache(messages({ messages: turns }))).toBe(true);
    // Nested deeper: a document's own blocks, a search result's in a tool result, a document in one.
    const document = { type: 'document', source: { type: 'content', content: text(hour) } };
    expect(messagesAskOneHourCache(messages({ messages: [{ role: 'user', content: [document] }] }))).toBe(true);
    const search = { type: 'search_result', source: 'https://example.com', title: 't', content: text(hour) };
    const withSearch = [...turns.slice(0, 2), { role: 'user', content: [{ ...result, content: [search] }] }];
    expect(messagesAskOneHourCache(messages({ messages: withSearch }))).toBe(true);
    const withDocument = [...turns.slice(0, 2), { role: 'user', content: [{ ...result, content: [document] }] }];
    expect(messagesAskOneHourCache(messages({ messages: withDocument }))).toBe(true);
    const fiveMinuteDocument = { type: 'document', source: { type: 'content', content: text(fiveMinutes) } };
    expect(messagesAskOneHourCache(messages({ messages: [{ role: 'user', content: [fiveMinuteDocument] }] }))).toBe(false);
  });

  it('is found on a chat message or on a text or image part of its content', () => {
    expect(chatAsksOneHourCache(chat({}))).toBe(false);
    expect(chatAsksOneHourCache(chat({ messages: [{ role: 'system', content: 'rules', cache_control: hour }] }))).toBe(true);
    expect(chatAsksOneHourCache(chat({ messages: [{ role: 'user', content: 'hi', cache_control: fiveMinutes }] }))).toBe(false);
    expect(chatAsksOneHourCache(chat({ messages: [{ role: 'system', content: text(hour) }] }))).toBe(true);
    expect(chatAsksOneHourCache(chat({ messages: [{ role: 'user', content: text(fiveMinutes) }] }))).toBe(false);
    const image = { type: 'image_url', image_url: { url: 'https://example.com/a.png' }, cache_control: hour };
    expect(chatAsksOneHourCache(chat({ messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }, image] }] }))).toBe(true);
  });

  it('is held at the one-hour write price; any other at the five-minute one', () => {
    const held = (worst: { input_tokens?: number; output_tokens?: number }, price: number) =>
      Math.ceil((worst.input_tokens! * price + worst.output_tokens! * 15_000_000) / 1e6);
    const plain = planMessages(sigma, messages({ system: text(fiveMinutes) }));
    expect(holdMicros(sigma.prices, plain)).toBe(held(plain, 3_750_000));
    const asking = planMessages(sigma, messages({ system: text(hour) }));
    expect(holdMicros(sigma.prices, asking)).toBe(held(asking, 6_000_000));
    const chatPlain = planChatCompletion(sigma, chat({}));
    expect(holdMicros(sigma.prices, chatPlain)).toBe(held(chatPlain, 3_750_000));
    const chatAsking = planChatCompletion(sigma, chat({ messages: [{ role: 'user', content: 'hi', cache_control: hour }] }));
    expect(holdMicros(sigma.prices, chatAsking)).toBe(held(chatAsking, 6_000_000));
    const partAsking = planChatCompletion(sigma, chat({ messages: [{ role: 'user', content: text(hour) }] }));
    expect(holdMicros(sigma.prices, partAsking)).toBe(held(partAsking, 6_000_000));
  });
});
