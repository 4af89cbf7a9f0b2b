/** The ResponsesStore on the chat service's own Postgres schema (`chat`). */
import { textCanHold, type ResponsesInputItem, type ResponsesResponse } from '@unigate/contracts';
import type { DataSource } from 'typeorm';
import type { ResponsesStore, StoredResponse } from '../domain/responses-store';

/**
 * The longest chain a continuation reads back. No model's window holds this many turns; a longer one
 * (or a cycle, which ids rewritten by an upsert could make) reads as not stored.
 */
export const MAX_TURNS = 10_000;

/** Old responses one expiry statement looks at (and deletes at most): a sweep is a series of short transactions. */
const EXPIRE_BATCH = 1_000;

export class TypeOrmResponsesStore implements ResponsesStore {
  constructor(private readonly ds: DataSource) {}

  async conversation(accountId: string, id: string): Promise<ResponsesInputItem[] | null> {
    if (!textCanHold(id)) return null;
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

  async save(r: StoredResponse): Promise<boolean> {
    // The table's trigger names the conversation (chain_id) from the response this one continued. An
    // id the upstream sends again is a new turn: it replaces the row, and its age starts again — in the
    // same account only. Another account's row stays its own (an upstream reusing an id must not hand
    // one tenant's conversation to another), and this response is then not stored.
    const rows = (await this.ds.query(
      `INSERT INTO chat.responses (id, account_id, model, previous_id, items, response)
       SELECT $1, $2, $3, $4, $5, $6
        WHERE $4::text IS NULL OR EXISTS (SELECT 1 FROM chat.responses WHERE id = $4 AND account_id = $2)
       ON CONFLICT (id) DO UPDATE SET model = EXCLUDED.model,
         previous_id = EXCLUDED.previous_id, items = EXCLUDED.items, response = EXCLUDED.response,
         created_at = EXCLUDED.created_at
        WHERE chat.responses.account_id = EXCLUDED.account_id
       RETURNING 1`,
      [r.id, r.account_id, r.model, r.previous_id, JSON.stringify(r.items), JSON.stringify(r.response)],
    )) as unknown[];
    return rows.length > 0;
  }

  async answer(accountId: string, id: string): Promise<ResponsesResponse | null> {
    if (!textCanHold(id)) return null;
    const [row] = (await this.ds.query(`SELECT response FROM chat.responses WHERE id = $1 AND account_id = $2`, [id, accountId])) as Array<{
      response: string | null;
    }>;
    return row?.response ? (JSON.parse(row.response) as ResponsesResponse) : null;
  }

  async remove(accountId: string, id: string): Promise<boolean> {
    if (!textCanHold(id)) return false;
    const [, count] = (await this.ds.query(`DELETE FROM chat.responses WHERE id = $1 AND account_id = $2`, [id, accountId])) as [
      unknown,
      number,
    ];
    return count > 0;
  }

  async expire(before: Date): Promise<number> {
    let total = 0;
    // Old rows in (created_at, id) order, one batch after another: each is looked at once per sweep,
    // and each costs one probe of the conversation index, however large the table or the batch count.
    let after: { at: string; id: string } = { at: '-infinity', id: '' };
    for (;;) {
      const [row] = (await this.ds.query(
        `WITH batch AS (
           SELECT id, chain_id, created_at FROM chat.responses
            WHERE created_at < $1 AND (created_at, id) > ($3::timestamptz, $4::text)
            ORDER BY created_at, id LIMIT $2
         ), gone AS (
           DELETE FROM chat.responses d USING batch b
            WHERE d.id = b.id
              AND NOT EXISTS (SELECT 1 FROM chat.responses y WHERE y.chain_id = b.chain_id AND y.created_at >= $1)
           RETURNING 1
         ), last AS (
           SELECT created_at::text AS at, id FROM batch ORDER BY created_at DESC, id DESC LIMIT 1
         )
         SELECT (SELECT count(*)::int FROM gone) AS n, (SELECT count(*)::int FROM batch) AS seen,
                (SELECT at FROM last) AS at, (SELECT id FROM last) AS id`,
        [before, EXPIRE_BATCH, after.at, after.id],
      )) as Array<{ n: number; seen: number; at: string | null; id: string | null }>;
      total += row.n;
      if (row.seen < EXPIRE_BATCH || row.at === null || row.id === null) return total;
      after = { at: row.at, id: row.id };
    }
  }

  /** Readiness: the database answers. */
  async checkReady(): Promise<void> {
    await this.ds.query('SELECT 1');
  }
}
