import { FaultRules } from './control/faults';
import { RequestLog } from './control/request-log';
import { PrefixCache } from './shared/prefix-cache';

/** Everything one simulator instance shares between its protocol routes and its control routes. */
export interface SimState {
  faults: FaultRules;
  requests: RequestLog;
  /** Default delay between stream chunks, in ms. */
  tokenDelayMs: number;
  /** Message prefixes already seen, for models with automatic context caching. */
  promptCache: PrefixCache;
}

export function createSimState(opts: { tokenDelayMs?: number; requestLogLimit?: number } = {}): SimState {
  return {
    faults: new FaultRules(),
    requests: new RequestLog(opts.requestLogLimit ?? 200),
    tokenDelayMs: opts.tokenDelayMs ?? 2,
    promptCache: new PrefixCache(),
  };
}
