/**
 * GET /v1/responses/{id}/input_items: the items a stored response was answered from (its conversation
 * up to its own output), a page at a time, in OpenAI's list shape and cursor rules.
 */
import { z } from 'zod';
import { errors } from '../errors';
import type { ResponsesInputItem } from './request';

export const MAX_INPUT_ITEMS_PAGE = 100;

/** The query, as OpenAI takes it (`include` is accepted and has nothing to add here). */
export const inputItemsQuerySchema = z.object({
  after: z.string().min(1).max(200).optional().describe('an item id: the items after it'),
  before: z.string().min(1).max(200).optional().describe('an item id: the items before it'),
  limit: z.coerce.number().int().min(1).max(MAX_INPUT_ITEMS_PAGE).default(20).describe('items per page'),
  order: z.enum(['asc', 'desc']).default('desc').describe('oldest first (asc) or newest first (desc)'),
});
export type InputItemsQuery = z.infer<typeof inputItemsQuerySchema>;

export type ListedInputItem = ResponsesInputItem & { id: string };

export const inputItemListSchema = z.object({
  object: z.literal('list'),
  data: z.array(z.looseObject({ id: z.string(), type: z.string() })),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});

/** The list as answered: the schema's shape, whose items (checked loosely at the wire) are listed items. */
export type InputItemList = Omit<z.infer<typeof inputItemListSchema>, 'data'> & { data: ListedInputItem[] };

/**
 * The items as OpenAI lists them: each with an id (one the item carries, else one made from the
 * response's id and the item's place, the same on every read), a message's text as a content part.
 */
export function listedItems(responseId: string, items: readonly ResponsesInputItem[]): ListedInputItem[] {
  return items.map((item, i) => {
    const id = typeof (item as { id?: unknown }).id === 'string' ? (item as { id: string }).id : `item_${i}_${responseId}`;
    if (item.type === 'message' && typeof item.content === 'string') {
      const part = item.role === 'assistant' ? 'output_text' : 'input_text';
      return { ...item, id, content: [{ type: part, text: item.content }] } as ListedInputItem;
    }
    return { ...item, id };
  });
}

/**
 * One page: in `order` (newest first for `desc`), starting after the item `after` names and ending
 * before the one `before` names, at most `limit` items. A cursor that names no item of the list is
 * a 400 naming it.
 */
export function pageOfItems(items: readonly ListedInputItem[], q: InputItemsQuery): InputItemList {
  const ordered = q.order === 'asc' ? items : [...items].reverse();
  const place = (cursor: 'after' | 'before') => {
    const at = ordered.findIndex((item) => item.id === q[cursor]);
    if (at < 0) throw errors.invalidRequest(`No input item with id '${String(q[cursor]).slice(0, 200)}' in this response.`, cursor);
    return at;
  };
  const start = q.after !== undefined ? place('after') + 1 : 0;
  const end = q.before !== undefined ? place('before') : ordered.length;
  // `before` alone pages backwards: the `limit` items just before it, and more if any precede them.
  const backwards = q.before !== undefined && q.after === undefined;
  const from = backwards ? Math.max(0, end - q.limit) : start;
  const data = ordered.slice(from, Math.max(from, Math.min(end, from + q.limit)));
  const hasMore = backwards ? from > 0 : from + data.length < end;
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore };
}
