/** A tiny client for the admin API (DESIGN.md §6), used by e2e tests to set up accounts and keys. */
import type { Stack } from './stacks';

export class Admin {
  constructor(readonly stack: Stack) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const { status, body: answer } = await this.request<T>(method, path, body);
    return { status, body: answer };
  }

  /** The whole answer, its headers included (a usage page's Link). */
  async request<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; headers: Headers }> {
    const res = await fetch(`${this.stack.origin}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${this.stack.adminToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
  }

  async createAccount(name: string, creditUsd: number): Promise<{ id: string; name: string; balance_usd: number }> {
    const r = await this.call<{ id: string; name: string; balance_usd: number }>('POST', '/accounts', { name, credit_usd: creditUsd });
    if (r.status !== 201) throw new Error(`createAccount ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  async createKey(accountId: string, spec: object = {}): Promise<{ id: string; key: string }> {
    const r = await this.call<{ id: string; key: string }>('POST', `/accounts/${accountId}/keys`, spec);
    if (r.status !== 201) throw new Error(`createKey ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  async account(accountId: string) {
    return (await this.call<{ id: string; balance_usd: number; reserved_usd: number }>('GET', `/accounts/${accountId}`)).body;
  }

  async usage(accountId: string) {
    return (
      await this.call<
        Array<{
          request_id: string;
          model: string;
          kind: string;
          cost_micros: number;
          input_tokens: number;
          output_tokens: number;
          units: Record<string, number | string>;
        }>
      >('GET', `/accounts/${accountId}/usage`)
    ).body;
  }

  /** A fresh account with `creditUsd` and one key for it. */
  async fundedKey(creditUsd: number, keySpec: object = {}) {
    const account = await this.createAccount(`acct-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`, creditUsd);
    const key = await this.createKey(account.id, keySpec);
    return { accountId: account.id, keyId: key.id, key: key.key };
  }
}

export async function eventually<T>(fn: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await fn();
  while (!check(last)) {
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await fn();
  }
  return last;
}
