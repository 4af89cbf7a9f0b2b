/**
 * The UsageSink of every capability service: one `usage.recorded` fact per call, priced from the
 * route's model, handed to billing — over the bus in distributed mode (keyed by account, so one
 * account's events stay ordered on one partition), straight to the embedded ledger in standalone.
 */
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { costMicros, splitPrompt, TOPICS, type EndpointCall, type Usage, type UsageRecorded, type UsageSink } from '@unigate/contracts';
import type { Logger } from '../logger';
import { costMicrosTotal, tokensTotal } from '../observability/metrics';
import { backoffMs } from './backoff';
import type { EventBus } from './event-bus';

/** Hands a usage fact to billing; resolves once it is safely on its way. */
export type UsageDelivery = (event: UsageRecorded, headers: Record<string, string>) => Promise<unknown>;

/** Delivery over the bus: `usage.recorded`, keyed by account id. */
export function publishUsage(bus: EventBus): UsageDelivery {
  return (event, headers) => bus.publish(TOPICS.usageRecorded, event.account_id, event, headers);
}

export interface UsageRecorderOptions {
  /**
   * Makes the event durable before the answer it belongs to is written (synchronous, so it is on
   * the answer's path: keep it to a local append). Standalone: the embedded ledger's journal.
   */
  journal?: (event: UsageRecorded) => void;
}

/** Attempts per event before it is left in the log for replay (about 25 s of retrying). */
const MAX_ATTEMPTS = 8;

/**
 * Records without waiting for the delivery, which starts once the answer is out: the answer waits
 * neither for billing's work nor for its acknowledgement (a batching bus acknowledges within its
 * linger, docs/billing.md). Only the optional `journal` step runs before the answer: standalone's
 * ledger appends the event to its write-ahead journal there, so a kill -9 after it loses nothing.
 * A delivery that fails is tried again with growing waits (a broker restart must not lose charges);
 * one that still fails, or is still pending when the process shuts down, is logged with the whole
 * event so an operator can replay it.
 */
export class UsageRecorder implements UsageSink {
  private readonly pending = new Map<Promise<void>, UsageRecorded>();
  private stopping = false;

  constructor(
    private readonly deliver: UsageDelivery,
    private readonly logger?: Logger,
    private readonly opts: UsageRecorderOptions = {},
  ) {}

  /** Deliveries not yet acknowledged. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Shutdown: waits up to `deadlineMs` for pending deliveries; logs what is left for replay. */
  async flush(deadlineMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((r) => (timer = setTimeout(r, deadlineMs)));
    await Promise.race([Promise.allSettled([...this.pending.keys()]), deadline]);
    clearTimeout(timer);
    this.stopping = true;
    for (const event of this.pending.values()) this.logger?.error({ event }, 'usage.recorded still pending at shutdown; replay it');
  }

  private async deliverUntilDone(event: UsageRecorded, headers: Record<string, string>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.deliver(event, headers);
        return;
      } catch (err) {
        if (this.stopping || attempt >= MAX_ATTEMPTS) {
          this.logger?.error({ event, err: String(err) }, 'usage.recorded could not be delivered; replay it');
          return;
        }
        this.logger?.warn({ request_id: event.request_id, attempt, err: String(err) }, 'usage.recorded delivery failed; retrying');
        await new Promise((r) => setTimeout(r, backoffMs(attempt, { maxMs: 5_000 })));
      }
    }
  }

  async record(call: Omit<EndpointCall, 'body' | 'files'>, usage: Usage): Promise<number> {
    const model = call.route.model;
    const event: UsageRecorded = {
      event_id: randomUUID(),
      request_id: call.request_id,
      account_id: call.account_id,
      key_id: call.key_id,
      hold_id: call.hold_id,
      model: model.id,
      kind: model.kind,
      units: usage,
      cost_micros: costMicros(model.prices, usage),
      occurred_at: new Date().toISOString(),
    };
    const headers: Record<string, string> = call.traceparent ? { traceparent: call.traceparent } : {};
    this.journal(event);
    // Delivery and metrics start on the next turn of the event loop, after the answer this usage
    // belongs to has been written: settling (the embedded ledger's charge, the bus's batch) is on no
    // request's path. Shutdown's flush waits for it like any pending delivery.
    const delivery = nextTurn().then(() => {
      countUsage(model.id, usage, event.cost_micros);
      return this.deliverUntilDone(event, headers);
    });
    this.pending.set(delivery, event);
    void delivery.finally(() => this.pending.delete(delivery));
    return event.cost_micros;
  }

  private journal(event: UsageRecorded): void {
    try {
      this.opts.journal?.(event);
    } catch (err) {
      // A full or broken disk must not fail the answer: the charge still settles, only without the
      // journal's crash safety.
      this.logger?.error({ request_id: event.request_id, err: String(err) }, 'usage could not be journaled; settling without it');
    }
  }
}

function countUsage(model: string, usage: Usage, costMicros: number): void {
  const { plain, cached, written, written1h } = splitPrompt(
    usage.input_tokens ?? 0,
    usage.cached_input_tokens,
    usage.cache_write_input_tokens,
    usage.cache_write_1h_input_tokens,
  );
  // One direction per price: five-minute and one-hour writes apart, so the directions add up to the tokens.
  if (plain) tokensTotal.inc({ model, direction: 'input' }, plain);
  if (cached) tokensTotal.inc({ model, direction: 'cached_input' }, cached);
  if (written - written1h) tokensTotal.inc({ model, direction: 'cache_write_input' }, written - written1h);
  if (written1h) tokensTotal.inc({ model, direction: 'cache_write_1h_input' }, written1h);
  if (usage.output_tokens) tokensTotal.inc({ model, direction: 'output' }, usage.output_tokens);
  costMicrosTotal.inc({ model }, costMicros);
}
