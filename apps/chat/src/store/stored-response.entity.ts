import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A stored Responses answer: its own turn, and the response it continued (domain/responses-store.ts). */
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

  /** The response this one continued (`previous_response_id`); null for the first turn. */
  @Column('text', { name: 'previous_id', nullable: true })
  previousId!: string | null;

  /**
   * The id of the conversation's first turn (this one's own for a first turn): what the expiry sweep
   * keeps together. Set by the table's trigger on insert (migration 1740000000000).
   */
  @Column('text', { name: 'chain_id' })
  chainId!: string;

  /**
   * Responses input items as JSON text (validated before they were stored; the store gives them back
   * typed). Text, not jsonb: jsonb refuses `\u0000` and unpaired surrogate escapes.
   */
  @Column('text', { transformer: { to: (v: unknown[]) => JSON.stringify(v), from: (v: string) => JSON.parse(v) as unknown[] } })
  items!: unknown[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
