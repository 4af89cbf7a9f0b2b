import {
  COMPACTION_PROMPT,
  compactionItem,
  ownCompactionSummary,
  SUMMARY_PREFIX,
  type EndpointCall,
  type EndpointPort,
  type ModelRoute,
  type ResponsesInputItem,
  type ResponsesRequest,
  type ResponsesResponse,
} from '@unigate/contracts';
import { RemoteCompaction } from './remote-compaction';

/** Answers every call with `text` and remembers what it was asked, and how. */
class Scripted implements EndpointPort {
  readonly asked: Array<{ how: 'call' | 'stream'; body: ResponsesRequest }> = [];

  constructor(private readonly text = 'The user asked for notes.txt; it says PELICAN-42.') {}

  async call(call: EndpointCall): Promise<unknown> {
    this.asked.push({ how: 'call', body: call.body as ResponsesRequest });
    return this.answer();
  }

  async *stream(call: EndpointCall): AsyncIterable<unknown> {
    this.asked.push({ how: 'stream', body: call.body as ResponsesRequest });
    yield { type: 'response.completed', sequence_number: 0, response: this.answer() };
  }

  private answer(): ResponsesResponse {
    return {
      id: 'resp_abc',
      object: 'response',
      created_at: 1,
      status: 'completed',
      model: 'gamma-2.5-flash',
      output: [
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: this.text }] },
      ],
      usage: { input_tokens: 900, output_tokens: 40, total_tokens: 940 },
    } as ResponsesResponse;
  }
}

const TOOLS = [{ type: 'function', name: 'exec_command', parameters: { type: 'object' } }] as ResponsesRequest['tools'];
// What Codex 0.169.0 sends when it compacts remotely (captured, shortened).
const HISTORY: ResponsesInputItem[] = [
  { type: 'message', role: 'user', content: 'Run the command `cat notes.txt` and tell me what it printed.' },
  { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"cat notes.txt"}' },
  { type: 'function_call_output', call_id: 'call_1', output: 'The secret word is PELICAN-42.' },
];
const TRIGGER = { type: 'compaction_trigger' } as ResponsesInputItem;

type StreamedEvent = { type: string; sequence_number: number; response?: ResponsesResponse; item?: unknown; output_index?: number };

const call = (body: Partial<ResponsesRequest>, endpoint = 'responses'): EndpointCall => ({
  endpoint,
  request_id: 'req_1',
  account_id: 'acct',
  key_id: 'k',
  hold_id: null,
  route: {} as ModelRoute,
  body: { model: 'gamma-2.5-flash', ...body },
  options: {},
});

describe('RemoteCompaction', () => {
  it('answers a compaction trigger with one compaction item carrying the model’s summary, asked without tools', async () => {
    const inner = new Scripted();
    const body = { input: [...HISTORY, TRIGGER], tools: TOOLS, tool_choice: 'auto' as const, parallel_tool_calls: true, store: false };
    const answer = (await new RemoteCompaction(inner).call(call(body))) as ResponsesResponse;
    expect(answer.output).toEqual([
      { type: 'compaction', id: 'cmp_abc', encrypted_content: expect.stringMatching(/^unigate-compaction-v1\./) },
    ]);
    expect(ownCompactionSummary(answer.output[0] as ResponsesInputItem)).toBe('The user asked for notes.txt; it says PELICAN-42.');
    expect(answer.usage).toMatchObject({ input_tokens: 900, output_tokens: 40 });
    expect(inner.asked).toHaveLength(1);
    const asked = inner.asked[0];
    expect(asked.how).toBe('call');
    expect(asked.body).not.toHaveProperty('tools');
    expect(asked.body).not.toHaveProperty('tool_choice');
    expect(asked.body).not.toHaveProperty('parallel_tool_calls');
    expect(asked.body).toMatchObject({
      stream: false,
      store: false,
      input: [...HISTORY, { type: 'message', role: 'user', content: COMPACTION_PROMPT }],
    });
  });

  it('streams a compaction as the events of a response holding only the compaction item', async () => {
    const inner = new Scripted();
    const events: StreamedEvent[] = [];
    for await (const ev of new RemoteCompaction(inner).stream(
      call({ input: [...HISTORY, TRIGGER], stream: true }),
      new AbortController().signal,
    )) {
      events.push(ev as StreamedEvent);
    }
    expect(inner.asked.map((a) => a.how)).toEqual(['call']);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual([0, 1, 2, 3, 4]);
    expect(events[0].response).toMatchObject({ status: 'in_progress', output: [] });
    expect(events[3]).toMatchObject({ output_index: 0, item: { type: 'compaction' } });
    expect(events[4].response?.output).toEqual([events[3].item]);
  });

  it('reads its own compaction item back as a user message holding the summary, for a call or a stream', async () => {
    const own = compactionItem('cmp_1', 'Earlier: the file says PELICAN-42.') as unknown as ResponsesInputItem;
    const foreign = { type: 'compaction', encrypted_content: 'gAAAA-openai-sealed' } as ResponsesInputItem;
    const next = { type: 'message', role: 'user', content: 'And now?' } as ResponsesInputItem;
    for (const stream of [false, true]) {
      const inner = new Scripted();
      const port = new RemoteCompaction(inner);
      const c = call({ input: [own, foreign, next], tools: TOOLS, stream });
      if (stream) for await (const _ of port.stream(c, new AbortController().signal));
      else await port.call(c);
      expect(inner.asked).toEqual([
        {
          how: stream ? 'stream' : 'call',
          body: expect.objectContaining({
            tools: TOOLS,
            input: [{ type: 'message', role: 'user', content: `${SUMMARY_PREFIX}Earlier: the file says PELICAN-42.` }, foreign, next],
          }),
        },
      ]);
    }
  });

  it('passes through other endpoints and requests with nothing of compaction in them, the very same call', async () => {
    const inner = new Scripted();
    const seen: EndpointCall[] = [];
    const spy: EndpointPort = { call: async (c) => (seen.push(c), inner.call(c)), stream: (c) => (seen.push(c), inner.stream(c)) };
    const port = new RemoteCompaction(spy);
    const plain = call({ input: HISTORY });
    const chat = call({ input: [TRIGGER] }, 'chat.completions');
    await port.call(plain);
    await port.call(chat);
    expect(seen[0]).toBe(plain);
    expect(seen[1]).toBe(chat);
  });
});
