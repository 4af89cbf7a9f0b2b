import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Usage } from '@unigate/contracts';
import { bigintTransformer } from '@unigate/platform/database';

/** One settled, billable request. `request_id` is unique: a redelivered usage event cannot bill twice. */
@Entity({ name: 'ledger_entries' })
export class LedgerEntryEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'account_id' })
  accountId!: string;

  @Column('text', { name: 'request_id' })
  requestId!: string;

  @Column('text', { name: 'event_id' })
  eventId!: string;

  @Column('text', { name: 'key_id' })
  keyId!: string;

  @Column('text')
  model!: string;

  @Column('text')
  kind!: string;

  @Column('bigint', { name: 'input_tokens', transformer: bigintTransformer })
  inputTokens!: number;

  @Column('bigint', { name: 'cached_input_tokens', transformer: bigintTransformer })
  cachedInputTokens!: number;

  @Column('bigint', { name: 'output_tokens', transformer: bigintTransformer })
  outputTokens!: number;

  /** Everything measured, in the model's price units (contracts Usage). */
  @Column('jsonb', { default: {} })
  units!: Usage;

  /** What the usage cost. */
  @Column('bigint', { name: 'cost_micros', transformer: bigintTransformer })
  costMicros!: number;

  /** What was taken from the balance: less than the cost only when the balance ran dry (clamped at 0). */
  @Column('bigint', { name: 'charged_micros', transformer: bigintTransformer })
  chargedMicros!: number;

  @Column('bigint', { name: 'balance_after_micros', transformer: bigintTransformer })
  balanceAfterMicros!: number;

  @Column('timestamptz', { name: 'occurred_at' })
  occurredAt!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
