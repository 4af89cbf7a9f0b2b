import { toToolResult } from './tool-result';
import type { LocalAnswer } from '../http/local-calls';

const answer = (status: number, contentType: string, body: unknown): LocalAnswer => ({
  status,
  contentType,
  body: Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  requestId: 'req_1',
});

describe('toToolResult', () => {
  it('a JSON answer is text and structured content, with the request id and status in _meta', () => {
    const r = toToolResult(answer(200, 'application/json; charset=utf-8', { id: 'x', object: 'chat.completion' }));
    expect(r).toEqual({
      _meta: { request_id: 'req_1', http_status: 200 },
      content: [{ type: 'text', text: '{"id":"x","object":"chat.completion"}' }],
      structuredContent: { id: 'x', object: 'chat.completion' },
    });
  });

  it('base64 images of an image answer become image content, typed by output_format, and leave the JSON', () => {
    const r = toToolResult(
      answer(200, 'application/json', { created: 1, output_format: 'jpeg', data: [{ b64_json: 'AAAA' }, { b64_json: 'BBBB' }] }),
    );
    expect(r.content.slice(1)).toEqual([
      { type: 'image', data: 'AAAA', mimeType: 'image/jpeg' },
      { type: 'image', data: 'BBBB', mimeType: 'image/jpeg' },
    ]);
    expect(r.content[0].type).toBe('text');
    expect((r.content[0] as { text: string }).text).not.toContain('AAAA');
    expect(r.structuredContent).toEqual({
      created: 1,
      output_format: 'jpeg',
      data: [{ b64_json: '(image content #1 of this result)' }, { b64_json: '(image content #2 of this result)' }],
    });
  });

  it('audio bytes (speech) are audio content', () => {
    const r = toToolResult(answer(200, 'audio/mpeg', Buffer.from([1, 2, 3])));
    expect(r.content).toEqual([{ type: 'audio', data: 'AQID', mimeType: 'audio/mpeg' }]);
  });

  it.each([
    ['Shape B', 400, { error: { message: 'bad field', type: 'invalid_request_error', code: 'x', param: 'messages' } }],
    ['402 Shape B', 402, { error: { message: 'Insufficient balance' } }],
    ['Shape A', 429, { code: 'Throttling.RateQuota', message: 'slow down', request_id: 'req_1' }],
    ['Anthropic', 401, { type: 'error', error: { type: 'authentication_error', message: 'no key' }, request_id: 'req_1' }],
  ])('an error answer (%s) is a tool error carrying its message and whole body', (_shape, status, body) => {
    const r = toToolResult(answer(status, 'application/json', body));
    expect(r.isError).toBe(true);
    const message = (body as { error?: { message: string }; message?: string }).error?.message ?? (body as { message: string }).message;
    expect(r.content).toEqual([{ type: 'text', text: message }]);
    expect(r.structuredContent).toEqual(body);
    expect(r._meta).toEqual({ request_id: 'req_1', http_status: status });
  });

  it('an error without a JSON body says its status', () => {
    expect(toToolResult(answer(502, 'text/plain', 'Bad Gateway')).content).toEqual([{ type: 'text', text: 'HTTP 502: Bad Gateway' }]);
  });
});
