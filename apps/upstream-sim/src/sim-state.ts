import { FaultRules } from './control/faults';
import { RequestLog } from './control/request-log';

/** Everything one simulator instance shares between its protocol routes and its control routes. */
export interface SimState {
  faults: FaultRules;
  requests: RequestLog;
  /** Default delay between stream chunks, in ms. */
  tokenDelayMs: number;
}

export function createSimState(opts: { tokenDelayMs?: number; requestLogLimit?: number } = {}): SimState {
  return {
    faults: new FaultRules(),
    requests: new RequestLog(opts.requestLogLimit ?? 200),
    tokenDelayMs: opts.tokenDelayMs ?? 2,
  };
}
