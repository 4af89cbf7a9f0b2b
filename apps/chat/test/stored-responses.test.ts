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
import type { DataSource } from 'typeorm';
import { openChatDataSource, StoredResponses, TypeOrmResponsesStore } from '../src';

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
    expect(await store.load('acct-a', res.id)).toBeNull();
  });

  it('stores a streamed response before its terminal event goes out', async () => {
    const c = call({ model: 'gamma-2.5-flash', input: 'stream me', stream: true });
    for await (const item of port.stream(c, new AbortController().signal)) {
      const ev = item as ResponsesStreamEvent;
      if (ev.type === 'response.completed') {
        const kept = await store.load('acct-a', ev.response.id);
        expect(kept?.items.map((i) => i.type)).toEqual(['message', 'message']);
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
    expect(await store.load('acct-a', `resp_${c.request_id}`)).toBeNull();
  });
});
