/** After a call, charge what it produced — exactly once, and never for a call that produced nothing. */
import type { ChatCall, TokenUnits } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import { describe } from './failover';
import type { UsageRecorder } from './usage-recorder';

/** Anything that measured a call: the chat and the messages meters. */
export interface Metered {
  readonly producedAnything: boolean;
  units(): TokenUnits;
}

export async function reportUsage(recorder: UsageRecorder, call: Omit<ChatCall, 'body'>, meter: Metered, logger: Logger): Promise<void> {
  // Nothing came back from any upstream: there is nothing to charge, and the edge releases the hold.
  if (!meter.producedAnything) return;
  try {
    await recorder.record(call, meter.units());
  } catch (err) {
    // The response already happened; keep the fact in the log so an operator can replay it.
    logger.error({ request_id: call.request_id, account_id: call.account_id, units: meter.units(), err: describe(err) }, 'usage event could not be published');
  }
}
