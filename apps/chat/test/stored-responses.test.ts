/**
 * Stored Responses on real Postgres: the chat schema's migration, the TypeORM store, and the decorator
 * that resolves `previous_response_id` in the caller's account and keeps what `store` asks to keep.
 * The runner beneath is a scripted port that answers each call and records what it was asked.
 */
import {
  errors,
  type EndpointCall,
  type EndpointPort,
  type ModelRoute,
  type ResponsesRequest,
  type ResponsesResponse,
  type ResponsesStreamEvent,
} from '@unigate/contracts';
import { createLogger } from '@unigate/platform';
import { createTestDatabase, type TestDatabase } from '@unigate/testing';
import { createDataSource } from '@unigate/platform/database';
import type { DataSource } from 'typeorm';
import {
  MAX_TURNS,
  openChatDataSource,
  responsesRetentionDays,
  startResponsesExpiry,
  StoredResponseReads,
  StoredResponses,
  TypeOrmResponsesStore,
} from '../src';
import { CHAT_MIGRATIONS } from '../src/migrations';

const logger = createLogger('chat-test', 'silent');
const ROUTE = { model: { id: 'gamma-2.5-flash' }, channels: [] } as unknown as ModelRoute;

/** Answers every responses call with "answer <n>" and remembers the bodies it got. */
class ScriptedRunner implements EndpointPort {
  readonly bodies: ResponsesRequest[] = [];

  async call(call: EndpointCall): Promise<unknown> {
    if (call.endpoint !== 'responses') return { passed: call.endpoint };
    this.bodies.push(call.body as ResponsesRequest);
    return this.response(call.request_id, 'completed');
  }

  async *stream(call: EndpointCall): AsyncIterable<unknown> {
    this.bodies.push(call.body as ResponsesRequest);
    const done = this.response(call.request_id, 'completed');
    const events: ResponsesStreamEvent[] = [
      { type: 'response.created', sequence_number: 0, response: { ...done, status: 'in_progress', output: [] } },
      { type: 'response.completed', sequence_number: 1, response: done },
    ];
    yield* events;
  }

