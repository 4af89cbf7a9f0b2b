/** What the video service asks billing directly: giving a failed task's hold back (BillingService.ReleaseHold). */
import type { BillingPort } from '@unigate/contracts';
import { CONTROL_CALL, grpcClient, unary } from '@unigate/platform/distributed';

export function grpcHoldReleaser(url: string): Pick<BillingPort, 'releaseHold'> {
  const client = grpcClient('billing', url);
  return {
    async releaseHold(accountId, holdId) {
      await unary(client.ReleaseHold.bind(client), { account_id: accountId, hold_id: holdId }, CONTROL_CALL);
    },
  };
}
