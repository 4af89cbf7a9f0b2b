/** Billing's environment (DESIGN.md §6), validated at start. */
import { brokersList, readEnv } from '@unigate/platform';
import { z } from 'zod';

const billingEnvSchema = z.object({
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required'),
  KAFKA_BROKERS: brokersList,
  KAFKA_TOPIC_PREFIX: z.string().optional(),
  UNIGATE_BOOTSTRAP_KEY: z.string().optional(),
  UNIGATE_BOOTSTRAP_CREDIT_USD: z.coerce.number().finite().nonnegative().default(100),
});

export type BillingEnv = z.infer<typeof billingEnvSchema>;

export function readBillingEnv(env: NodeJS.ProcessEnv = process.env): BillingEnv {
  return readEnv(billingEnvSchema, env);
}
