/**
 * Standalone with UNIGATE_SIM_URL (how `npm run bench` points it at the one shared simulator): every
 * model goes to that simulator, and the built-in one is not started.
 */
import { freePort, startUpstreamSim, tcpAccepts, type UpstreamSim } from '@unigate/testing';
import { startStandalone, type Stack } from './support/stacks';
import { json, openaiFor } from './support/use-stack';

describe('standalone in front of an external simulator', () => {
  let sim: UpstreamSim;
  let stack: Stack;
  let builtInPort: number;

  beforeAll(async () => {
    sim = await startUpstreamSim();
    builtInPort = await freePort();
    stack = await startStandalone({ UNIGATE_SIM_PORT: String(builtInPort) }, { simUrl: sim.url });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await sim?.process.stop();
  });

  it('sends the upstream call to UNIGATE_SIM_URL and serves no simulator of its own', async () => {
    const answer = await openaiFor(stack).chat.completions.create({
      model: 'omega-k3',
      messages: [{ role: 'user', content: 'Hello' }],
      max_tokens: 32,
    });
    expect(answer.choices[0].finish_reason).toBeTruthy();

    const log = await json(await fetch(`${sim.url}/_sim/requests?last=1`));
    expect(log.data).toEqual([
      expect.objectContaining({ path: '/v1/chat/completions', body: expect.objectContaining({ model: 'omega-k3' }) }),
    ]);
    expect(stack.simUrl).toBe(sim.url);
    expect(await tcpAccepts('127.0.0.1', builtInPort)).toBe(false);
  });

  it('starts without a Node warning on its output (Fastify warned of an error handler override on every start)', () => {
    const logs = stack.processes.map((p) => p.logs()).join('\n');
    expect(logs).not.toMatch(/\(node:\d+\) .*Warning/);
  });
});
