import { FaultRules } from './faults';

describe('FaultRules', () => {
  it('applies the first matching rule and consumes its count', () => {
    const rules = new FaultRules();
    rules.add({ status: 429, count: 2 });
    rules.add({ status: 500 });
    expect(rules.take({ path: '/p' })?.status).toBe(429);
    expect(rules.take({ path: '/p' })?.status).toBe(429);
    expect(rules.take({ path: '/p' })?.status).toBe(500);
    expect(rules.take({ path: '/p' })?.status).toBe(500); // no count: unlimited
  });

  it('matches by model and path', () => {
    const rules = new FaultRules();
    rules.add({ match: { model: 'a' }, status: 503 });
    rules.add({ match: { path: '/v1/other' }, status: 500 });
    expect(rules.take({ model: 'b', path: '/v1/chat/completions' })).toBeUndefined();
    expect(rules.take({ model: 'a', path: '/v1/chat/completions' })?.status).toBe(503);
    expect(rules.take({ model: 'b', path: '/v1/other' })?.status).toBe(500);
  });

  it('clears', () => {
    const rules = new FaultRules();
    rules.add({ latency_ms: 5 });
    expect(rules.list()).toHaveLength(1);
    rules.clear();
    expect(rules.take({ path: '/' })).toBeUndefined();
  });
});
