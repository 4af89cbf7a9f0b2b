import type { ModelInfo } from '../../catalog';
import { chatCompletionRequestSchema } from '../../chat';
import { GatewayError } from '../../errors';
import { costMicros } from '../../pricing';
import { parseOrThrow } from '../../validation';
import { DEFAULT_OUTPUT_CAP, planChatCompletion } from './chat-plan';

const enforceChatModelRules = planChatCompletion;
const worstCaseCost = (m: ModelInfo, extra: Record<string, unknown> = {}) => costMicros(m.prices, planChatCompletion(m, body(extra)));

const model = (id: string, extra: Partial<ModelInfo> = {}): ModelInfo => ({
  id,
  family: id.split('-')[0],
  kind: 'chat',
  owned_by: 'x',
  created: 0,
  prices: { input_per_mtok: 600_000, cached_input_per_mtok: 150_000, output_per_mtok: 2_500_000 },
  ...extra,
});
const omega = model('omega-k3', {
  context_window: 1_048_576,
  max_output_tokens: 1_048_576,
  chat: { reasoning: true, reasoning_efforts: ['max'] },
});
const gamma = model('gamma-2.5-flash', { context_window: 1_048_576, chat: { media_input: true } });
const sigma = model('sigma-sonnet-4-6', { context_window: 200_000, chat: { vision: true } });

const body = (extra: Record<string, unknown> = {}) =>
  parseOrThrow(chatCompletionRequestSchema, { model: 'm', messages: [{ role: 'user', content: 'hi' }], ...extra });
const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];

function rejection(m: ModelInfo, extra: Record<string, unknown>): GatewayError {
  try {
    enforceChatModelRules(m, body(extra));
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  throw new Error('expected a 400');
}

describe('media blocks', () => {
  const media = [
    { type: 'text', text: 'What happens here?' },
    { type: 'video_url', video_url: { url: 'https://example.com/a.mp4' } },
    { type: 'audio_url', audio_url: { url: 'https://example.com/a.mp3' } },
    { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
  ];

  it('are accepted by a model with media_input', () => {
    expect(() => enforceChatModelRules(gamma, body({ messages: [{ role: 'user', content: media }] }))).not.toThrow();
  });

  it.each([1, 2, 3])(
    "hold the model's whole window as input: their tokens grow with their length, which is not counted here (block %i)",
    (index) => {
      const usage = planChatCompletion(gamma, body({ messages: [{ role: 'user', content: [media[0], media[index]] }], max_tokens: 10 }));
      expect(usage).toEqual({ input_tokens: 1_048_576, output_tokens: 10 });
    },
  );

  it('so does an image block pointing at a video, audio or PDF file; an image stays held at its estimate', () => {
    const imageAt = (url: string) => body({ messages: [{ role: 'user', content: [media[0], { type: 'image_url', image_url: { url } }] }] });
    for (const url of ['https://example.com/talk.mp4?sig=1', 'data:application/pdf;base64,JVBERi0=', 'gs://bucket/a.flac'])
      expect(planChatCompletion(gamma, imageAt(url)).input_tokens).toBe(1_048_576);
    for (const url of ['https://example.com/cat.png', 'https://example.com/photo?id=1', 'data:image/jpeg;base64,/9j/'])
      expect(planChatCompletion(gamma, imageAt(url)).input_tokens).toBeLessThan(1_000);
  });

  it("hold each image at the model's max_image_tokens, and both images and lengthy media together under the window", () => {
    const cat = { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } };
    const images = body({ messages: [{ role: 'user', content: [media[0], cat, cat] }], max_tokens: 10 });
    const fixed = planChatCompletion(sigma, images).input_tokens!;
    expect(planChatCompletion({ ...sigma, max_image_tokens: 1_600 }, images).input_tokens).toBe(fixed + 2 * (1_600 - 765));
    const both = body({ messages: [{ role: 'user', content: [media[0], cat, media[1]] }], max_tokens: 10 });
    expect(planChatCompletion({ ...gamma, max_image_tokens: 5_000 }, both).input_tokens).toBe(1_048_576);
  });

  it.each([1, 2, 3])('are refused elsewhere, naming the block (block %i)', (index) => {
    const err = rejection(sigma, { messages: [{ role: 'user', content: [media[0], media[index]] }] });
    expect(err).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'unsupported_content_type',
      param: 'messages[0].content[1]',
    });
    expect(err.message).toContain(media[index].type);
    expect(err.message).toContain('sigma-sonnet-4-6');
  });
});

