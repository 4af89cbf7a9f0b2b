/**
 * usage.recorded → UsageSettler, in consumer group `billing`. Thin on purpose: idempotency lives in
 * the settler (ledger unique by request id), redelivery on a throw lives in the EventBus.
 */
import { TOPICS } from '@unigate/contracts';
import type { EventBus, Logger } from '@unigate/platform';
import type { UsageSettler } from '../domain/usage-settler';

export const BILLING_CONSUMER_GROUP = 'billing';

export function subscribeUsageConsumer(bus: EventBus, settler: UsageSettler, logger: Logger): Promise<void> {
  return bus.subscribe(TOPICS.usageRecorded, BILLING_CONSUMER_GROUP, async (payload, meta) => {
    const outcome = await settler.handle(payload);
    logger.debug({ key: meta.key, outcome }, 'usage.recorded handled');
  });
}
