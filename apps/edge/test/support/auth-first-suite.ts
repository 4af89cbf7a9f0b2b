/**
 * Authentication comes first on every endpoint: a missing or wrong key is a 401 in the endpoint's
 * error shape, whatever the body — malformed JSON, a wrong type, an empty body, or a body far too
 * large. Driven by the endpoint spec list, so a new endpoint is covered without new test code.
 */
import { ENDPOINTS, type AnyEndpointSpec } from '@unigate/contracts';
import type { Stack } from './stacks';
import { json, useStack } from './use-stack';

const BODIES: Array<[string, string]> = [
  ['malformed JSON', '{"model": '],
  ['a body of the wrong type', '[1, 2, 3]'],
  ['an empty body', ''],
  ['a valid-looking body with wrong fields', JSON.stringify({ model: 42, messages: 'none', max_tokens: -1 })],
];

const KEYS: Array<[string, Record<string, string>]> = [
  ['no key', {}],
  ['a wrong Bearer key', { authorization: 'Bearer sk-wrong0000000000000000000000000000000000' }],
];

/** The 401 body in the shape `spec` speaks (SPEC.md §7; Anthropic's for the messages endpoints). */
function expectUnauthorized(spec: AnyEndpointSpec, body: Record<string, unknown>) {
  const shape = spec.errorShape();
  if (shape === 'anthropic') expect(body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  else if (shape === 'A')
    expect(body).toMatchObject({ code: 'invalid_api_key', message: expect.any(String), request_id: expect.stringMatching(/^req_/) });
  else expect(body).toMatchObject({ error: { code: 'invalid_api_key', type: 'invalid_request_error' } });
}

export function authFirstSuite(start: () => Promise<Stack>) {
  let stack: Stack;
  useStack(start, (s) => (stack = s));

  describe.each(ENDPOINTS.map((spec) => [spec.path, spec] as const))('%s', (_path, spec) => {
    it.each(KEYS.flatMap(([keyLabel, headers]) => BODIES.map(([bodyLabel, body]) => [keyLabel, bodyLabel, headers, body] as const)))(
      'answers %s with %s: 401',
      async (_k, _b, headers, body) => {
        const res = await fetch(`${stack.origin}${spec.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
        expect(res.status).toBe(401);
        // Clients that retry on their own (Claude Code retries a 401 for a minute) are told not to.
        expect(res.headers.get('x-should-retry')).toBe('false');
        expectUnauthorized(spec, await json(res));
      },
    );

    it('answers a wrong key before reading a body far over the size limit', async () => {
      const res = await fetch(`${stack.origin}${spec.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-wrong0000000000000000000000000000000000' },
        body: 'x'.repeat(40 * 1024 * 1024),
      });
      expect(res.status).toBe(401);
      expectUnauthorized(spec, await json(res));
    });

    if (spec.acceptsXApiKey) {
      it('answers a wrong x-api-key with 401 too', async () => {
        const res = await fetch(`${stack.origin}${spec.path}`, {
          method: 'POST',
          headers: { 'x-api-key': 'sk-wrong', 'content-type': 'application/json' },
          body: '{',
        });
        expect(res.status).toBe(401);
        expectUnauthorized(spec, await json(res));
      });
    }
  });

  it.each(['/v1/models', '/v1/dashboard/billing/subscription', '/v1/dashboard/billing/usage?start_date=bad'])(
    'answers GET %s with a wrong key: 401',
    async (path) => {
      const res = await fetch(`${stack.origin}${path}`, {
        headers: { authorization: 'Bearer sk-wrong0000000000000000000000000000000000' },
      });
      expect(res.status).toBe(401);
      expect(await json(res)).toMatchObject({ error: { code: 'invalid_api_key', type: 'invalid_request_error' } });
    },
  );
}
