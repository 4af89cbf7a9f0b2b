import { GatewayError } from '../errors';
import { inputItemsQuerySchema, listedItems, pageOfItems, type InputItemsQuery } from './input-items';
import type { ResponsesInputItem } from './request';

const items: ResponsesInputItem[] = [
  { type: 'message', role: 'user', content: 'one' },
  { type: 'message', role: 'assistant', content: 'two', id: 'msg_two' } as ResponsesInputItem,
  { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
  { type: 'function_call_output', call_id: 'c1', output: 'ok' },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'five' }] },
];
const listed = listedItems('resp_1', items);
const query = (q: Record<string, unknown>): InputItemsQuery => inputItemsQuerySchema.parse(q);
const ids = (q: Record<string, unknown>) => pageOfItems(listed, query(q)).data.map((i) => i.id);

describe('listedItems', () => {
  it('keeps an id an item carries and makes the others from the response id and the item’s place', () => {
    expect(listed.map((i) => i.id)).toEqual(['item_0_resp_1', 'msg_two', 'item_2_resp_1', 'item_3_resp_1', 'item_4_resp_1']);
    expect(listedItems('resp_1', items).map((i) => i.id)).toEqual(listed.map((i) => i.id));
  });

  it('gives a message’s text as a content part, input_text or output_text by role', () => {
    expect(listed[0]).toMatchObject({ content: [{ type: 'input_text', text: 'one' }] });
    expect(listed[1]).toMatchObject({ content: [{ type: 'output_text', text: 'two' }] });
    expect(listed[4]).toMatchObject({ content: [{ type: 'input_text', text: 'five' }] });
  });
});

describe('pageOfItems', () => {
  it('lists newest first by default, 20 at a time, with first_id, last_id and has_more', () => {
    expect(pageOfItems(listed, query({}))).toMatchObject({
      object: 'list',
      first_id: 'item_4_resp_1',
      last_id: 'item_0_resp_1',
      has_more: false,
    });
    expect(ids({})).toEqual(['item_4_resp_1', 'item_3_resp_1', 'item_2_resp_1', 'msg_two', 'item_0_resp_1']);
  });

  it('pages forward with after, in either order, until has_more is false', () => {
    expect(pageOfItems(listed, query({ order: 'asc', limit: '2' }))).toMatchObject({ last_id: 'msg_two', has_more: true });
    expect(ids({ order: 'asc', limit: 2, after: 'msg_two' })).toEqual(['item_2_resp_1', 'item_3_resp_1']);
    expect(pageOfItems(listed, query({ order: 'asc', limit: 2, after: 'item_3_resp_1' }))).toMatchObject({
      data: [{ id: 'item_4_resp_1' }],
      has_more: false,
    });
    expect(ids({ limit: 2, after: 'item_3_resp_1' })).toEqual(['item_2_resp_1', 'msg_two']);
  });

  it('pages backwards with before alone: the items just before it', () => {
    expect(pageOfItems(listed, query({ order: 'asc', limit: 2, before: 'item_4_resp_1' }))).toMatchObject({
      data: [{ id: 'item_2_resp_1' }, { id: 'item_3_resp_1' }],
      has_more: true,
    });
    expect(pageOfItems(listed, query({ order: 'asc', limit: 2, before: 'item_2_resp_1' }))).toMatchObject({ has_more: false });
  });

  it('keeps between after and before when given both', () => {
    expect(ids({ order: 'asc', after: 'item_0_resp_1', before: 'item_4_resp_1' })).toEqual(['msg_two', 'item_2_resp_1', 'item_3_resp_1']);
    expect(pageOfItems(listed, query({ order: 'asc', after: 'item_3_resp_1', before: 'msg_two' }))).toMatchObject({
      data: [],
      first_id: null,
      last_id: null,
      has_more: false,
    });
  });

  it('refuses a cursor that names no item with a 400 naming it', () => {
    for (const cursor of ['after', 'before'] as const) {
      let err: unknown;
      try {
        pageOfItems(listed, query({ [cursor]: 'msg_nope' }));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(GatewayError);
      expect(err).toMatchObject({ status: 400, param: cursor, message: "No input item with id 'msg_nope' in this response." });
    }
  });

  it('takes limit 1 to 100 and order asc or desc only', () => {
    for (const bad of [{ limit: '0' }, { limit: '101' }, { limit: '2.5' }, { limit: 'x' }, { order: 'up' }]) {
      expect(inputItemsQuerySchema.safeParse(bad).success).toBe(false);
    }
    expect(inputItemsQuerySchema.parse({ limit: '100', include: ['x'] })).toEqual({ limit: 100, order: 'desc' });
  });
});
