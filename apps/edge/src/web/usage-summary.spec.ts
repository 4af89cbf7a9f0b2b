import type { LedgerEntryView } from '@unigate/contracts';
import { usageByDayAndModel } from './usage-summary';

const entry = (created_at: string, model: string, cost_micros: number): LedgerEntryView => ({
  id: created_at,
  request_id: 'r',
  model,
  kind: 'chat',
  input_tokens: 10,
  cached_input_tokens: 0,
  output_tokens: 5,
  units: {},
  cost_usd: cost_micros / 1e6,
  cost_micros,
  created_at,
});

describe('usageByDayAndModel', () => {
  it('sums per UTC day and model, newest day first, and leaves out days before the window', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const rows = usageByDayAndModel(
      [
        entry('2026-03-10T09:00:00.000Z', 'b', 3),
        entry('2026-03-10T08:00:00.000Z', 'a', 2),
        entry('2026-03-10T07:00:00.000Z', 'a', 1),
        entry('2026-03-09T23:59:59.000Z', 'a', 7),
        entry('2026-01-01T00:00:00.000Z', 'a', 100),
      ],
      now,
    );
    expect(rows).toEqual([
      { date: '2026-03-10', model: 'a', requests: 2, input_tokens: 20, output_tokens: 10, cost_micros: 3 },
      { date: '2026-03-10', model: 'b', requests: 1, input_tokens: 10, output_tokens: 5, cost_micros: 3 },
      { date: '2026-03-09', model: 'a', requests: 1, input_tokens: 10, output_tokens: 5, cost_micros: 7 },
    ]);
  });
});
