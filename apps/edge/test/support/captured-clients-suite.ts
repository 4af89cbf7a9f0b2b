/**
 * The requests the real coding agents send, replayed byte for byte from captures
 * (packages/contracts/src/__fixtures__: Claude Code 2.1.328 on /v1/messages?beta=true with its
 * headers, Codex CLI 0.169.0 on /v1/responses — each a first turn and a tool-result turn), on every
 * chat family. It runs on the distributed deployment, where the real binaries do not (they run
 * against standalone: coding-agents.standalone.test.ts, which sends the same requests live). On the
 * messages-native upstream the body and `anthropic-beta` arrive unchanged.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSseEvents } from './sse-events';
import { ROOT, type Stack } from './stacks';
import { json, useStack } from './use-stack';

interface Capture {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const capture = (name: string): Capture =>
  JSON.parse(readFileSync(join(ROOT, 'packages/contracts/src/__fixtures__', name), 'utf8')) as Capture;

const CLAUDE = [capture('claude-code-2.1.328.messages.json'), capture('claude-code-2.1.328.messages.tool-result.json')];
const CODEX = [capture('codex-0.169.0.responses.json'), capture('codex-0.169.0.responses.tool-output.json')];
/** What the captured tool turns read (a file holding this line). */
const SECRET = 'The secret word is PELICAN-42.';

interface LoggedRequest {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export function capturedClientsSuite(start: () => Promise<Stack>) {
  let stack: Stack;
  useStack(start, (s) => (stack = s));

  const replay = (c: Capture, model: string | undefined, auth: Record<string, string>) =>
    fetch(`${stack.origin}${c.url}`, {
      method: 'POST',
      headers: { ...c.headers, ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(model ? { ...c.body, model } : c.body),
    });
  const simLog = async (): Promise<LoggedRequest[]> => (await json(await fetch(`${stack.simUrl}/_sim/requests`))).data;

  // undefined: the model name Claude Code asked for (claude-opus-5-5), aliased to a messages-native model.
  describe.each([undefined, 'gamma-2.5-flash', 'omega-k3'])('Claude Code 2.1.328 on %s', (model) => {
    it.each([
      ['its first turn', 0],
      ['its tool-result turn', 1],
    ])('streams the exact event sequence for %s', async (_label, turn) => {
      const res = await replay(CLAUDE[turn], model, { 'x-api-key': stack.apiKey });
      expect(res.status).toBe(200);
      const events = (await readSseEvents(res)).map((e) => ({ name: e.event, data: JSON.parse(e.data) }));
      expect(events[0].name).toBe('message_start');
      expect(events.slice(-2).map((e) => e.name)).toEqual(['message_delta', 'message_stop']);
      const text = events
        .filter((e) => e.name === 'content_block_delta' && e.data.delta.type === 'text_delta')
        .map((e) => e.data.delta.text)
        .join('');
      expect(text.length).toBeGreaterThan(0);
      if (turn === 1) expect(text).toContain(SECRET);
    });
  });

  it('passes the body and anthropic-beta to a messages-native upstream unchanged', async () => {
    const res = await replay(CLAUDE[0], undefined, { authorization: `Bearer ${stack.apiKey}` });
    expect(res.status).toBe(200);
    await res.text();
    const sent = (await simLog()).filter((r) => r.path.startsWith('/v1/messages')).at(-1)!;
    expect(sent.headers['anthropic-beta']).toBe(CLAUDE[0].headers['anthropic-beta']);
    const { model: _asked, ...rest } = CLAUDE[0].body;
    expect(sent.body).toEqual({ ...rest, model: 'sigma-opus-4-7' });
  });

  describe.each(['gamma-2.5-flash', 'sigma-sonnet-4-6', 'omega-k3'])('Codex CLI 0.169.0 on %s', (model) => {
    it.each([
      ['its first turn', 0],
      ['its tool-output turn', 1],
    ])('streams a completed response for %s', async (_label, turn) => {
      const res = await replay(CODEX[turn], model, { authorization: `Bearer ${stack.apiKey}` });
      expect(res.status).toBe(200);
      const events = (await readSseEvents(res)).map((e) => ({ name: e.event, data: JSON.parse(e.data) }));
      expect(events[0].name).toBe('response.created');
      const done = events.at(-1)!;
      expect(done.name).toBe('response.completed');
      expect(done.data.response.model).toBe(model);
      const text = events
        .filter((e) => e.name === 'response.output_text.delta')
        .map((e) => e.data.delta)
        .join('');
      expect(text.length).toBeGreaterThan(0);
      if (turn === 1) expect(text).toContain(SECRET);
    });
  });
}
