/** Billing's environment (DESIGN.md §6), validated at start. */
import { brokersList, readEnv } from '@unigate/platform';
import { bootstrapCreditUsdEnv } from '@unigate/contracts';
import { z } from 'zod';
import { redisKeyPrefixEnv } from './reservations';

const billingEnvSchema = z.object({
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required'),
  KAFKA_BROKERS: brokersList,
  KAFKA_TOPIC_PREFIX: z.string().optional(),
  // Holds and the copy of every balance the edges admit against (docs/billing.md).
  REDIS_URL: z
    .string({ error: 'REDIS_URL must be set on billing (redis://host:port): holds and the balances edges admit against live there' })
    .regex(/^rediss?:\/\/\S+$/, 'REDIS_URL must be a redis:// or rediss:// URL'),
  UNIGATE_REDIS_KEY_PREFIX: redisKeyPrefixEnv,
  UNIGATE_BOOTSTRAP_KEY: z.string().optional(),
  UNIGATE_BOOTSTRAP_CREDIT_USD: bootstrapCreditUsdEnv,
});

export type BillingEnv = z.infer<typeof billingEnvSchema>;

export function readBillingEnv(env: NodeJS.ProcessEnv = process.env): BillingEnv {
  return readEnv(billingEnvSchema, env);
}
