/**
 * usage.recorded → UsageSettler, in consumer group `billing`. Thin on purpose: idempotency lives in
 * the settler (ledger unique by request id), redelivery on a throw lives in the EventBus.
 *
 * On a bus that can hand over batches (Kafka), consecutive events of one partition settle in one
 * transaction (what a fetch brought, or what a consumer behind gathered over several): one commit
 * for hundreds of events, which is what lets one busy account's partition keep up. If that
 * transaction fails, the slice is settled event by event (duplicates of what may have been settled
 * are no-ops), so one event that cannot be settled only holds back itself.
 */
import { TOPICS } from '@unigate/contracts';
import type { BatchEventHandler, EventBus, Logger, SubscribeBatchOptions } from '@unigate/platform';
import type { UsageSettler } from '../domain/usage-settler';

export const BILLING_CONSUMER_GROUP = 'billing';

/** Events settled per transaction at most. */
export const SETTLE_BATCH_MAX = 500;

/**
 * After settling a batch smaller than SETTLE_BATCH_MAX that caught up with its partition, the wait
 * before the next fetch (SubscribeBatchOptions.lingerMs): at a moderate rate the next batch then
 * holds what arrived meanwhile instead of one or two events, also when the broker hands it over one
 * produced batch per fetch (the test broker does).
 * A batch costs billing, Postgres, Redis and the broker ~2.5 ms of CPU whatever its size, on the cores
 * the requests run on (docs/billing.md). A settlement, and the release of its hold, comes at most
 * this much later: the window of standalone's group commit.
 */
export const SETTLE_LINGER_MS = 50;

interface BatchCapableBus {
  subscribeBatch(topic: string, groupId: string, handler: BatchEventHandler, opts?: SubscribeBatchOptions): Promise<void>;
}

function canBatch(bus: EventBus): bus is EventBus & BatchCapableBus {
  return typeof (bus as Partial<BatchCapableBus>).subscribeBatch === 'function';
}

export function subscribeUsageConsumer(bus: EventBus, settler: UsageSettler, logger: Logger): Promise<void> {
  if (!canBatch(bus)) {
    return bus.subscribe(TOPICS.usageRecorded, BILLING_CONSUMER_GROUP, async (payload, meta) => {
      const outcome = await settler.handle(payload);
      logger.debug({ key: meta.key, outcome }, 'usage.recorded handled');
    });
  }
  return bus.subscribeBatch(
    TOPICS.usageRecorded,
    BILLING_CONSUMER_GROUP,
    async (events) => {
      const payloads = events.map((e) => e.payload);
      try {
        const outcomes = await settler.handleBatch(payloads);
        logger.debug({ events: events.length, settled: outcomes.filter((o) => o === 'settled').length }, 'usage.recorded batch handled');
      } catch (err) {
        logger.warn({ err, events: events.length }, 'usage batch failed; settling its events one by one');
        for (const payload of payloads) await settler.handle(payload);
      }
    },
    { maxBatch: SETTLE_BATCH_MAX, lingerMs: SETTLE_LINGER_MS },
  );
}
