/** Admin API bodies (DESIGN.md §6). */
import { z } from 'zod';

const usd = z.number({ error: 'must be a number of USD' }).finite().nonnegative();

export const createAccountSchema = z.object({ name: z.string().min(1).max(200), credit_usd: usd.optional() });
export const creditAccountSchema = z.object({
  amount_usd: z.number().finite().positive('amount_usd must be positive'),
  reference: z.string().min(1).max(200).optional(),
});
export const createKeySchema = z.object({
  name: z.string().max(200).optional(),
  models: z.array(z.string().min(1)).optional(),
  rate_limit_rpm: z.number().int().positive().optional(),
  max_concurrency: z.number().int().positive().optional(),
});
export type CreateAccount = z.infer<typeof createAccountSchema>;
export type CreditAccount = z.infer<typeof creditAccountSchema>;
export type CreateKey = z.infer<typeof createKeySchema>;

export interface AccountView {
  id: string;
  name: string;
  balance_usd: number;
  reserved_usd: number;
}

export interface LedgerEntryView {
  id: string;
  request_id: string;
  model: string;
  kind: string;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  cost_micros: number;
  created_at: string;
}
