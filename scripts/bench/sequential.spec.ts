/**
 * The sequential runs' bookkeeping against two local servers standing in for a gateway and the
 * simulator: how many requests each side gets, who goes first in each round, what is recorded (the
 * warm-up is not), the gateway's own x-unigate-overhead-ms, and failures. Counts only, never times.
 */
import { chatStub, localServers, type ChatStubOptions } from './local-servers';
import { sequentialRun } from './sequential.mjs';

const arrivals: string[] = [];
const servers = localServers();

/** A chat endpoint that logs each request's arrival under `name` (chatStub). */
const server = (name: string, opts: ChatStubOptions = {}) => chatStub(servers, arrivals, name, opts);

const config = (warmup: number, maxSeconds = 30) => ({ model: 'omega-k3', maxTokens: 8, sequential: { warmup, maxSeconds } });

beforeEach(() => {
  arrivals.length = 0;
});
afterEach(() => servers.closeAll());

describe('sequentialRun', () => {
  it('pairs every gateway request with a direct one, alternating who goes first, and records none of the warm-up', async () => {
    const gateway = await server('gateway', { overheadMs: '0.25' });
    const direct = await server('direct');
    const result = await sequentialRun(gateway, direct, config(2), { count: 5 });
    expect(arrivals).toEqual([
      // warm-up rounds 0 and 1, then recorded rounds 0 … 4: the gateway first in even rounds
      ...['gateway', 'direct', 'direct', 'gateway'],
      ...['gateway', 'direct', 'direct', 'gateway', 'gateway', 'direct', 'direct', 'gateway', 'gateway', 'direct'],
    ]);
    expect(result.target.total.n).toBe(5);
    expect(result.target.firstByte.n).toBe(5);
    expect(result.direct!.total.n).toBe(5);
    expect(result.target.reported).toMatchObject({ n: 5, p50: 250 });
    expect(result.direct!.reported).toBeUndefined();
    expect(result.target.failures + result.direct!.failures).toBe(0);
  });

  it('runs a target alone when there is no direct side (the simulator itself)', async () => {
    const only = await server('direct');
    const result = await sequentialRun(only, undefined, config(1), { count: 3 });
    expect(arrivals).toEqual(['direct', 'direct', 'direct', 'direct']);
    expect(result.target.total.n).toBe(3);
    expect(result).not.toHaveProperty('direct');
  });

  it('counts an answer that is not 200 as a failure, not a sample', async () => {
    const gateway = await server('gateway', { status: (n) => (n === 1 ? 429 : 200) });
    const direct = await server('direct');
    const result = await sequentialRun(gateway, direct, config(0), { count: 4 });
    expect(result.target.total.n).toBe(3);
    expect(result.target.failures).toBe(1);
    expect(result.target.lastFailure).toBe('HTTP 429');
    expect(result.direct!.total.n).toBe(4);
  });

  it('gives up with the last error once more than 50 requests failed', async () => {
    const gateway = await server('gateway', { status: () => 503 });
    await expect(sequentialRun(gateway, undefined, config(0), { count: 100 })).rejects.toThrow(
      'more than 50 failed requests (last: HTTP 503)',
    );
    expect(arrivals).toHaveLength(51);
  });

  it('stops recording at its deadline', async () => {
    const gateway = await server('gateway');
    const result = await sequentialRun(gateway, undefined, config(1, 0), { count: 100 });
    // The warm-up ran; no recorded round fits in 0 s.
    expect(arrivals).toEqual(['gateway']);
    expect(result.target.total.n).toBe(0);
  });
});
