import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@unigate/platform';

/**
 * Money reserved for a request in flight. It never touches the balance: settlement or release deletes
 * it, and once `expires_at` passes it stops counting and is swept (domain/hold-sweeper.ts), so a crashed
 * owner cannot strand funds. Triggers keep `accounts.reserved_micros` equal to the sum of an account's holds.
 */
@Entity({ name: 'holds' })
export class HoldEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'account_id' })
  accountId!: string;

  @Column('text', { name: 'key_id' })
  keyId!: string;

  /** One hold per request: placing it again returns the same hold. */
  @Column('text', { name: 'request_id' })
  requestId!: string;

  @Column('bigint', { name: 'amount_micros', transformer: bigintTransformer })
  amountMicros!: number;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
