/**
 * A write-ahead journal for the embedded ledger: each usage event is appended to a local file before
 * the answer it belongs to is written (and so before the group commit that writes its entry), so a
 * process killed at any point after that (kill -9, OOM) loses nothing — the next start replays what
 * the database lacks. Appends are plain `write`s without fsync: they survive the process dying (the
 * bytes are in the kernel's page cache), not the machine losing power, which is the failure this
 * closes (docs/billing.md). The journal stores lines; what they mean is the ledger's business.
 *
 * The journal is a run of segment files. A group commit seals the open segment only once it has
 * grown past SEGMENT_BYTES, and once that batch committed, sealed segments up to it are deleted (the
 * ledger keeps a segment whose events have not reached a batch yet).
 * Sealing per commit would cost an open, a close, a directory read and an unlink on the main thread
 * for every batch (at low traffic, every request); replaying entries that had already committed is
 * harmless, because recovery is idempotent by request id. A failed batch keeps its segments until a
 * later batch, which carries its entries again, commits.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@unigate/platform';

const SEGMENT = /^(\d+)\.jsonl$/;
/** A segment is sealed at the first group commit after it reached this size. */
export const SEGMENT_BYTES = 1 << 20;

export class LedgerJournal {
  private seq: number;
  private fd: number;
  /** Bytes appended to the open segment. */
  private size = 0;
  /** The last append was cut short: its line has no end. */
  private torn = false;
  /** The oldest segment that may still exist (deleting walks up from here instead of reading the directory). */
  private oldest: number;

  constructor(
    private readonly dir: string,
    private readonly segmentBytes = SEGMENT_BYTES,
    private readonly logger?: Logger,
  ) {
    mkdirSync(dir, { recursive: true });
    const existing = this.segments();
    for (const seq of existing) this.refuseNonFile(this.path(seq));
    this.oldest = existing[0] ?? 1;
    this.seq = Math.max(0, ...existing) + 1;
    this.fd = this.openSegment(this.seq);
  }

  /** Lines left by an earlier process (their batches may or may not have committed), oldest first. */
  leftovers(): unknown[] {
    const rows: unknown[] = [];
    for (const seq of this.segments().filter((s) => s < this.seq)) {
      const path = this.path(seq);
      const lines = readFileSync(path, 'utf8').split('\n');
      let skipped = 0;
      let first = 0;
      lines.forEach((line, i) => {
        if (!line) return;
        try {
          rows.push(JSON.parse(line));
        } catch {
          // A torn last line (no newline after it): the process died mid-append, before anyone saw that
          // charge's answer end. Expected after a crash, so quiet.
          if (i === lines.length - 1) {
            this.logger?.debug({ segment: path, line: i + 1 }, 'ledger journal: torn last line skipped');
            return;
          }
          skipped += 1;
          first ||= i + 1;
        }
      });
      // Anything else unreadable is damage (or a short write on a full disk): replay goes on without it,
      // and an operator is told. A prefix only: the line holds account and request ids.
      if (skipped > 0)
        this.logger?.warn(
          { segment: path, line: first, skipped, prefix: lines[first - 1].slice(0, 16) },
          'ledger journal: unreadable lines skipped in a segment; a charge on them that had not committed is not recovered',
        );
    }
    return rows;
  }

  /** Appends one line; returns the segment that holds it. */
  append(line: object): number {
    // After a short write (a full disk) the last line is torn: start this one on a line of its own, so
    // replay loses only the torn one.
    const bytes = Buffer.from(`${this.torn ? '\n' : ''}${JSON.stringify(line)}\n`);
    const written = writeSync(this.fd, bytes);
    this.size += written;
    this.torn = written < bytes.length;
    // A line cut short is not crash-safe: a failed append, as when the write throws.
    if (this.torn) throw Object.assign(new Error(`ledger journal: short write (${written} of ${bytes.length} bytes)`), { code: 'ENOSPC' });
    return this.seq;
  }

  /**
   * Appends one line after close() or retire(), to a segment of its own: a charge settled after the
   * ledger stopped (a call cut at the shutdown deadline records what it produced after the drain) is
   * then settled by the next start instead of lost. Returns that segment.
   */
  appendAfterClose(line: object): number {
    this.seq += 1;
    const fd = this.openSegment(this.seq);
    try {
      writeSync(fd, `${JSON.stringify(line)}\n`);
    } finally {
      closeSync(fd);
    }
    return this.seq;
  }

  /**
   * A group commit starts. Returns the newest segment that holds only lines appended before it: the
   * open segment, sealed now, once it is big enough; otherwise the last one sealed before it.
   */
  seal(): number {
    if (this.size < this.segmentBytes) return this.seq - 1;
    const closed = this.seq;
    closeSync(this.fd);
    this.seq += 1;
    this.size = 0;
    this.torn = false;
    this.fd = this.openSegment(this.seq);
    return closed;
  }

  /** Every line of the segments up to and including `seq` has committed: they go (the open one stays). */
  committed(seq: number): void {
    this.deleteThrough(Math.min(seq, this.seq - 1));
  }

  close(): void {
    closeSync(this.fd);
  }

  /** Whether a small file can be written beside the segments now (a readiness probe after a failed append). */
  writable(): boolean {
    const probe = join(this.dir, '.probe');
    try {
      writeFileSync(probe, 'probe\n');
      rmSync(probe, { force: true });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Closes the journal after everything in it committed (a clean stop): every segment goes, the open
   * one too, so the next start has nothing to read back.
   */
  retire(): void {
    this.close();
    this.deleteThrough(this.seq);
  }

  /** Deletes every segment from the oldest left up to and including `last`. */
  private deleteThrough(last: number): void {
    for (; this.oldest <= last; this.oldest++) rmSync(this.path(this.oldest), { force: true });
  }

  private segments(): number[] {
    return readdirSync(this.dir)
      .map((f) => SEGMENT.exec(f)?.[1])
      .filter((s): s is string => s !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  /**
   * Something named like a segment that is not a file (a directory, a broken link) is not the journal's
   * to read or delete: the start stops naming it rather than fail on it later with a bare EISDIR.
   */
  private refuseNonFile(path: string): void {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isFile()) return;
    const what = stat === undefined ? 'a broken link' : stat.isDirectory() ? 'a directory' : 'not a regular file';
    throw new Error(
      `ledger journal ${this.dir}: ${path} is ${what}, where a journal segment (a file of JSON lines) was expected; ` +
        `move it out of ${this.dir} and start again`,
    );
  }

  private path(seq: number): string {
    return join(this.dir, `${seq}.jsonl`);
  }

  private openSegment(seq: number): number {
    return openSync(this.path(seq), 'a');
  }
}
