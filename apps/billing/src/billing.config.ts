/** Billing's environment (DESIGN.md §6), validated at start. */
import { brokersList, readEnv } from '@unigate/platform';
import { z } from 'zod';

const billingEnvSchema = z.object({
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required'),
  KAFKA_BROKERS: brokersList,
  KAFKA_TOPIC_PREFIX: z.string().optional(),
  // Holds and the copy of every balance the edges admit against (docs/billing.md).
  REDIS_URL: z
    .string({ error: 'REDIS_URL must be set on billing (redis://host:port): holds and the balances edges admit against live there' })
    .regex(/^rediss?:\/\/\S+$/, 'REDIS_URL must be a redis:// or rediss:// URL'),
  // The same on every edge and billing of a deployment: deployments sharing one Redis keep apart by it
  // (billing's reconciliation job drops a copy whose account its own ledger does not know).
  UNIGATE_REDIS_KEY_PREFIX: z.string().min(1).default('unigate:'),
  UNIGATE_BOOTSTRAP_KEY: z.string().optional(),
  UNIGATE_BOOTSTRAP_CREDIT_USD: z.coerce.number().finite().nonnegative().default(100),
});

export type BillingEnv = z.infer<typeof billingEnvSchema>;

export function readBillingEnv(env: NodeJS.ProcessEnv = process.env): BillingEnv {
  return readEnv(billingEnvSchema, env);
}
