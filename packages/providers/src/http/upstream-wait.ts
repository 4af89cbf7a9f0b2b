/**
 * How long a call waits on its upstreams, for `x-unigate-overhead-ms`: from a request handed to its
 * socket (the write itself is the gateway's work: HttpClient starts the wait after it) to its whole
 * answer (read by readJsonBody), to a stream's first event (readUpstreamStream), or to its failure. The runner registers the call's UpstreamTiming under the call's AbortSignal, which every
 * upstream request already carries; keying on it reaches every adapter without threading one more
 * parameter through each of them.
 */
import type { UpstreamTiming } from '@unigate/contracts';

const timings = new WeakMap<AbortSignal, UpstreamTiming>();

/** Upstream requests sent with `signal` add their wait to `timing`. */
export function timeUpstreamsOf(signal: AbortSignal, timing: UpstreamTiming): void {
  timings.set(signal, timing);
}

/** One request's wait; `end()` adds it to its call's timing once (later calls do nothing). */
export interface UpstreamWait {
  end(): void;
}

const NO_WAIT: UpstreamWait = { end: () => undefined };

export function startUpstreamWait(signal: AbortSignal | undefined): UpstreamWait {
  const timing = signal && timings.get(signal);
  if (!timing) return NO_WAIT;
  const start = performance.now();
  let open = true;
  return {
    end() {
      if (!open) return;
      open = false;
      timing.ms += performance.now() - start;
    },
  };
}
