import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@unigate/platform';

/** A prepaid account. `balance_micros` is settled money only; holds are subtracted when reading "available". */
@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  name!: string;

  @Column('bigint', { name: 'balance_micros', transformer: bigintTransformer })
  balanceMicros!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
