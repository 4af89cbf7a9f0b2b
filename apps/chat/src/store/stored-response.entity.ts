import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A stored Responses answer with its whole conversation (domain/responses-store.ts). */
@Entity({ name: 'responses' })
export class StoredResponseEntity {
  @PrimaryColumn('text')
  id!: string;

  /** Only this account may continue it. */
  @Index('responses_account_idx')
  @Column('text', { name: 'account_id' })
  accountId!: string;

  @Column('text')
  model!: string;

  /**
   * Responses input items as JSON text (validated before they were stored; the store gives them back
   * typed). Text, not jsonb: jsonb refuses `\u0000` and unpaired surrogate escapes.
   */
  @Column('text', { transformer: { to: (v: unknown[]) => JSON.stringify(v), from: (v: string) => JSON.parse(v) as unknown[] } })
  items!: unknown[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
