import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { AccountTier } from '@unigate/contracts';
import { bigintTransformer } from '@unigate/platform/database';

/**
 * A prepaid account: settled money only (holds live in Redis or memory, see docs/billing.md).
 * `version` grows with every balance change (a trigger, never written by code).
 */
@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  name!: string;

  @Column('bigint', { name: 'balance_micros', transformer: bigintTransformer })
  balanceMicros!: number;

  /** `paid` or `free` (contracts ACCOUNT_TIERS); what an upstream keeps for the account follows it. */
  @Column('text', { default: 'paid' })
  tier!: AccountTier;

  @Column({ type: 'bigint', transformer: bigintTransformer, insert: false, update: false })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
