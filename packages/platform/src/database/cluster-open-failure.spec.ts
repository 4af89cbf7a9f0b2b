import { clusterOpenFailure } from './embedded-postgres';

describe('clusterOpenFailure', () => {
  it('calls a cluster damaged only when the host is not to blame: a full disk or a refused write says what to fix', () => {
    const full = clusterOpenFailure('/data', ['PANIC: could not write to file "pg_wal/xlogtemp.42": No space left on device']);
    expect(full.message).toMatch(
      /^data directory \/data: the embedded database could not be opened: its disk is full \(Postgres: PANIC: .*No space left on device\)/,
    );
    expect(full.message).toMatch(/Nothing in it was changed\. Free some space and start again$/);
    expect(full.message).not.toMatch(/damaged|empty one|backup/);

    const denied = clusterOpenFailure('/data', ['FATAL: could not open file "global/pg_control": Permission denied']);
    expect(denied.message).toMatch(/its files cannot be written .*Give the gateway's user write access/);
    expect(denied.message).not.toMatch(/damaged|empty one/);

    const damaged = clusterOpenFailure('/data', ['PANIC: could not read file "global/pg_control": read 0 of 296']);
    expect(damaged.message).toMatch(/the embedded database there is damaged .*Restore the directory from a backup/);
  });
});
