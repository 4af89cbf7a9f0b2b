import { costMicros, type EndpointCall, type ModelRoute, type UsageRecorded } from '@unigate/contracts';
import { createLogger } from '../logger';
import { costMicrosTotal, tokensTotal } from '../observability/metrics';
import { UsageRecorder } from './usage-recorder';

const call = (requestId: string): Omit<EndpointCall, 'body' | 'files'> => ({
  endpoint: 'chat.completions',
  request_id: requestId,
  account_id: 'acc',
  key_id: 'key',
  hold_id: null,
  route: {
    model: { id: 'm', kind: 'chat', prices: { input_per_mtok: 1_000_000, output_per_mtok: 2_000_000 } },
    channels: [],
  } as unknown as ModelRoute,
  options: {},
});
const quiet = createLogger('test', 'silent');

describe('UsageRecorder', () => {
  it('retries a failed delivery until the bus takes it, and flush waits for it', async () => {
    const delivered: UsageRecorded[] = [];
    let failures = 2;
    const recorder = new UsageRecorder(async (event) => {
      if (failures-- > 0) throw new Error('broker unavailable');
      delivered.push(event);
    }, quiet);
    await recorder.record(call('r1'), { input_tokens: 10, output_tokens: 5 });
    expect(recorder.inFlight).toBe(1);
    await recorder.flush(10_000);
    expect(delivered.map((e) => [e.request_id, e.units])).toEqual([['r1', { input_tokens: 10, output_tokens: 5 }]]);
    expect(recorder.inFlight).toBe(0);
  });

  it('delivery starts on the next turn of the event loop, after the caller has answered, and flush waits for it', async () => {
    const order: string[] = [];
    const recorder = new UsageRecorder(async (event) => void order.push(`delivered ${event.request_id}`), quiet);
    await recorder.record(call('r3'), { output_tokens: 1 });
    // What a caller does right after record() resolves (writing its answer) comes before delivery.
    order.push('answered');
    await Promise.resolve();
    expect(order).toEqual(['answered']);
    expect(recorder.inFlight).toBe(1);
    await recorder.flush(1_000);
    expect(order).toEqual(['answered', 'delivered r3']);
    expect(recorder.inFlight).toBe(0);
  });

  it('journals the event before record() returns, before the answer and the delivery, with the event it then delivers', async () => {
    const order: string[] = [];
    const journaled: UsageRecorded[] = [];
    const delivered: UsageRecorded[] = [];
    const recorder = new UsageRecorder(async (event) => void delivered.push(event), quiet, {
      journal: (event) => {
        journaled.push(event);
        order.push(`journaled ${event.request_id}`);
      },
    });
    await recorder.record(call('r5'), { output_tokens: 1 });
    order.push('answered');
    await recorder.flush(1_000);
    expect(order).toEqual(['journaled r5', 'answered']);
    expect(delivered).toEqual(journaled);
    expect(delivered).toHaveLength(1);
  });

  it('a journal that throws (a full disk) fails neither the call nor the delivery', async () => {
    const delivered: string[] = [];
    const recorder = new UsageRecorder(async (event) => void delivered.push(event.request_id), quiet, {
      journal: () => {
        throw new Error('ENOSPC: no space left on device');
      },
    });
    // It resolves the cost it charges (2 micro-USD for one output token at $2 per token).
    await expect(recorder.record(call('r6'), { output_tokens: 1 })).resolves.toBe(2);
    await recorder.flush(1_000);
    expect(delivered).toEqual(['r6']);
  });

  it('counts the tokens and the cost per model once the usage is delivered', async () => {
    const model = `m-${Date.now()}`;
    // micro-USD per million tokens
    const prices = {
      input_per_mtok: 3_000_000,
      output_per_mtok: 15_000_000,
      cached_input_per_mtok: 300_000,
      cache_write_input_per_mtok: 3_750_000,
      cache_write_1h_input_per_mtok: 6_000_000,
    };
    const usage = {
      input_tokens: 10_000,
      cached_input_tokens: 4_000,
      cache_write_input_tokens: 1_000,
      cache_write_1h_input_tokens: 400,
      output_tokens: 5_000,
    };
    const priced = { ...call('r4'), route: { model: { id: model, kind: 'chat', prices }, channels: [] } } as unknown as Omit<
      EndpointCall,
      'body' | 'files'
    >;
    const counted = async () => ({
      tokens: Object.fromEntries(
        (await tokensTotal.get()).values.filter((v) => v.labels.model === model).map((v) => [v.labels.direction, v.value]),
      ),
      cost: (await costMicrosTotal.get()).values.find((v) => v.labels.model === model)?.value,
    });
    const recorder = new UsageRecorder(async () => undefined, quiet);
    await recorder.record(priced, usage);
    await recorder.flush(1_000);
    // 5,000 plain input at $3, 4,000 read at $0.30, 600 written for 5 minutes at $3.75 and 400 for an
    // hour at $6, 5,000 output at $15
    expect(await counted()).toEqual({
      tokens: { input: 5_000, cached_input: 4_000, cache_write_input: 600, cache_write_1h_input: 400, output: 5_000 },
      cost: 95_850,
    });
    expect(costMicros(prices, usage)).toBe(95_850);
  });

  it('a delivery still failing at shutdown is logged with the whole event for replay', async () => {
    const lines: string[] = [];
    const logger = createLogger('test', 'info', { write: (l: string) => void lines.push(l) });
    const recorder = new UsageRecorder(async () => {
      throw new Error('broker gone');
    }, logger);
    await recorder.record(call('r2'), { input_tokens: 1 });
    await recorder.flush(150);
    const replay = lines.map((l) => JSON.parse(l)).find((l) => /replay it/.test(l.msg));
    expect(replay.event).toMatchObject({ request_id: 'r2', account_id: 'acc', units: { input_tokens: 1 } });
  });
});
