/**
 * `x-unigate-overhead-ms`: how long a request spent in the gateway itself — parsing, auth, limits,
 * catalog, the billing hold, rendering — excluding the time spent waiting on the chat service and
 * its upstream call. For a stream it is measured when the headers go out, with the wait for the
 * first chunk excluded.
 */
import type { FastifyReply } from 'fastify';

export const OVERHEAD_HEADER = 'x-unigate-overhead-ms';

export class OverheadClock {
  private waitedMs = 0;

  constructor(private readonly reply: FastifyReply) {}

  /** Await a downstream call, counting its duration as not ours. */
  async downstream<T>(work: Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work;
    } finally {
      this.waitedMs += performance.now() - start;
    }
  }

  /** A stream whose wait for the first item is counted as downstream time. */
  async *firstItemDownstream<T>(source: AsyncIterable<T>): AsyncIterable<T> {
    const it = source[Symbol.asyncIterator]();
    try {
      let next = await this.downstream(it.next());
      while (!next.done) {
        yield next.value;
        next = await it.next();
      }
    } finally {
      await it.return?.();
    }
  }

  /** Milliseconds with one decimal, stamped as the overhead header. */
  stamp(): void {
    const ms = Math.max(0, this.reply.elapsedTime - this.waitedMs);
    void this.reply.header(OVERHEAD_HEADER, ms.toFixed(1));
  }
}
