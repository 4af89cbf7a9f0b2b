import { GatewayError } from '@unigate/contracts';
import { parseRange, subscriptionBody, usageBody } from './dashboard-billing';

const quota = {
  balance_micros: 93_250_001,
  used_micros: 6_749_999,
  reserved_micros: 0,
  daily: [{ date: '2026-11-20', charged_micros: 1_500_000 }],
};

describe('dashboard billing bodies', () => {
  it('makes hard_limit_usd − total_usage/100 equal the balance', () => {
    const s = subscriptionBody(quota);
    const u = usageBody(quota);
    expect(s.hard_limit_usd - u.total_usage / 100).toBeCloseTo(93.250001, 9);
    expect(s).toMatchObject({ object: 'billing_subscription', access_until: 0 });
    expect(u.daily_costs).toEqual([{ timestamp: Date.parse('2026-11-20T00:00:00Z') / 1000, line_items: [{ name: 'usage', cost: 150 }] }]);
  });

  it('defaults the range to the last 100 days, end exclusive', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRange({}, now)).toEqual({ from: '2026-08-15', to: '2026-11-23' });
  });

  it.each([
    [{ start_date: '2026-13-01' }, 'start_date'],
    [{ end_date: 'yesterday' }, 'end_date'],
    [{ start_date: '0000-01-01', end_date: '0000-02-01' }, 'end_date'],
    [{ start_date: '1969-12-01', end_date: '1970-01-02' }, 'start_date'],
    [{ start_date: '2026-02-30' }, 'start_date'],
    [{ end_date: '+275760-09-13' }, 'end_date'],
    [{ start_date: '2026-11-10', end_date: '2026-11-01' }, 'start_date'],
    [{ start_date: '2020-01-01', end_date: '2026-01-01' }, 'start_date'],
  ])('rejects %j naming %s', (query, field) => {
    let err: unknown;
    try {
      parseRange(query);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).param).toBe(field);
  });
});
