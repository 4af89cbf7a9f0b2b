/**
 * SIGTERM with a stalled client attached and a stream in flight: the stalled upload is closed at
 * once, the stream finishes, the process exits cleanly well before the shutdown deadline (not
 * killed after the test harness's 5 s grace), and after a restart the stream's charge is in the
 * ledger — nothing is lost on SIGTERM. The same again with SIGHUP (a closed terminal, or a
 * supervisor's stop signal), which drains the same way (platform's SHUTDOWN_SIGNALS).
 */
import { connect, type Socket } from 'node:net';
import { metricSum, scrapeMetrics, waitFor } from '@unigate/testing';
import WebSocket from 'ws';
import type { Stack } from './stacks';
import { Admin } from './admin';
import { SimControl } from './sim-control';
import { openaiFor, useStack } from './use-stack';

const MODEL = 'sigma-sonnet-4-6';

/** What the stalled upload declares (the edge counts it from its headers on). */
const STALLED_BYTES = 100_000;

/** A client that sent its headers and half a body, then went quiet. */
function stalledUpload(origin: string, apiKey: string): Promise<{ socket: Socket; closed: Promise<number> }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${STALLED_BYTES}\r\n\r\n{"model":"${MODEL}",`,
      );
      resolve({ socket, closed: new Promise((r) => socket.once('close', () => r(performance.now()))) });
    });
    socket.on('error', () => undefined);
  });
}

export function shutdownSuite(start: () => Promise<Stack>, edgeLabel: string) {
  let stack: Stack;
  useStack(start, (s) => (stack = s));

  /** A funded account, and the model answering slowly: about 2 s of tokens for 20. */
  const slowAccount = async () => {
    const admin = new Admin(stack);
    const { accountId, key } = await admin.fundedKey(10);
    await new SimControl(stack).fault({ match: { model: MODEL }, token_delay_ms: 100 });
    return { admin, accountId, key };
  };

  /** Request body bytes the edge holds now. */
  const bodyBytesHeld = async () =>
    metricSum(await scrapeMetrics(stack.originOf(edgeLabel), stack.adminToken), 'unigate_request_body_bytes');

  /** The faults cleared, the account's one charge: what the drained answer produced. */
  const oneChargeAfterFaults = async (admin: Admin, accountId: string) => {
    await new SimControl(stack).clearFaults();
    const usage = await admin.usage(accountId);
    expect(usage).toHaveLength(1);
    expect(usage[0].output_tokens).toBeGreaterThan(0);
    return usage;
  };

  it.each(['SIGTERM', 'SIGHUP'] as const)(
    'on %s: drains a stream, drops a stalled upload, exits cleanly, and bills what it answered',
    async (signal) => {
      const { admin, accountId, key } = await slowAccount();
      const stream = await openaiFor(stack, key).chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'tell me a long story' }],
        max_tokens: 20,
        stream: true,
      });
      const chunks: string[] = [];
      const reading = (async () => {
        for await (const chunk of stream) chunks.push(chunk.choices[0]?.delta?.content ?? '');
      })();
      const stalled = await stalledUpload(stack.origin, key);
      // Both under way when the signal comes: the stream's first event read, the upload's body counted by the edge.
      await waitFor(
        'the stream and the stalled upload under way',
        async () => chunks.length > 0 && (await bodyBytesHeld()) >= STALLED_BYTES,
      );

      const process = stack.processes.find((p) => p.name === edgeLabel || p.name === 'standalone')!;
      const signalled = performance.now();
      const restarted = stack.restart!(edgeLabel, { signal });
      // The stalled upload produced nothing: it does not wait for the deadline.
      expect((await stalled.closed) - signalled).toBeLessThan(1_500);
      await reading;
      expect(chunks.join('').length).toBeGreaterThan(0);
      await restarted;
      // A clean exit within the harness's 5 s grace: the stalled client did not hold the process.
      expect(process.exited()).toBe('exit code 0');

      const usage = await oneChargeAfterFaults(admin, accountId);
      expect((await admin.account(accountId)).balance_usd).toBeCloseTo(10 - usage[0].cost_micros / 1e6, 6);
    },
  );

  it('on SIGTERM: closes an idle Responses WebSocket at once (1001), a busy one after its response, which is billed', async () => {
    const { admin, accountId, key } = await slowAccount();
    const open = () =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`${stack.baseURL.replace(/^http/, 'ws')}/responses`, { headers: { authorization: `Bearer ${key}` } });
        ws.once('open', () => resolve(ws)).once('error', reject);
      });
    const closedWith = (ws: WebSocket) =>
      new Promise<{ code: number; at: number }>((resolve) => ws.once('close', (code) => resolve({ code, at: performance.now() })));
    const idle = await open();
    const busy = await open();
    const idleClosed = closedWith(idle);
    const busyClosed = closedWith(busy);
    const events: Array<{ type: string; status?: number }> = [];
    busy.on('message', (data) => events.push(JSON.parse(String(data)) as { type: string; status?: number }));
    busy.send(JSON.stringify({ type: 'response.create', model: MODEL, input: 'tell me a long story', max_output_tokens: 20 }));
    await waitFor('the busy connection answering', () => events.some((e) => e.type === 'response.output_text.delta'));

    const process = stack.processes.find((p) => p.name === edgeLabel || p.name === 'standalone')!;
    const signalled = performance.now();
    const restarted = stack.restart!(edgeLabel, { signal: 'SIGTERM' });
    const idleEnd = await idleClosed;
    expect(idleEnd.code).toBe(1001);
    expect(idleEnd.at - signalled).toBeLessThan(1_000);
    // Draining: the busy connection's response goes on, a new request is refused.
    busy.send(JSON.stringify({ type: 'response.create', model: MODEL, input: 'one more', max_output_tokens: 20 }));
    const busyEnd = await busyClosed;
    expect(busyEnd.code).toBe(1001);
    // Its end event went out before the close (max_output_tokens ends it as incomplete).
    expect(events.filter((e) => e.type !== 'error').at(-1)?.type).toBe('response.incomplete');
    expect(events.filter((e) => e.type === 'error')).toEqual([expect.objectContaining({ status: 503 })]);
    await restarted;
    expect(process.exited()).toBe('exit code 0');

    await oneChargeAfterFaults(admin, accountId);
  });
}
