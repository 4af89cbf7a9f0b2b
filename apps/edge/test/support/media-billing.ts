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

/**
 * A failed call left no ledger entry and gave its hold back. Settlement is asynchronous in distributed
 * mode, so "no entry" is read behind a marker: a chat call on the same account, made after the failed
 * one, whose entry shows only once every charge published before it on the account has settled (an
 * account's usage events share one partition, settled in order). A fixed wait instead passed whenever
 * a stray charge was slower than the wait.
 */
export async function expectNothingCharged(admin: Admin, funded: { accountId: string; key: string }, creditUsd: number) {
  const account = await eventually(
    () => admin.account(funded.accountId),
    (a) => a.reserved_usd === 0,
  );
  expect(account.balance_usd).toBe(creditUsd);
  const marker = await fetch(`${admin.stack.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${funded.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sigma-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'marker' }] }),
  });
  expect(marker.status).toBe(200);
  await marker.arrayBuffer();
  const markerId = marker.headers.get('x-request-id')!;
  await chargeOf(admin, funded.accountId, markerId);
  expect((await admin.usage(funded.accountId)).map((x) => x.request_id)).toEqual([markerId]);
}
