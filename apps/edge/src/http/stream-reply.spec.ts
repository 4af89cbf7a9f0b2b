import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { sseFrame, SSE_HEADERS, streamReply } from './stream-reply';

/** A source that yields nothing until aborted, then fails the way an aborted upstream fetch does. */
function abortedBeforeFirstItem(signal: AbortSignal, opened: () => void): AsyncIterable<string> {
  const next = async (): Promise<IteratorResult<string>> => {
    opened();
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    throw signal.reason;
  };
  return { [Symbol.asyncIterator]: () => ({ next }) };
}

/** A promise and the function that resolves it. */
function signal(): [Promise<void>, () => void] {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return [promise, fire];
}

describe('streamReply', () => {
  it('answers nothing to a client that left before the first item (its abort is not an error)', async () => {
    const earlyErrors: unknown[] = [];
    const [opened, open] = signal();
    const [done, finished] = signal();
    const app = Fastify();
    app.post('/stream', async (_request, reply) => {
      await streamReply(reply, {
        open: (abort) => abortedBeforeFirstItem(abort, open),
        headers: SSE_HEADERS,
        frame: (item) => sseFrame(undefined, item),
        failure: () => undefined,
        onEarlyError: (err) => earlyErrors.push(err),
      });
      finished();
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const client = request({ port, host: '127.0.0.1', method: 'POST', path: '/stream' });
      client.on('error', () => undefined);
      client.end();
      // Leave once the source is open, before anything was answered.
      await opened;
      client.destroy();
      await done;
      expect(earlyErrors).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('delivers every item in order to a slow reader: items written together respect backpressure', async () => {
    const COUNT = 3000;
    const [done, finished] = signal();
    const app = Fastify();
    app.post('/stream', async (_request, reply) => {
      await streamReply(reply, {
        // Every item is ready at once: they leave in shared writes, far beyond the socket's buffer.
        open: async function* () {
          for (let i = 0; i < COUNT; i++) yield `${i}:${'x'.repeat(1000)}`;
        },
        headers: SSE_HEADERS,
        frame: (item) => sseFrame(undefined, item),
        trailer: sseFrame(undefined, '[DONE]'),
        failure: () => undefined,
        onEarlyError: () => undefined,
      });
      finished();
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const body = await new Promise<string>((resolve, reject) => {
        const client = request({ port, host: '127.0.0.1', method: 'POST', path: '/stream' }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          // A reader that stops for a while: the server must wait for it, then finish.
          res.pause();
          setTimeout(() => res.resume(), 300);
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve(text));
        });
        client.on('error', reject);
        client.end();
      });
      await done;
      const items = body
        .split('\n\n')
        .filter(Boolean)
        .map((e) => e.slice('data: '.length));
      expect(items).toHaveLength(COUNT + 1);
      expect(items.slice(0, COUNT).map((i) => Number(i.split(':')[0]))).toEqual(Array.from({ length: COUNT }, (_, i) => i));
      expect(items[COUNT]).toBe('[DONE]');
    } finally {
      await app.close();
    }
  });
});
