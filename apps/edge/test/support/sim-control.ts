/** The upstream simulator's control endpoint (/_sim): what it was sent, and faults to inject. */
import type { Stack } from './stacks';
import type { Loose } from './use-stack';

export interface LoggedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Loose;
}

export class SimControl {
  constructor(private readonly stack: Stack) {}

  /** The last `n` requests the simulator received, oldest first. */
  async last(n = 1): Promise<LoggedRequest[]> {
    const res = await fetch(`${this.stack.simUrl}/_sim/requests?last=${n}`);
    return ((await res.json()) as { data: LoggedRequest[] }).data;
  }

  /** The last request to a path starting with `prefix`. */
  async lastTo(prefix: string): Promise<LoggedRequest | undefined> {
    return (await this.last(50)).filter((r) => r.path.startsWith(prefix)).pop();
  }

  async fault(rule: object): Promise<void> {
    const res = await fetch(`${this.stack.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rule),
    });
    if (!res.ok) throw new Error(`fault rule refused: ${res.status} ${await res.text()}`);
  }

  async clearFaults(): Promise<void> {
    await fetch(`${this.stack.simUrl}/_sim/faults`, { method: 'DELETE' });
  }
}
