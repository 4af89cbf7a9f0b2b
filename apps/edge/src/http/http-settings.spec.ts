import { httpSettingsFromEnv } from './http-settings';

describe('httpSettingsFromEnv', () => {
  it('takes the timeouts it is given, 0 turning one off', () => {
    const s = httpSettingsFromEnv({ UNIGATE_REQUEST_TIMEOUT_MS: '2000', UNIGATE_IDLE_TIMEOUT_MS: '0' });
    expect([s.requestTimeoutMs, s.idleTimeoutMs]).toEqual([2000, 0]);
  });

  // `FOO=` in a compose file or a chart's empty default: as 0 it would have turned the slow-client timeouts off.
  it('reads a blank timeout as unset, its default, not as 0', () => {
    const s = httpSettingsFromEnv({
      UNIGATE_REQUEST_TIMEOUT_MS: '',
      UNIGATE_HEADERS_TIMEOUT_MS: ' ',
      UNIGATE_IDLE_TIMEOUT_MS: '',
      UNIGATE_KEEPALIVE_TIMEOUT_MS: '',
      UNIGATE_WEBSOCKET_MAX_AGE_MS: '',
      UNIGATE_BODY_MEMORY_MB: '',
    });
    expect(s).toMatchObject({
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 10_000,
      idleTimeoutMs: 300_000,
      keepAliveTimeoutMs: 65_000,
      websocketMaxAgeMs: 3_600_000,
    });
    expect(s.bodyMemoryBytes).toBe(httpSettingsFromEnv({}).bodyMemoryBytes);
    expect(s.bodyMemoryBytes).toBeGreaterThan(0);
  });
});
