/**
 * The embedded ledger's write-ahead journal: a group commit seals the open segment only once it is
 * big, so a quiet gateway does not open, close, list and delete a file per commit; sealed segments go
 * once a batch covering them committed, and whatever a killed process left is read back at the next
 * start.
 */
import fs from 'node:fs';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@unigate/platform';
import { LedgerJournal } from '../src/embedded/ledger-journal';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'unigate-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const row = (i: number) => ({ request_id: `req-${i}`, account_id: 'acc', cost_micros: i });
const files = () => readdirSync(dir).sort();

test('small batches share one open segment: sealing and committing them touches no file', () => {
  const journal = new LedgerJournal(dir, 1_000);
  for (let i = 0; i < 5; i++) {
    expect(journal.append(row(i))).toBe(1);
    const sealed = journal.seal();
    expect(sealed).toBe(0);
    journal.committed(sealed);
  }
  expect(files()).toEqual(['1.jsonl']);
  journal.close();
});

test('a segment past its size is sealed at the next commit and deleted once that batch committed', () => {
  const journal = new LedgerJournal(dir, 200);
  for (let i = 0; i < 10; i++) journal.append(row(i));
  const sealed = journal.seal();
  expect(sealed).toBe(1);
  journal.append(row(10));
  expect(files()).toEqual(['1.jsonl', '2.jsonl']);
  journal.committed(sealed);
  expect(files()).toEqual(['2.jsonl']);
  // The open segment is never deleted, whatever a caller says committed.
  journal.committed(Number.MAX_SAFE_INTEGER);
  expect(files()).toEqual(['2.jsonl']);
  journal.close();
});

test('a failed batch keeps its sealed segment until a later batch commits', () => {
  const journal = new LedgerJournal(dir, 100);
  for (let i = 0; i < 5; i++) journal.append(row(i));
  journal.seal(); // this batch fails: nobody calls committed(1)
  for (let i = 5; i < 10; i++) journal.append(row(i));
  const retry = journal.seal();
  expect(files()).toEqual(['1.jsonl', '2.jsonl', '3.jsonl']);
  journal.committed(retry);
  expect(files()).toEqual(['3.jsonl']);
  journal.close();
});

test('a killed process leaves its open segment: the next start reads every entry of it, sealed or not', () => {
  const first = new LedgerJournal(dir, 150);
  for (let i = 0; i < 6; i++) first.append(row(i));
  first.seal();
  for (let i = 6; i < 9; i++) first.append(row(i));
  // kill -9: no close, no commit.
  const next = new LedgerJournal(dir, 150);
  expect(next.leftovers().map((r) => (r as { request_id: string }).request_id)).toEqual(Array.from({ length: 9 }, (_, i) => `req-${i}`));
  next.committed(Number.MAX_SAFE_INTEGER - 1);
  expect(files()).toEqual(['3.jsonl']);
  first.close();
  next.close();
});

test('a short write (a full disk) fails its append and loses only its own line: the next append starts on a new one', () => {
  const journal = new LedgerJournal(dir, 1_000);
  const write = fs.writeSync;
  const firstTenBytes = (fd: number, bytes: unknown) => write(fd, (bytes as Buffer).subarray(0, 10));
  // The disk is full for two appends: only the first ten bytes of each reach the file.
  const short = jest.spyOn(fs, 'writeSync').mockImplementationOnce(firstTenBytes).mockImplementationOnce(firstTenBytes);
  // The line is not crash-safe: the append fails, as when the write throws.
  expect(() => journal.append(row(1))).toThrow(/short write \(10 of \d+ bytes\)/);
  expect(() => journal.append(row(2))).toThrow(/short write/);
  short.mockRestore();
  journal.append(row(3));
  journal.append(row(4));
  const next = new LedgerJournal(dir, 1_000);
  expect(next.leftovers().map((r) => (r as { request_id: string }).request_id)).toEqual(['req-3', 'req-4']);
  journal.close();
  next.close();
});

test('an unreadable line among readable ones is skipped with a warning naming the segment and line; a torn last line stays quiet', () => {
  const logged: Array<Record<string, unknown>> = [];
  const logger = createLogger('journal-test', 'debug', { write: (line: string) => void logged.push(JSON.parse(line)) });
  const line = (i: number) => JSON.stringify(row(i));
  // Damage: two garbled lines with readable ones after them, then a last line torn by a crash.
  writeFileSync(
    join(dir, '1.jsonl'),
    [line(1), '{"request_id":"req-2","account_id":"acc-hidden', line(3), '\0\0\0\0', line(4), '{"request_id":"req-5'].join('\n'),
  );
  // A crash alone: only the last line torn.
  writeFileSync(join(dir, '2.jsonl'), `${line(6)}\n{"request_id":"req-7`);
  const journal = new LedgerJournal(dir, 1_000, logger);
  expect(journal.leftovers().map((r) => (r as { request_id: string }).request_id)).toEqual(['req-1', 'req-3', 'req-4', 'req-6']);
  journal.close();
  const warnings = logged.filter((l) => l.level === 'warn');
  expect(warnings).toEqual([expect.objectContaining({ segment: join(dir, '1.jsonl'), line: 2, skipped: 2 })]);
  // A short prefix at most: the line's ids stay out of the log.
  expect((warnings[0].prefix as string).length).toBeLessThanOrEqual(16);
  expect(JSON.stringify(logged)).not.toMatch(/acc-hidden|req-2|req-5|req-7/);
});

test('a directory named like a segment stops the start with a message naming it, not a bare EISDIR later', () => {
  new LedgerJournal(dir, 1_000).close();
  mkdirSync(join(dir, '2.jsonl'));
  expect(() => new LedgerJournal(dir, 1_000)).toThrow(
    `ledger journal ${dir}: ${join(dir, '2.jsonl')} is a directory, where a journal segment (a file of JSON lines) was expected`,
  );
});
