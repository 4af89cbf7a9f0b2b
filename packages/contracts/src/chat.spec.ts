import { chatCompletionRequestSchema } from './chat';
import { GatewayError } from './errors';
import { parseOrThrow } from './validation';

const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

function reject(body: unknown): GatewayError {
  try {
    parseOrThrow(chatCompletionRequestSchema, body);
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  throw new Error('expected a validation error');
}

describe('chat completion request validation', () => {
  it('accepts a minimal request and keeps unknown fields', () => {
    const parsed = parseOrThrow(chatCompletionRequestSchema, { ...base, seed: 1, logprobs: true });
    expect(parsed).toMatchObject({ model: 'm', logprobs: true });
  });

  it.each([
    [{ ...base, temperature: 3 }, 'temperature'],
    [{ ...base, top_p: 2 }, 'top_p'],
    [{ ...base, stop: ['1', '2', '3', '4', '5'] }, 'stop'],
    [{ ...base, presence_penalty: -2.01 }, 'presence_penalty'],
    [{ ...base, frequency_penalty: 2.01 }, 'frequency_penalty'],
    [{ ...base, max_tokens: 0 }, 'max_tokens'],
    [{ ...base, n: 129 }, 'n'],
    [{ ...base, messages: [{ role: 'bot', content: 'x' }] }, 'messages[0].role'],
    [{ ...base, messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
    [{ ...base, messages: [{ role: 'user' }] }, 'messages[0].content'],
    [{ model: 'm' }, 'messages'],
  ])('names the field for %j', (body, field) => {
    const err = reject(body);
    expect(err.status).toBe(400);
    expect(err.type).toBe('invalid_request_error');
    expect(err.param).toBe(field);
    expect(err.message).toContain(field);
  });

  it('points into a content array at the bad block', () => {
    const err = reject({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'audio' }] }] });
    expect(err.param).toMatch(/^messages\[0\]\.content\[1\]/);
    expect(err.message).toContain('text, image_url');
  });

  it('keeps a prompt-cache breakpoint (cache_control) on a text or image part, and names a malformed one', () => {
    const hour = { type: 'ephemeral', ttl: '1h' };
    const content = [
      { type: 'text', text: 'rules', cache_control: { type: 'ephemeral' } },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' }, cache_control: hour },
      { type: 'text', text: 'question' },
    ];
    const parsed = parseOrThrow(chatCompletionRequestSchema, { ...base, messages: [{ role: 'user', content }] });
    expect(parsed.messages[0].content).toEqual(content);

    const marked = (cache_control: unknown) => ({
      ...base,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'a', cache_control }] }],
    });
    for (const bad of [{ type: 'persistent' }, { type: 'ephemeral', ttl: '24h' }, 'ephemeral']) {
      const err = reject(marked(bad));
      expect(err.status).toBe(400);
      expect(err.param).toMatch(/^messages\[0\]\.content\[0\]\.cache_control/);
      expect(err.message).toContain('messages[0].content[0].cache_control');
    }
  });

  it('keeps a breakpoint on a whole message (LiteLLM convention), and names a malformed one', () => {
    const messages = [
      { role: 'system', content: 'rules', cache_control: { type: 'ephemeral', ttl: '1h' } },
      { role: 'user', content: 'question', cache_control: null },
    ];
    expect(parseOrThrow(chatCompletionRequestSchema, { ...base, messages }).messages).toEqual(messages);
    for (const bad of [{ type: 'persistent' }, { type: 'ephemeral', ttl: '24h' }, 'ephemeral']) {
      const err = reject({
        ...base,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b', cache_control: bad },
        ],
      });
      expect(err.status).toBe(400);
      expect(err.param).toMatch(/^messages\[1\]\.cache_control/);
      expect(err.message).toContain('messages[1].cache_control');
    }
  });

  it('allows an assistant message with tool_calls and null content', () => {
    const body = {
      ...base,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      ],
    };
    expect(() => parseOrThrow(chatCompletionRequestSchema, body)).not.toThrow();
  });

  it("parses null as absent where OpenAI's SDK lets a field be null, and still names a value of the wrong kind", () => {
    const nulls = { temperature: null, top_p: null, max_tokens: null, max_completion_tokens: null, n: null, stream: null, seed: null };
    const parsed = parseOrThrow(chatCompletionRequestSchema, {
      ...base,
      ...nulls,
      presence_penalty: null,
      frequency_penalty: null,
      reasoning_effort: null,
      prompt_cache_key: null,
      temperature: 0.5,
      messages: [{ role: 'assistant', content: 'x', tool_calls: null, name: null }, ...base.messages],
    });
    expect(parsed).toEqual({ ...base, temperature: 0.5, messages: [{ role: 'assistant', content: 'x' }, ...base.messages] });
    for (const key of Object.keys(nulls)) expect(Object.hasOwn(parsed, key)).toBe(key === 'temperature');
    expect(reject({ ...base, n: 'two' }).param).toBe('n');
    expect(reject({ ...base, messages: [{ role: 'assistant', content: 'x', tool_calls: {} }] }).param).toBe('messages[0].tool_calls');
  });

  it('accepts the media blocks of the video/audio models and names a bad one', () => {
    const media = [
      { type: 'video_url', video_url: { url: 'https://example.com/a.mp4' } },
      { type: 'audio_url', audio_url: { url: 'data:audio/wav;base64,UklGRg==' } },
      { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
    ];
    expect(() => parseOrThrow(chatCompletionRequestSchema, { ...base, messages: [{ role: 'user', content: media }] })).not.toThrow();
    const err = reject({
      ...base,
      messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'midi' } }] }],
    });
    expect(err.param).toBe('messages[0].content[0].input_audio.format');
    expect(reject({ ...base, messages: [{ role: 'user', content: [{ type: 'video_url', video_url: {} }] }] }).param).toMatch(
      /^messages\[0\]\.content\[0\]/,
    );
  });
});

describe('error rendering', () => {
  const { errors, renderError } = jest.requireActual('./errors') as typeof import('./errors');

  it('renders 429 in Shape A on Shape B endpoints', () => {
    expect(renderError(errors.rateLimited('slow down', 3), 'B', 'req_1')).toEqual({
      code: 'Throttling.RateQuota',
      message: 'slow down',
      request_id: 'req_1',
    });
  });

  it('renders 429 on the messages endpoints in both Shape A and the Anthropic shape', () => {
    expect(renderError(errors.rateLimited('slow down', 3), 'anthropic', 'req_2')).toEqual({
      code: 'Throttling.RateQuota',
      message: 'slow down',
      request_id: 'req_2',
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
    });
  });

  it('renders 402 with the message only', () => {
    expect(renderError(errors.insufficientBalance(5, 1), 'B', 'req_3')).toEqual({
      error: { message: expect.stringContaining('Insufficient balance') },
    });
  });
});