  private response(requestId: string, status: 'completed'): ResponsesResponse {
    const n = this.bodies.length;
    return {
      id: `resp_${requestId}`,
      object: 'response',
      created_at: 1,
      status,
      model: 'gamma-2.5-flash',
      output: [
        {
          type: 'message',
          id: `msg_${n}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: `answer ${n}` }],
        },
      ],
    };
  }
}

/** A bare answer, for turns saved straight into the store. */
const answered = (id: string): ResponsesResponse => ({ id, object: 'response', created_at: 1, model: 'm', output: [] });

let db: TestDatabase;
let ds: DataSource;
let store: TypeOrmResponsesStore;
let runner: ScriptedRunner;
let port: StoredResponses;

beforeAll(async () => {
  db = await createTestDatabase('chat');
  ds = await openChatDataSource({ url: db.url, logger });
  store = new TypeOrmResponsesStore(ds);
});
afterAll(async () => {
  await ds.destroy();
  await db.drop();
});
beforeEach(() => {
  runner = new ScriptedRunner();
  port = new StoredResponses(runner, store);
});

let seq = 0;
const call = (body: ResponsesRequest, account = 'acct-a', endpoint = 'responses'): EndpointCall => ({
  endpoint,
  request_id: `req_${++seq}_${Date.now()}`,
  account_id: account,
  key_id: 'k',
  hold_id: null,
  route: ROUTE,
  body,
  options: {},
});

describe('stored responses', () => {
  it('continues a stored response: earlier input and output before the new input, instructions not carried', async () => {
    const first = (await port.call(
      call({ model: 'gamma-2.5-flash', instructions: 'Be brief', input: 'My name is Ada.' }),
    )) as ResponsesResponse;
    const second = (await port.call(
      call({ model: 'gamma-2.5-flash', previous_response_id: first.id, input: [{ type: 'message', role: 'user', content: 'Who am I?' }] }),
    )) as ResponsesResponse;
    expect(runner.bodies[1].input).toEqual([
      { type: 'message', role: 'user', content: 'My name is Ada.' },
      { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'answer 1' }] },
      { type: 'message', role: 'user', content: 'Who am I?' },
    ]);
    expect(runner.bodies[1].instructions).toBeUndefined();

    // A chain: the third turn sees all of it.
    await port.call(call({ model: 'gamma-2.5-flash', previous_response_id: second.id, input: 'And again?' }));
    expect((runner.bodies[2].input as unknown[]).length).toBe(5);
  });

  it('answers another account’s or an unknown id with 404 not_found naming previous_response_id', async () => {
    const mine = (await port.call(call({ model: 'gamma-2.5-flash', input: 'secret' }, 'acct-a'))) as ResponsesResponse;
    for (const [account, id] of [
      ['acct-b', mine.id],
      ['acct-a', 'resp_nothing_here'],
    ]) {
      const err = await port.call(call({ model: 'gamma-2.5-flash', previous_response_id: id, input: 'hi' }, account)).catch((e) => e);
      expect(err).toMatchObject({ status: 404, code: 'not_found', param: 'previous_response_id' });
    }
    expect(runner.bodies).toHaveLength(1); // nothing reached the runner
  });

  it('stores and gives back text that jsonb would refuse: NUL and unpaired surrogates', async () => {
    const awkward = 'a\u0000b \ud800 c\udfff';
    const first = (await port.call(call({ model: 'gamma-2.5-flash', input: awkward }))) as ResponsesResponse;
    await port.call(call({ model: 'gamma-2.5-flash', previous_response_id: first.id, input: 'next' }));
    expect((runner.bodies[1].input as Array<{ content: unknown }>)[0].content).toBe(awkward);
  });

  it('keeps nothing for store: false', async () => {
    const res = (await port.call(call({ model: 'gamma-2.5-flash', input: 'x', store: false }))) as ResponsesResponse;
    expect(await store.conversation('acct-a', res.id)).toBeNull();
  });

  it('stores a streamed response before its terminal event goes out', async () => {
    const c = call({ model: 'gamma-2.5-flash', input: 'stream me', stream: true });
    for await (const item of port.stream(c, new AbortController().signal)) {
      const ev = item as ResponsesStreamEvent;
      if (ev.type === 'response.completed') {
        const kept = await store.conversation('acct-a', ev.response.id);
        expect(kept?.map((i) => i.type)).toEqual(['message', 'message']);
      }
    }
    expect.assertions(1);
  });

  it('passes other endpoints straight through', async () => {
    expect(await port.call(call({ model: 'm', input: 'x' }, 'acct-a', 'chat.completions'))).toEqual({ passed: 'chat.completions' });
  });

  it('does not store a failed call', async () => {
    const failing: EndpointPort = {
      call: async () => {
        throw errors.upstream(502, 'boom', false);
      },
      stream: async function* () {},
    };
    const c = call({ model: 'gamma-2.5-flash', input: 'x' });
    await expect(new StoredResponses(failing, store).call(c)).rejects.toMatchObject({ status: 502 });
    expect(await store.conversation('acct-a', `resp_${c.request_id}`)).toBeNull();
  });
});

describe('stored responses read back and deleted by id', () => {
  it('gives back the response as it was answered, in its own account only', async () => {
    const res = (await port.call(call({ model: 'gamma-2.5-flash', input: 'keep me' }))) as ResponsesResponse;
    const reads = new StoredResponseReads(store);
    expect(await reads.retrieve('acct-a', res.id)).toEqual(res);
    await expect(reads.retrieve('acct-b', res.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(reads.retrieve('acct-a', 'resp_nope')).rejects.toMatchObject({
      status: 404,
      message: "Response with id 'resp_nope' not found.",
    });
    // Postgres text holds no NUL: such an id is not found without a query.
    await expect(reads.retrieve('acct-a', 'resp_\u0000')).rejects.toMatchObject({ status: 404 });
  });

  it('has nothing to give back for store: false, or for a row stored before answers were kept', async () => {
    const res = (await port.call(call({ model: 'gamma-2.5-flash', input: 'x', store: false }))) as ResponsesResponse;
    expect(await store.answer('acct-a', res.id)).toBeNull();
    await ds.query(`INSERT INTO chat.responses (id, account_id, model, items) VALUES ('resp_old_row', 'acct-a', 'm', '[]')`);
    expect(await store.answer('acct-a', 'resp_old_row')).toBeNull();
    expect(await store.conversation('acct-a', 'resp_old_row')).toEqual([]);
  });

  it('lists the items a response was answered from: its conversation up to its own output', async () => {
    const reads = new StoredResponseReads(store);
    const first = (await port.call(call({ model: 'gamma-2.5-flash', input: 'one' }))) as ResponsesResponse;
    const second = (await port.call(call({ model: 'gamma-2.5-flash', input: 'two', previous_response_id: first.id }))) as ResponsesResponse;
    const all = await reads.inputItems('acct-a', second.id, { limit: 20, order: 'asc' });
    expect(all).toMatchObject({ object: 'list', has_more: false });
    expect(all.data).toEqual([
      { id: `item_0_${second.id}`, type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one' }] },
      { ...first.output[0], id: first.output[0].id },
      { id: `item_2_${second.id}`, type: 'message', role: 'user', content: [{ type: 'input_text', text: 'two' }] },
    ]);
    expect((await reads.inputItems('acct-a', first.id, { limit: 20, order: 'desc' })).data.map((i) => i.id)).toEqual([
      `item_0_${first.id}`,
    ]);
    await expect(reads.inputItems('acct-b', second.id, { limit: 20, order: 'asc' })).rejects.toMatchObject({ status: 404 });
    // Its earlier turn deleted: the response reads back, its items are no longer whole.
    await reads.remove('acct-a', first.id);
    await expect(reads.inputItems('acct-a', second.id, { limit: 20, order: 'asc' })).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('an earlier turn of its conversation is no longer stored'),
    });
  });

  it('deletes a response in its own account; the turns that continued it can no longer be continued', async () => {
    const reads = new StoredResponseReads(store);
    const first = (await port.call(call({ model: 'gamma-2.5-flash', input: 'one' }))) as ResponsesResponse;
    const second = (await port.call(call({ model: 'gamma-2.5-flash', input: 'two', previous_response_id: first.id }))) as ResponsesResponse;
    await expect(reads.remove('acct-b', first.id)).rejects.toMatchObject({ status: 404 });
    expect(await store.answer('acct-a', first.id)).not.toBeNull();
    await reads.remove('acct-a', first.id);
    await expect(reads.retrieve('acct-a', first.id)).rejects.toMatchObject({ status: 404 });
    await expect(reads.remove('acct-a', first.id)).rejects.toMatchObject({ status: 404 });
    // The later turn is still there to read, but its conversation is cut.
    expect(await reads.retrieve('acct-a', second.id)).toEqual(second);
    expect(await store.conversation('acct-a', second.id)).toBeNull();
    await expect(port.call(call({ model: 'gamma-2.5-flash', input: 'three', previous_response_id: second.id }))).rejects.toMatchObject({
      status: 404,
      param: 'previous_response_id',
    });
  });
});

describe('stored responses as a chain', () => {
  const rowsOf = (ids: string[]) =>
    ds.query(`SELECT id, previous_id, items FROM chat.responses WHERE id = ANY($1)`, [ids]) as Promise<
      Array<{ id: string; previous_id: string | null; items: string }>
    >;

  /** A conversation of `turns` responses, each continuing the one before; their ids, oldest first. */
  async function conversation(turns: number, account = 'acct-a'): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < turns; i++) {
      const body = { model: 'gamma-2.5-flash', input: `turn ${i}`, ...(ids.length && { previous_response_id: ids.at(-1) }) };
      ids.push(((await port.call(call(body, account))) as ResponsesResponse).id);
    }
    return ids;
  }

  it('keeps each turn once, linked to the one it continued, and reads the whole conversation back', async () => {
    const ids = await conversation(12);
    const rows = await rowsOf(ids);
    // Twelve rows of one turn each (its input and its answer), not twelve growing copies of the conversation.
    expect(rows).toHaveLength(12);
    for (const row of rows) {
      expect(JSON.parse(row.items)).toHaveLength(2);
      expect(row.previous_id).toBe(ids[ids.indexOf(row.id) - 1] ?? null);
    }
    const whole = await store.conversation('acct-a', ids[11]);
    expect(whole).toHaveLength(24);
    expect(whole!.filter((_, i) => i % 2 === 0).map((item) => (item as { content: unknown }).content)).toEqual(
      ids.map((_, i) => `turn ${i}`),
    );
    // The last turn was sent everything before it.
    expect(runner.bodies[11].input).toEqual([...whole!.slice(0, 22), { type: 'message', role: 'user', content: 'turn 11' }]);
  });

  it('continues a response stored before the chain, which holds its whole conversation', async () => {
    const legacy = [
      { type: 'message', role: 'user', content: 'old question' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'old answer' }] },
    ];
    const id = `resp_legacy_${Date.now()}`;
    await ds.query(`INSERT INTO chat.responses (id, account_id, model, items) VALUES ($1, 'acct-a', 'gamma-2.5-flash', $2)`, [
      id,
      JSON.stringify(legacy),
    ]);
    const next = (await port.call(
      call({ model: 'gamma-2.5-flash', previous_response_id: id, input: 'new question' }),
    )) as ResponsesResponse;
    expect(runner.bodies[0].input).toEqual([...legacy, { type: 'message', role: 'user', content: 'new question' }]);
    expect(await store.conversation('acct-a', next.id)).toHaveLength(4);
  });

  it('reads a chain with a turn no longer stored, or one in another account, as not stored', async () => {
    const ids = await conversation(3);
    await ds.query(`UPDATE chat.responses SET account_id = 'acct-z' WHERE id = $1`, [ids[1]]);
    expect(await store.conversation('acct-a', ids[2])).toBeNull();
    await ds.query(`DELETE FROM chat.responses WHERE id = $1`, [ids[1]]);
    const err = await port.call(call({ model: 'gamma-2.5-flash', previous_response_id: ids[2], input: 'hi' })).catch((e) => e);
    expect(err).toMatchObject({ status: 404, code: 'not_found', param: 'previous_response_id' });
    // A cycle (only an upsert that rewrote an id could make one) ends at the turn limit instead of looping.
    await ds.query(`UPDATE chat.responses SET previous_id = $1 WHERE id = $2`, [ids[2], ids[0]]);
    await ds.query(`INSERT INTO chat.responses (id, account_id, model, items, previous_id) VALUES ($1, 'acct-a', 'm', '[]', $2)`, [
      ids[1],
      ids[0],
    ]);
    expect(await store.conversation('acct-a', ids[2])).toBeNull();
  });

  it('reads back a chain of MAX_TURNS turns, and none longer', async () => {
    const chain = async (name: string, turns: number) => {
      await ds.query(
        `INSERT INTO chat.responses (id, account_id, model, items, previous_id)
         SELECT $1 || i, 'acct-long', 'm', '[{"type":"message","role":"user","content":"t"}]', CASE WHEN i > 1 THEN $1 || (i - 1) END
           FROM generate_series(1, $2::int) AS i`,
        [name, turns],
      );
      return `${name}${turns}`;
    };
    expect(await store.conversation('acct-long', await chain('resp_max_', MAX_TURNS))).toHaveLength(MAX_TURNS);
    expect(await store.conversation('acct-long', await chain('resp_over_', MAX_TURNS + 1))).toBeNull();
    // Rows inserted without a conversation, in one statement, each name the first turn (the table's trigger).
    const [{ n }] = (await ds.query(`SELECT count(DISTINCT chain_id)::int AS n FROM chat.responses WHERE id LIKE 'resp_max_%'`)) as Array<{
      n: number;
    }>;
    expect(n).toBe(1);
  });

  it('expires responses past their retention unless their conversation has a newer one', async () => {
    const account = `acct-exp-${Date.now()}`;
    const [a, b, c] = await conversation(3, account); // a and b old, c new: all three stay
    const [d] = await conversation(1, account); // old, alone: goes
    const [e, f] = await conversation(2, account); // both old: both go
    const old = new Date(Date.now() - 40 * 86_400_000);
    await ds.query(`UPDATE chat.responses SET created_at = $1 WHERE id = ANY($2)`, [old, [a, b, d, e, f]]);
    const cutoff = new Date(Date.now() - 30 * 86_400_000);
    expect(await store.expire(cutoff)).toBe(3);
    expect((await rowsOf([a, b, c, d, e, f])).map((r) => r.id).sort()).toEqual([a, b, c].sort());
    expect(await store.conversation(account, c)).toHaveLength(6);
    // Once c is old too, the whole conversation goes.
    await ds.query(`UPDATE chat.responses SET created_at = $1 WHERE id = $2`, [old, c]);
    expect(await store.expire(cutoff)).toBe(3);
    expect(await rowsOf([a, b, c])).toEqual([]);
  });

  it('keeps a conversation whole while any branch of it is young: each turn names its first turn', async () => {
    const account = `acct-branch-${Date.now()}`;
    const [a, b] = await conversation(2, account);
    // A second branch from a: c continues a, not b.
    const c = ((await port.call(call({ model: 'gamma-2.5-flash', previous_response_id: a, input: 'other' }, account))) as ResponsesResponse)
      .id;
    const chains = (await ds.query(`SELECT id, chain_id FROM chat.responses WHERE id = ANY($1)`, [[a, b, c]])) as Array<{
      id: string;
      chain_id: string;
    }>;
    expect(chains.map((r) => r.chain_id)).toEqual([a, a, a]);
    const old = new Date(Date.now() - 40 * 86_400_000);
    await ds.query(`UPDATE chat.responses SET created_at = $1 WHERE id = ANY($2)`, [old, [a, b]]);
    const cutoff = new Date(Date.now() - 30 * 86_400_000);
    expect(await store.expire(cutoff)).toBe(0);
    expect(await store.conversation(account, b)).toHaveLength(4);
    await ds.query(`UPDATE chat.responses SET created_at = $1 WHERE id = $2`, [old, c]);
    expect(await store.expire(cutoff)).toBe(3);
  });

  it('keeps a turn whose conversation expired while it was answered as a first turn holding that conversation', async () => {
    const account = `acct-late-${Date.now()}`;
    const [a, b] = await conversation(2, account);
    await ds.query(`UPDATE chat.responses SET created_at = now() - interval '40 days' WHERE id = ANY($1)`, [[a, b]]);
    const cutoff = new Date(Date.now() - 30 * 86_400_000);
    // The sweep runs while the continuation of b is with the upstream: a and b go.
    const sweeping: EndpointPort = {
      call: async (c) => {
        expect(await store.expire(cutoff)).toBe(2);
        return runner.call(c);
      },
      stream: (c) => runner.stream(c),
    };
    const late = (await new StoredResponses(sweeping, store).call(
      call({ model: 'gamma-2.5-flash', previous_response_id: b, input: 'still there?' }, account),
    )) as ResponsesResponse;
    expect(await rowsOf([a, b])).toEqual([]);
    const [row] = await rowsOf([late.id]);
    expect(row.previous_id).toBeNull();
    // Its answer can be continued: the conversation it was answered from, then its own turn.
    const next = (await port.call(
      call({ model: 'gamma-2.5-flash', previous_response_id: late.id, input: 'and now?' }, account),
    )) as ResponsesResponse;
    expect((runner.bodies.at(-1)!.input as Array<{ content: unknown }>).filter((_, i) => i % 2 === 0).map((i) => i.content)).toEqual([
      'turn 0',
      'turn 1',
      'still there?',
      'and now?',
    ]);
    expect(await store.conversation(account, next.id)).toHaveLength(8);
  });

  it('names the conversation of a turn the upstream sends again with the one it now continues, and starts its age again', async () => {
    const account = `acct-again-${Date.now()}`;
    const [a1, a2] = await conversation(2, account);
    const [b1] = await conversation(1, account);
    const again = `resp_again_${Date.now()}`;
    const turn = (previous: string) => ({
      id: again,
      account_id: account,
      model: 'm',
      previous_id: previous,
      items: [],
      response: answered(again),
    });
    expect(await store.save(turn(a2))).toBe(true);
    await ds.query(`UPDATE chat.responses SET created_at = now() - interval '40 days' WHERE id = ANY($1)`, [[a1, a2, again]]);
    expect(await store.save(turn(b1))).toBe(true);
    const [row] = (await ds.query(`SELECT chain_id, created_at > now() - interval '1 day' AS young FROM chat.responses WHERE id = $1`, [
      again,
    ])) as Array<{ chain_id: string; young: boolean }>;
    expect(row).toEqual({ chain_id: b1, young: true });
    // Conversation a is old throughout and goes; the rewritten turn stays with b.
    expect(await store.expire(new Date(Date.now() - 30 * 86_400_000))).toBe(2);
    expect(await store.conversation(account, again)).toHaveLength(2);
    // A turn that continues one not stored in its account is not kept.
    expect(await store.save({ ...turn(a2), id: `${again}_2` })).toBe(false);
    expect(await store.save({ ...turn(b1), id: `${again}_3`, account_id: 'acct-other' })).toBe(false);
    expect(await rowsOf([`${again}_2`, `${again}_3`])).toEqual([]);
  });

  it('never hands a row to another account when the upstream sends its id again', async () => {
    const [mine] = await conversation(1, 'acct-owner');
    const answer = await store.answer('acct-owner', mine);
    const taken = { id: mine, account_id: 'acct-thief', model: 'm', previous_id: null, items: [], response: answered(mine) };
    expect(await store.save(taken)).toBe(false);
    expect(await store.answer('acct-thief', mine)).toBeNull();
    expect(await store.conversation('acct-thief', mine)).toBeNull();
    expect(await store.answer('acct-owner', mine)).toEqual(answer);
    expect(await store.conversation('acct-owner', mine)).toHaveLength(2);
  });

  it('tells of an answer it cannot keep because another account holds its id, trying the save once', async () => {
    const [mine] = await conversation(1, 'acct-owner');
    const saves: string[] = [];
    const counting = Object.assign(Object.create(store) as TypeOrmResponsesStore, {
      save: (r: Parameters<TypeOrmResponsesStore['save']>[0]) => (saves.push(r.id), store.save(r)),
    });
    const warnings: Array<{ fields: Record<string, unknown>; message: string }> = [];
    const repeating: EndpointPort = {
      call: async (c) => ({ ...((await runner.call(c)) as ResponsesResponse), id: mine }),
      stream: (c) => runner.stream(c),
    };
    const thief = new StoredResponses(repeating, counting, { warn: (fields, message) => warnings.push({ fields, message }) });
    const c = call({ model: 'gamma-2.5-flash', input: 'hello' }, 'acct-thief');
    expect(((await thief.call(c)) as ResponsesResponse).id).toBe(mine);
    expect(saves).toEqual([mine]);
    expect(warnings).toEqual([
      {
        fields: { request_id: c.request_id, response_id: mine, model: 'gamma-2.5-flash' },
        message: expect.stringContaining('another account') as string,
      },
    ]);
    expect(await store.answer('acct-thief', mine)).toBeNull();
  });

  it('expires in batches until nothing old is left, past old rows it keeps and rows created in the same instant', async () => {
    await ds.query(`DELETE FROM chat.responses WHERE created_at < now() - interval '1 day'`);
    // 2,500 old turns of one conversation that is still going (older than everything else, so the
    // first batches hold nothing to delete), then 2,500 old single turns, all created in the same instant.
    await ds.query(
      `INSERT INTO chat.responses (id, account_id, model, items, previous_id, chain_id, created_at)
       SELECT 'resp_kept_' || i, 'acct-bulk', 'm', '[]', CASE WHEN i > 1 THEN 'resp_kept_' || (i - 1) END, 'resp_kept_1',
              now() - interval '100 days'
         FROM generate_series(1, 2500) AS i`,
    );
    await ds.query(
      `INSERT INTO chat.responses (id, account_id, model, items, previous_id, chain_id) VALUES ('resp_kept_young', 'acct-bulk', 'm', '[]', 'resp_kept_2500', 'resp_kept_1')`,
    );
    await ds.query(
      `INSERT INTO chat.responses (id, account_id, model, items, chain_id, created_at)
       SELECT 'resp_bulk_' || i, 'acct-bulk', 'm', '[]', 'resp_bulk_' || i, now() - interval '90 days' FROM generate_series(1, 2500) AS i`,
    );
    const statements = jest.spyOn(ds, 'query');
    try {
      expect(await store.expire(new Date(Date.now() - 30 * 86_400_000))).toBe(2_500);
      // One statement per 1,000 old rows looked at, and one that finds the end.
      expect(statements).toHaveBeenCalledTimes(6);
    } finally {
      statements.mockRestore();
    }
    const [{ n }] = (await ds.query(`SELECT count(*)::int AS n FROM chat.responses WHERE account_id = 'acct-bulk'`)) as Array<{
      n: number;
    }>;
    expect(n).toBe(2_501);
    expect(await store.conversation('acct-bulk', 'resp_kept_young')).toEqual([]);
  });
});

describe('the conversation migration', () => {
  it('gives rows stored before it the id of their first turn; a cycle’s rows are their own', async () => {
    const old = await createTestDatabase('chatmig');
    try {
      const before = await createDataSource({ url: old.url, schema: 'chat', entities: [], migrations: CHAT_MIGRATIONS.slice(0, 3) });
      const insert = (id: string, previous: string | null) =>
        before.query(`INSERT INTO chat.responses (id, account_id, model, items, previous_id) VALUES ($1, 'acct', 'm', '[]', $2)`, [
          id,
          previous,
        ]);
      await insert('a', null);
      await insert('b', 'a');
      await insert('c', 'b');
      await insert('d', 'a');
      await insert('orphan', 'gone'); // continued a turn no longer stored: the first turn it reaches
      await insert('e', 'f'); // a cycle
      await insert('f', 'e');
      await before.destroy();
      const after = await openChatDataSource({ url: old.url, logger });
      try {
        const rows = (await after.query(`SELECT id, chain_id FROM chat.responses ORDER BY id`)) as Array<{ id: string; chain_id: string }>;
        expect(Object.fromEntries(rows.map((r) => [r.id, r.chain_id]))).toEqual({
          a: 'a',
          b: 'a',
          c: 'a',
          d: 'a',
          orphan: 'orphan',
          e: 'e',
          f: 'f',
        });
        // A continuation of a row stored before joins its conversation, written by this version or,
        // mid-upgrade, by the previous one, which knows nothing of chain_id.
        await new TypeOrmResponsesStore(after).save({
          id: 'g',
          account_id: 'acct',
          model: 'm',
          previous_id: 'c',
          items: [],
          response: answered('g'),
        });
        await after.query(`INSERT INTO chat.responses (id, account_id, model, previous_id, items) VALUES ('h', 'acct', 'm', 'g', '[]')`);
        await after.query(`INSERT INTO chat.responses (id, account_id, model, items) VALUES ('i', 'acct', 'm', '[]')`);
        expect(await after.query(`SELECT id, chain_id FROM chat.responses WHERE id IN ('g', 'h', 'i') ORDER BY id`)).toEqual([
          { id: 'g', chain_id: 'a' },
          { id: 'h', chain_id: 'a' },
          { id: 'i', chain_id: 'i' },
        ]);
        // The trigger's lookup is planned on every call: a plan cached on a small table scans it all for each row.
        expect(await after.query(`SELECT proconfig FROM pg_proc WHERE proname = 'responses_chain_id'`)).toEqual([
          { proconfig: ['plan_cache_mode=force_custom_plan'] },
        ]);
      } finally {
        await after.destroy();
      }
    } finally {
      await old.drop();
    }
  });
});

describe('the expiry sweeps', () => {
  const quiet = createLogger('chat-test', 'silent');

  it('reads UNIGATE_RESPONSES_RETENTION_DAYS: 30 by default, 0 for ever, anything else refused', () => {
    expect(responsesRetentionDays({})).toBe(30);
    expect(responsesRetentionDays({ UNIGATE_RESPONSES_RETENTION_DAYS: '0' })).toBe(0);
    expect(responsesRetentionDays({ UNIGATE_RESPONSES_RETENTION_DAYS: '7' })).toBe(7);
    for (const bad of ['-1', '1.5', 'week', '40000']) {
      expect(() => responsesRetentionDays({ UNIGATE_RESPONSES_RETENTION_DAYS: bad })).toThrow(/UNIGATE_RESPONSES_RETENTION_DAYS must be/);
    }
  });

  it('sweeps with the retention’s cutoff, survives a failing sweep, and stops after the one running', async () => {
    const cutoffs: number[] = [];
    let release = () => undefined as void;
    const expire = jest.fn(async (before: Date) => {
      cutoffs.push(before.getTime());
      if (cutoffs.length === 1) throw new Error('database away');
      if (cutoffs.length === 3) await new Promise<void>((done) => (release = done));
      return 0;
    });
    const stop = startResponsesExpiry(
      { expire },
      { retentionDays: 2, logger: quiet, firstSweepMs: 1, intervalMs: 20, now: () => 10 * 86_400_000 },
    );
    // The first failed, the second found nothing, the third is still running: later ticks wait behind it.
    for (const deadline = Date.now() + 10_000; cutoffs.length < 3 && Date.now() < deadline;)
      await new Promise((done) => setTimeout(done, 5));
    await new Promise((done) => setTimeout(done, 60));
    expect(cutoffs.length).toBe(3);
    expect(cutoffs.every((t) => t === 8 * 86_400_000)).toBe(true);
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await new Promise((done) => setTimeout(done, 30));
    expect(stopped).toBe(false);
    release();
    await stopping;
    await new Promise((done) => setTimeout(done, 50));
    expect(expire).toHaveBeenCalledTimes(3);
  });

  it('never sweeps with a retention of 0', async () => {
    const expire = jest.fn(async () => 0);
    const stop = startResponsesExpiry({ expire }, { retentionDays: 0, logger: quiet, firstSweepMs: 1, intervalMs: 5 });
    await new Promise((done) => setTimeout(done, 40));
    await stop();
    expect(expire).not.toHaveBeenCalled();
  });
});
