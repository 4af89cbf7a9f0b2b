import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An API key. The secret itself is never stored: only its SHA-256 hex and a short display prefix. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'account_id' })
  accountId!: string;

  @Column('text', { nullable: true })
  name!: string | null;

  @Column('text', { name: 'key_hash' })
  keyHash!: string;

  @Column('text', { name: 'display_prefix' })
  displayPrefix!: string;

  /** Empty = every model. */
  @Column('text', { array: true })
  models!: string[];

  @Column('integer', { name: 'rate_limit_rpm', nullable: true })
  rateLimitRpm!: number | null;

  @Column('integer', { name: 'max_concurrency', nullable: true })
  maxConcurrency!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}
