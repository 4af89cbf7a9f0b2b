/**
 * `x-unigate-overhead-ms`: how long a request spent in the gateway itself — parsing, auth, limits,
 * routing, the hold, the hop to the service, translation, rendering — that is, the time it took
 * minus the time spent waiting on upstreams, which the service measures (UpstreamTiming: to the
 * whole answer, or to a stream's first event) and reports back. For a stream it is stamped when the
 * headers go out, just after the first event arrived.
 */
import type { UpstreamTiming } from '@unigate/contracts';
import type { FastifyReply } from 'fastify';

export const OVERHEAD_HEADER = 'x-unigate-overhead-ms';

export class OverheadClock {
  /** Filled by the service as it waits on upstreams. */
  readonly upstream: UpstreamTiming = { ms: 0 };

  constructor(private readonly reply: FastifyReply) {}

  /** Milliseconds with two decimals, stamped as the overhead header. */
  stamp(): void {
    const ms = Math.max(0, this.reply.elapsedTime - this.upstream.ms);
    void this.reply.header(OVERHEAD_HEADER, ms.toFixed(2));
  }
}
