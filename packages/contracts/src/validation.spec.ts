/**
 * 400 messages name the field and say what was wrong with it: "is required" only when it is missing,
 * never for a value of the wrong type (517 of 644 wrong-type answers used to say "is required").
 */
import { createKeySchema } from './admin';
import { anthropicCountTokensRequestSchema, anthropicMessagesRequestSchema } from './anthropic';
import { chatCompletionRequestSchema } from './chat';
import { GatewayError } from './errors';
import { MAX_MESSAGES } from './limits';
import { speechRequestSchema } from './endpoints/speech/endpoint';
import { inputItemsQuerySchema, responsesRequestSchema } from './responses';
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

  const chat = { model: 'm', messages: hi };
  const responses = { model: 'm', input: 'hi' };
  const EMPTY_BODY = 'The request body is empty: it must be a JSON object.';
  it.each<[string, z.ZodType, unknown, string]>([
    [
      'chat: tool_choice whose function has no name',
      chatCompletionRequestSchema,
      { ...chat, tool_choice: { type: 'function', function: {} } },
      "Invalid 'tool_choice.function.name': tool_choice.function.name is required",
    ],
    [
      'chat: tool_choice without its function',
      chatCompletionRequestSchema,
      { ...chat, tool_choice: { type: 'function' } },
      'Invalid \'tool_choice.function\': tool_choice.function is required: {"name": ...} naming the function the model must call',
    ],
    [
      'chat: tool_choice of the wrong kind',
      chatCompletionRequestSchema,
      { ...chat, tool_choice: 5 },
      'Invalid \'tool_choice\': tool_choice must be \'auto\', \'none\', \'required\' or {"type": "function", "function": {"name": ...}}',
    ],
    [
      'responses: tool_choice function without a name',
      responsesRequestSchema,
      { ...responses, tool_choice: { type: 'function' } },
      "Invalid 'tool_choice.name': tool_choice.name is required",
    ],
    [
      'responses: tool_choice custom without a name',
      responsesRequestSchema,
      { ...responses, tool_choice: { type: 'custom' } },
      "Invalid 'tool_choice.name': tool_choice.name is required",
    ],
    [
      'responses: tool_choice allowed_tools without tools',
      responsesRequestSchema,
      { ...responses, tool_choice: { type: 'allowed_tools', mode: 'auto' } },
      "Invalid 'tool_choice.tools': tool_choice.tools is required",
    ],
    [
      'chat: content a number',
      chatCompletionRequestSchema,
      { ...chat, messages: [{ role: 'user', content: 5 }] },
      "Invalid 'messages[0].content': expected string, array or null, got number",
    ],
    [
      'chat: a text block’s text a number',
      chatCompletionRequestSchema,
      { ...chat, messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] },
      "Invalid 'messages[0].content[0].text': expected string, got number",
    ],
    [
      'responses: an input_text’s text a number',
      responsesRequestSchema,
      { ...responses, input: [{ role: 'user', content: [{ type: 'input_text', text: 5 }] }] },
      "Invalid 'input[0].content[0].text': expected string, got number",
    ],
    ['chat: an empty body', chatCompletionRequestSchema, undefined, EMPTY_BODY],
    ['messages: an empty body', anthropicMessagesRequestSchema, undefined, EMPTY_BODY],
    ['count_tokens: an empty body', anthropicCountTokensRequestSchema, undefined, EMPTY_BODY],
    ['responses: an empty body', responsesRequestSchema, undefined, EMPTY_BODY],
    ['chat: a body that is no object', chatCompletionRequestSchema, 5, 'expected object, got number'],
    [
      'chat: a body of 1e999 (JSON parses it as Infinity)',
      chatCompletionRequestSchema,
      Infinity,
      'expected object, got a number too large to hold',
    ],
    // A message written for the missing case, with more after its "is required": the type seen, not "required".
    ['speech: input a number', speechRequestSchema, { model: 'm', input: 123 }, "Invalid 'input': expected string, got number"],
    ['speech: input an array', speechRequestSchema, { model: 'm', input: ['a'] }, "Invalid 'input': expected string, got array"],
    [
      'admin: a limit past 2^53',
      createKeySchema,
      { rate_limit_rpm: 1e20 },
      "Invalid 'rate_limit_rpm': rate_limit_rpm must be at most 2147483647",
    ],
  ])('%s', (_label, schema, body, expected) => {
    expect(messageOf(schema, body)).toBe(expected);
  });

  it('a number that is not one (a query parameter coerced from text) is named as such', () => {
    expect(() => parseOrThrow(inputItemsQuerySchema, { limit: 'abc' })).toThrow(
      "Invalid 'limit': expected number, got a value that is not a number",
    );
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
