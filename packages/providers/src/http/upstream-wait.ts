/**
 * How long a call waits on its upstreams, for `x-unigate-overhead-ms`: from a request handed to its
 * socket (the write itself is the gateway's work: HttpClient starts the wait after it) to its whole
 * answer (read by readJsonBody), to a stream's first event (readUpstreamStream), or to its failure. The runner registers the call's CallMeter under the call's AbortSignal, which every
 * upstream request already carries; keying on it reaches every adapter without threading one more
 * parameter through each of them.
 */
import type { CallMeter } from '@unigate/contracts';

const meters = new WeakMap<AbortSignal, CallMeter>();

/** Upstream requests sent with `signal` add their wait to `meter`. */
export function timeUpstreamsOf(signal: AbortSignal, meter: CallMeter): void {
  meters.set(signal, meter);
}

/** One request's wait; `end()` adds it to its call's meter once (later calls do nothing). */
export interface UpstreamWait {
  end(): void;
}

const NO_WAIT: UpstreamWait = { end: () => undefined };

export function startUpstreamWait(signal: AbortSignal | undefined): UpstreamWait {
  const meter = signal && meters.get(signal);
  if (!meter) return NO_WAIT;
  const start = performance.now();
  let open = true;
  return {
    end() {
      if (!open) return;
      open = false;
      meter.upstream_ms += performance.now() - start;
    },
  };
}
