import { DEFAULT_FETCH_MAX_WAIT_MS, kafkaFetchMaxWaitMs } from './kafka-event-bus';

describe('KAFKA_FETCH_MAX_WAIT_MS', () => {
  it('defaults to a second when unset or empty', () => {
    expect(DEFAULT_FETCH_MAX_WAIT_MS).toBe(1000);
    expect(kafkaFetchMaxWaitMs({})).toBe(1000);
    expect(kafkaFetchMaxWaitMs({ KAFKA_FETCH_MAX_WAIT_MS: ' ' })).toBe(1000);
  });

  it('takes a whole number of milliseconds from 1 to 30000', () => {
    expect(kafkaFetchMaxWaitMs({ KAFKA_FETCH_MAX_WAIT_MS: '100' })).toBe(100);
    expect(kafkaFetchMaxWaitMs({ KAFKA_FETCH_MAX_WAIT_MS: '30000' })).toBe(30000);
  });

  it.each(['0', '-5', '1.5', '30001', 'soon', '1e9'])('refuses %p, naming the variable', (raw) => {
    expect(() => kafkaFetchMaxWaitMs({ KAFKA_FETCH_MAX_WAIT_MS: raw })).toThrow(/KAFKA_FETCH_MAX_WAIT_MS must be a whole number/);
  });
});
