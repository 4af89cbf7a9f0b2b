/** Ledger checks the media suites share: what one call was charged, and that a failed call charged nothing. */
import { Admin, eventually } from './admin';

/** The ledger entry of `requestId` (waits for settlement: Kafka in distributed mode). */
export async function chargeOf(admin: Admin, accountId: string, requestId: string) {
  const entries = await eventually(
    () => admin.usage(accountId),
    (e) => e.some((x) => x.request_id === requestId),
  );
  return entries.find((x) => x.request_id === requestId)!;
}

/** A failed call left no ledger entry and gave its hold back. */
export async function expectNothingCharged(admin: Admin, accountId: string, creditUsd: number) {
  const account = await eventually(
    () => admin.account(accountId),
    (a) => a.reserved_usd === 0,
  );
  expect(account.balance_usd).toBe(creditUsd);
  // Settlement is asynchronous in distributed mode: give a stray charge time to show up.
  await new Promise((r) => setTimeout(r, 300));
  expect(await admin.usage(accountId)).toEqual([]);
}
