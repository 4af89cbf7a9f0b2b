/**
 * kill -9 of standalone under load, then a restart on the same data: money lives in memory and the
 * ledger follows in 50 ms group commits, but every usage event is journaled before its answer is
 * written, so no delivered answer may be unbilled after the restart (docs/reliability.md). Everything
 * else holds: one entry per full answer, ledger total == balance drop, no hold left (holds are memory).
 */
import { Admin } from './support/admin';
import { loadThroughCrash, reportUnbilled, settledInvariants } from './support/fault-load';
import { startStandalone, type Stack } from './support/stacks';
import { useStack } from './support/use-stack';

let stack: Stack;
useStack(
  () => startStandalone(),
  (s) => (stack = s),
);

it('kill -9 mid-load, then a restart: every delivered answer is billed, exactly once', async () => {
  const admin = new Admin(stack);
  const { accountId, key } = await admin.fundedKey(50);
  const { outcomes, killedAt } = await loadThroughCrash(stack, key, 'standalone', { beforeMs: 2_000, afterMs: 1_000 });
  expect(outcomes.filter((o) => o.complete).length).toBeGreaterThan(10);
  const { unbilled } = await settledInvariants(admin, accountId, 50, outcomes, { killedAt });
  reportUnbilled('standalone', unbilled, killedAt);
}, 120_000);
