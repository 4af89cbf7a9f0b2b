import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@unigate/platform/database';

/** Money added to an account. (account, reference) is unique, which makes a referenced credit idempotent. */
@Entity({ name: 'credits' })
export class CreditEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'account_id' })
  accountId!: string;

  @Column('bigint', { name: 'amount_micros', transformer: bigintTransformer })
  amountMicros!: number;

  @Column('text', { nullable: true })
  reference!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