describe('omega-k3 rules', () => {
  it.each<[string, Record<string, unknown>, string, string?]>([
    ['reasoning_effort other than max', { reasoning_effort: 'high' }, 'reasoning_effort'],
    ['tool_choice naming an undeclared tool', { tools, tool_choice: { type: 'function', function: { name: 'other' } } }, 'tool_choice'],
    ['tool_choice required without tools', { tool_choice: 'required' }, 'tool_choice'],
    [
      'json_schema without a schema',
      { response_format: { type: 'json_schema', json_schema: { name: 'x' } } },
      'response_format.json_schema.schema',
    ],
    ['n of zero (common schema)', { n: 0 }, 'n'],
  ])('rejects %s', (_label, extra, param) => {
    const err = (() => {
      try {
        return rejection(omega, extra);
      } catch (e) {
        return e as GatewayError; // the common schema may catch it first, with the same 400
      }
    })();
    expect(err).toMatchObject({ status: 400, type: 'invalid_request_error', param });
  });

  it('accepts every allowed form', () => {
    for (const extra of [
      { reasoning_effort: 'max' },
      { tools, tool_choice: 'auto' },
      { tools, tool_choice: 'none' },
      { tools, tool_choice: 'required' },
      { tools, tool_choice: { type: 'function', function: { name: 'lookup' } } },
      { tool_choice: 'none' },
      { response_format: { type: 'json_object' } },
      { response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } } },
      { n: 3 },
    ]) {
      expect(() => enforceChatModelRules(omega, body(extra))).not.toThrow();
    }
  });

  it('leaves the same fields alone on models without these rules', () => {
    expect(() => enforceChatModelRules(sigma, body({ reasoning_effort: 'high', tool_choice: 'required' }))).not.toThrow();
  });

  it('rejects a prompt over the context window with context_length_exceeded', () => {
    const small = { ...omega, context_window: 50 };
    const err = rejection(small, { messages: [{ role: 'user', content: 'word '.repeat(60) }] });
    expect(err).toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'messages' });
    expect(() => enforceChatModelRules(small, body({ messages: [{ role: 'user', content: 'word '.repeat(40) }] }))).not.toThrow();
  });
});

describe('the hold without max_tokens', () => {
  it('assumes at most 131,072 output tokens for omega-k3 instead of its whole window', () => {
    expect(planChatCompletion(omega, body()).output_tokens).toBe(131_072);
    const hold = worstCaseCost(omega);
    // Without the cap the hold would assume the whole 1,048,576-token window.
    expect(hold).toBeLessThan(costMicros(omega.prices, { output_tokens: 1_048_576 }) / 7);
    expect(hold).toBe(Math.ceil(((Math.ceil(7 * 1.2) + 16) * 600_000 + 131_072 * 2_500_000) / 1e6));
  });

  it('never assumes more than the window leaves after the prompt ("hi" is 7 tokens), and defers to max_tokens', () => {
    expect(planChatCompletion({ ...omega, context_window: 1000 }, body()).output_tokens).toBe(1000 - 7);
    expect(planChatCompletion(omega, body({ max_tokens: 10 })).output_tokens).toBe(10);
    expect(planChatCompletion(omega, body({ max_tokens: 10, n: 3 })).output_tokens).toBe(30);
    // gamma has no hold cap: its catalogue output limit applies.
    expect(planChatCompletion(gamma, body()).output_tokens).toBe(DEFAULT_OUTPUT_CAP);
    expect(planChatCompletion({ ...gamma, max_output_tokens: 65_536 }, body()).output_tokens).toBe(65_536);
  });

  it('counts declared tools into the prompt estimate', () => {
    const plain = planChatCompletion(sigma, body()).input_tokens!;
    const withTools = planChatCompletion(sigma, body({ tools })).input_tokens!;
    expect(withTools).toBeGreaterThan(plain);
  });
});
