import { parseMockBootstrap } from './infra';
import { uniqueName } from './names';

describe('parseMockBootstrap', () => {
  it('reads the broker list from the librdkafka mock cluster notice', () => {
    const line =
      '%5|1795315730.357|MOCK|rdkafka#consumer-1| [thrd:app]: Mock cluster enabled: original bootstrap.servers and security.protocol ignored and replaced with 127.0.0.1:44957,127.0.0.1:44315,127.0.0.1:36749\n';
    expect(parseMockBootstrap(line)).toEqual(['127.0.0.1:44957', '127.0.0.1:44315', '127.0.0.1:36749']);
  });

  it('returns undefined until the notice has been written', () => {
    expect(parseMockBootstrap('')).toBeUndefined();
    expect(parseMockBootstrap('%5|1|MOCK|rdkafka#consumer-1| [thrd:app]: Mock cluster enab')).toBeUndefined();
  });
});

describe('uniqueName', () => {
  it('is distinct per call and valid as a Postgres identifier and Kafka topic', () => {
    const names = new Set(Array.from({ length: 500 }, () => uniqueName('Billing-Test.db')));
    expect(names.size).toBe(500);
    for (const name of names) {
      expect(name).toMatch(/^billing_test_db_[a-z0-9]+$/);
      expect(name.length).toBeLessThanOrEqual(63);
    }
    expect(uniqueName('x'.repeat(100)).length).toBeLessThanOrEqual(63);
  });
});
