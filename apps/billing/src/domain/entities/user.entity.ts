import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A dashboard user: owns one account. `email` is stored lower-cased; the password only as an argon2id PHC string. */
@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  email!: string;

  @Column('text', { name: 'password_hash' })
  passwordHash!: string;

  @Column('uuid', { name: 'account_id' })
  accountId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
