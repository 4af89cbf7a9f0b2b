/**
 * One page of a list that clients walk by item ids, as OpenAI's and Anthropic's list endpoints do
 * (`after`/`before`, or `after_id`/`before_id`): the items after the one `after` names and before the
 * one `before` names, at most `limit` of them, in the order given. `before` alone pages backwards: the
 * `limit` items just before it, and more if any precede them. A cursor that names no item is a 400
 * naming its field.
 */
import { errors } from './errors';

export interface CursorQuery {
  after?: string;
  before?: string;
  limit: number;
}

export interface CursorPage<T> {
  data: T[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/** `fields`: the query's names for the two cursors; `unknown`: the 400's message for an id no item has, given in `field`. */
export function cursorPage<T extends { id: string }>(
  ordered: readonly T[],
  q: CursorQuery,
  fields: { after: string; before: string },
  unknown: (id: string, field: string) => string,
): CursorPage<T> {
  const place = (cursor: 'after' | 'before') => {
    const at = ordered.findIndex((item) => item.id === q[cursor]);
    if (at < 0) throw errors.invalidRequest(unknown(String(q[cursor]).slice(0, 200), fields[cursor]), fields[cursor]);
    return at;
  };
  const start = q.after !== undefined ? place('after') + 1 : 0;
  const end = q.before !== undefined ? place('before') : ordered.length;
  const backwards = q.before !== undefined && q.after === undefined;
  const from = backwards ? Math.max(0, end - q.limit) : start;
  const data = ordered.slice(from, Math.max(from, Math.min(end, from + q.limit)));
  const hasMore = backwards ? from > 0 : from + data.length < end;
  return { data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore };
}
