/**
 * kill -9 of standalone under load, then a restart on the same data: money lives in memory and the
 * ledger follows in 5 ms group commits, so an answer delivered just before the kill may be unbilled —
 * only within the loss window (docs/reliability.md), whose measured gaps are printed. Everything else
 * holds: one entry per full answer, ledger total == balance drop, no hold left (holds are memory).
 */
import { Admin } from './support/admin';
import { loadThroughCrash, reportUnbilled, settledInvariants, withinLossWindow } from './support/fault-load';
import { startStandalone, type Stack } from './support/stacks';
import { useStack } from './support/use-stack';

let stack: Stack;
useStack(
  () => startStandalone(),
  (s) => (stack = s),
);

it('kill -9 mid-load, then a restart: only answers within the loss window before the kill may be unbilled', async () => {
  const admin = new Admin(stack);
  const { accountId, key } = await admin.fundedKey(50);
  const { outcomes, killedAt } = await loadThroughCrash(stack, key, 'standalone', { beforeMs: 2_000, afterMs: 1_000 });
  expect(outcomes.filter((o) => o.complete).length).toBeGreaterThan(10);
  const { unbilled } = await settledInvariants(admin, accountId, 50, outcomes, { unbilledAllowed: withinLossWindow(killedAt), killedAt });
  reportUnbilled('standalone', unbilled, killedAt);
}, 120_000);
