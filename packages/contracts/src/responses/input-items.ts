/**
 * GET /v1/responses/{id}/input_items: the items a stored response was answered from (its conversation
 * up to its own output), a page at a time, in OpenAI's list shape and cursor rules.
 */
import { z } from 'zod';
import { cursorPage } from '../cursor-page';
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
 * One page, in `order` (newest first for `desc`), by the list's cursors (cursor-page.ts); a cursor
 * that names no item of the list is a 400 naming it.
 */
export function pageOfItems(items: readonly ListedInputItem[], q: InputItemsQuery): InputItemList {
  const ordered = q.order === 'asc' ? items : [...items].reverse();
  const page = cursorPage(ordered, q, { after: 'after', before: 'before' }, (id) => `No input item with id '${id}' in this response.`);
  return { object: 'list', ...page };
}
