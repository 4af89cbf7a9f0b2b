/** The ResponsesStore on the chat service's own Postgres schema (`chat`). */
import type { ResponsesInputItem } from '@unigate/contracts';
import type { DataSource, Repository } from 'typeorm';
import type { ResponsesStore, StoredResponse } from '../domain/responses-store';
import { StoredResponseEntity } from './stored-response.entity';

export class TypeOrmResponsesStore implements ResponsesStore {
  private readonly repo: Repository<StoredResponseEntity>;

  constructor(private readonly ds: DataSource) {
    this.repo = ds.getRepository(StoredResponseEntity);
  }

  async load(accountId: string, id: string): Promise<StoredResponse | null> {
    const row = await this.repo.findOneBy({ id, accountId });
    return row && { id: row.id, account_id: row.accountId, model: row.model, items: row.items as ResponsesInputItem[] };
  }

  async save(r: StoredResponse): Promise<void> {
    await this.repo.upsert({ id: r.id, accountId: r.account_id, model: r.model, items: r.items }, ['id']);
  }

  /** Readiness: the database answers. */
  async checkReady(): Promise<void> {
    await this.ds.query('SELECT 1');
  }
}
