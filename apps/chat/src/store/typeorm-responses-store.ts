/** The ResponsesStore on the chat service's own Postgres schema (`chat`). */
import type { ResponsesInputItem } from '@unigate/contracts';
import type { DataSource, Repository } from 'typeorm';
import type { ResponsesStore, StoredResponse } from '../domain/responses-store';
import { StoredResponseEntity } from './stored-response.entity';

/**
 * The longest chain a continuation reads back. No model's window holds this many turns; a longer one
 * (or a cycle, which ids rewritten by an upsert could make) reads as not stored.
 */
export const MAX_TURNS = 10_000;

/** Responses one expiry statement deletes at most: a sweep is a series of short transactions. */
const EXPIRE_BATCH = 1_000;

export class TypeOrmResponsesStore implements ResponsesStore {
  private readonly repo: Repository<StoredResponseEntity>;

  constructor(private readonly ds: DataSource) {
    this.repo = ds.getRepository(StoredResponseEntity);
  }

  async conversation(accountId: string, id: string): Promise<ResponsesInputItem[] | null> {
    // The chain from this response back to its first turn, every turn in the caller's account.
    const rows = (await this.ds.query(
      `WITH RECURSIVE chain(id, previous_id, items, depth) AS (
         SELECT id, previous_id, items, 0 FROM chat.responses WHERE id = $1 AND account_id = $2
         UNION ALL
         SELECT r.id, r.previous_id, r.items, c.depth + 1
           FROM chat.responses r JOIN chain c ON r.id = c.previous_id
          WHERE r.account_id = $2 AND c.depth + 1 < $3
       )
       SELECT previous_id, items FROM chain ORDER BY depth DESC`,
      [id, accountId, MAX_TURNS],
    )) as Array<{ previous_id: string | null; items: string }>;
    // Nothing, or a first row that still names an earlier turn: that turn is gone (or the chain too long).
    if (rows.length === 0 || rows[0].previous_id !== null) return null;
    return rows.flatMap((row) => JSON.parse(row.items) as ResponsesInputItem[]);
  }

  async save(r: StoredResponse): Promise<void> {
    await this.repo.upsert({ id: r.id, accountId: r.account_id, model: r.model, previousId: r.previous_id, items: r.items }, ['id']);
  }

  async expire(before: Date): Promise<number> {
    let total = 0;
    for (;;) {
      // Every turn that a response created since `before` reads back stays, however old.
      const [{ n }] = (await this.ds.query(
        `WITH RECURSIVE kept(id) AS (
           SELECT previous_id FROM chat.responses WHERE created_at >= $1 AND previous_id IS NOT NULL
           UNION
           SELECT r.previous_id FROM chat.responses r JOIN kept k ON r.id = k.id WHERE r.previous_id IS NOT NULL
         ), gone AS (
           DELETE FROM chat.responses WHERE id IN (
             SELECT id FROM chat.responses WHERE created_at < $1 AND id NOT IN (SELECT id FROM kept) LIMIT $2
           ) RETURNING 1
         )
         SELECT count(*)::int AS n FROM gone`,
        [before, EXPIRE_BATCH],
      )) as Array<{ n: number }>;
      total += n;
      if (n < EXPIRE_BATCH) return total;
    }
  }

  /** Readiness: the database answers. */
  async checkReady(): Promise<void> {
    await this.ds.query('SELECT 1');
  }
}
