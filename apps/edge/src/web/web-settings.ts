/** Sign-up and dashboard settings from the environment (docs/configuration.md), checked at start. */
import { ACCOUNT_TIERS, usdToMicros, type AccountTier } from '@unigate/contracts';
import { readEnv } from '@unigate/platform';
import { z } from 'zod';

const schema = z.object({
  /** `off` closes /signup; log-in keeps working for existing users. */
  UNIGATE_SIGNUP: z.enum(['on', 'off'], { error: 'UNIGATE_SIGNUP must be on or off' }).default('on'),
  /** Comma-separated emails: when set, only these may sign up. */
  UNIGATE_SIGNUP_INVITES: z.string().default(''),
  /** Credit (USD) a new account starts with. */
  UNIGATE_SIGNUP_CREDIT_USD: z.coerce
    .number({ error: 'UNIGATE_SIGNUP_CREDIT_USD must be a number of USD' })
    .min(0, 'UNIGATE_SIGNUP_CREDIT_USD must not be negative')
    .max(1_000_000, 'UNIGATE_SIGNUP_CREDIT_USD must be at most 1000000')
    .default(0),
  /** The tier of accounts made at sign-up (docs/billing.md "Tiers"); an operator can change it per account. */
  UNIGATE_SIGNUP_TIER: z.enum(ACCOUNT_TIERS, { error: `UNIGATE_SIGNUP_TIER must be one of: ${ACCOUNT_TIERS.join(', ')}` }).default('free'),
});

export interface WebSettings {
  signup: boolean;
  /** Lower-cased; empty = anyone may sign up. */
  invites: ReadonlySet<string>;
  creditMicros: number;
  tier: AccountTier;
}

export function webSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): WebSettings {
  const e = readEnv(schema, env);
  const invites = e.UNIGATE_SIGNUP_INVITES.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return {
    signup: e.UNIGATE_SIGNUP === 'on',
    invites: new Set(invites),
    creditMicros: usdToMicros(e.UNIGATE_SIGNUP_CREDIT_USD),
    tier: e.UNIGATE_SIGNUP_TIER,
  };
}

/** Why `email` may not sign up, or null when it may. */
export function signupRefusal(settings: WebSettings, email: string): string | null {
  if (!settings.signup) return 'Sign-up is closed on this gateway. Ask its operator for an account.';
  if (settings.invites.size > 0 && !settings.invites.has(email.trim().toLowerCase()))
    return 'Sign-up is by invitation on this gateway, and this email is not invited.';
  return null;
}
