import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@unigate/platform';

/**
 * A prepaid account. `balance_micros` is settled money only; `reserved_micros` is the sum of its holds,
 * maintained by triggers on `holds` (never written by code), so available = balance − reserved.
 */
@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  name!: string;

  @Column('bigint', { name: 'balance_micros', transformer: bigintTransformer })
  balanceMicros!: number;

  @Column({ type: 'bigint', name: 'reserved_micros', transformer: bigintTransformer, insert: false, update: false })
  reservedMicros!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
