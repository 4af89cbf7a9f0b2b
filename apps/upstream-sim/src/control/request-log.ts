/**
 * The last N requests the simulator received, so tests can assert what the gateway sent upstream
 * (headers including authorization, and the parsed body). Bounded: a ring of `limit` entries.
 */

export interface LoggedRequest {
  seq: number;
  at: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export class RequestLog {
  private readonly entries: LoggedRequest[] = [];
  private seq = 0;

  constructor(private readonly limit = 200) {}

  record(entry: Omit<LoggedRequest, 'seq' | 'at'>): void {
    this.entries.push({ seq: ++this.seq, at: new Date().toISOString(), ...entry });
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }

  /** Oldest first; `last` keeps only the most recent ones. */
  list(last?: number): LoggedRequest[] {
    if (last === undefined) return [...this.entries];
    return last > 0 ? this.entries.slice(-last) : [];
  }

  clear(): void {
    this.entries.length = 0;
  }
}
