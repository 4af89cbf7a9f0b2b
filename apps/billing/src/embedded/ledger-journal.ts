/**
 * A write-ahead journal for the embedded ledger: each settled charge is appended to a local file
 * before the group commit that writes it, so a process killed between the two (kill -9, OOM) loses
 * nothing — the next start replays what the database lacks. Appends are plain `write`s without
 * fsync: they survive the process dying (the bytes are in the kernel's page cache), not the machine
 * losing power, which is the failure this closes (docs/billing.md).
 *
 * One segment file per group commit: taking a batch starts a new segment, and once the batch has
 * committed every segment up to its own is deleted. A segment therefore never holds an entry newer
 * than its batch, and a failed batch keeps its segments until a later batch (which carries its
 * entries again) commits.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { EntryRow } from '../domain/usage-event';

const SEGMENT = /^(\d+)\.jsonl$/;

export class LedgerJournal {
  private seq: number;
  private fd: number;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.seq = Math.max(0, ...this.segments()) + 1;
    this.fd = this.openSegment(this.seq);
  }

  /** Entries left by an earlier process (their batches may or may not have committed), oldest first. */
  leftovers(): EntryRow[] {
    const rows: EntryRow[] = [];
    for (const seq of this.segments().filter((s) => s < this.seq)) {
      for (const line of readFileSync(this.path(seq), 'utf8').split('\n')) {
        if (!line) continue;
        try {
          rows.push(JSON.parse(line) as EntryRow);
        } catch {
          // A torn last line: the process died mid-append, before anyone saw that charge's answer end.
        }
      }
    }
    return rows;
  }

  append(row: EntryRow): void {
    writeSync(this.fd, `${JSON.stringify(row)}\n`);
  }

  /** Starts a new segment for the entries after this point; returns the one just closed. */
  rotate(): number {
    const closed = this.seq;
    closeSync(this.fd);
    this.seq += 1;
    this.fd = this.openSegment(this.seq);
    return closed;
  }

  /** Every segment up to and including `seq` has committed: gone. */
  committed(seq: number): void {
    for (const s of this.segments()) if (s <= seq) rmSync(this.path(s), { force: true });
  }

  close(): void {
    closeSync(this.fd);
  }

  private segments(): number[] {
    return readdirSync(this.dir)
      .map((f) => SEGMENT.exec(f)?.[1])
      .filter((s): s is string => s !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  private path(seq: number): string {
    return join(this.dir, `${seq}.jsonl`);
  }

  private openSegment(seq: number): number {
    return openSync(this.path(seq), 'a');
  }
}
