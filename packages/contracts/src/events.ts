/** Internal events carried on Kafka (or the in-process bus in standalone). Validated on consume. */
import { z } from 'zod';
import { usageSchema } from './pricing';

export const TOPICS = {
  usageRecorded: 'usage.recorded',
  /**
   * This key's cached principal is stale: every edge drops it and asks billing again (the key was
   * revoked, or its settings changed). The topic keeps its first name, which deployments create.
   */
  keyStale: 'key.revoked',
  accountCredited: 'account.credited',
  videoTaskUpdated: 'video.task.updated',
  catalogUpdated: 'catalog.updated',
} as const;

export const usageRecordedSchema = z.object({
  event_id: z.string().min(1),
  request_id: z.string().min(1),
  account_id: z.string().min(1),
  key_id: z.string().min(1),
  hold_id: z.string().nullable(),
  model: z.string(),
  kind: z.string(),
  /** What was measured, in the units the model is priced in. */
  units: usageSchema,
  cost_micros: z.number().int().nonnegative(),
  occurred_at: z.string(),
});
export type UsageRecorded = z.infer<typeof usageRecordedSchema>;

/** On TOPICS.keyStale: the key whose cached principal every edge must drop. */
export const keyStaleSchema = z.object({ event_id: z.string(), key_id: z.string(), key_hash: z.string() });
export type KeyStale = z.infer<typeof keyStaleSchema>;

/** The catalogue changed (a catalog service started with it): edges fetch the new snapshot. */
export const catalogUpdatedSchema = z.object({ event_id: z.string(), version: z.string() });
export type CatalogUpdated = z.infer<typeof catalogUpdatedSchema>;
