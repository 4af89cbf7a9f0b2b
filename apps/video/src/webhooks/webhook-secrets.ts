/** Each account's Standard Webhooks signing secret (`whsec_` + base64), made on first use. */
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';

export class WebhookSecrets {
  constructor(private readonly ds: DataSource) {}

  async secretFor(accountId: string): Promise<string> {
    const fresh = `whsec_${randomBytes(24).toString('base64')}`;
    // Two first uses at once agree: the loser's insert does nothing and both read the winner's.
    await this.ds.query(`INSERT INTO video.webhook_secrets (account_id, secret) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING`, [
      accountId,
      fresh,
    ]);
    const rows: Array<{ secret: string }> = await this.ds.query(`SELECT secret FROM video.webhook_secrets WHERE account_id = $1`, [
      accountId,
    ]);
    return rows[0]!.secret;
  }
}
