import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLUSTER_MARKER, defaultTemplateDir, ensureTemplate } from './cluster-template';

/** A stand-in for initdb: a cluster of two files and a subdirectory, counted. */
function fakeInitdb(delayMs = 0) {
  const runs: string[] = [];
  const run = async (into: string) => {
    runs.push(into);
    await new Promise((done) => setTimeout(done, delayMs));
    mkdirSync(join(into, 'base', '1'), { recursive: true });
    writeFileSync(join(into, 'base', '1', 'pg_class'), 'rows');
    writeFileSync(join(into, 'postgresql.conf'), '# conf');
    writeFileSync(join(into, CLUSTER_MARKER), '17');
  };
  return { runs, run };
}

const clusterOf = (dir: string) => ({
  marker: readFileSync(join(dir, CLUSTER_MARKER), 'utf8'),
  table: readFileSync(join(dir, 'base', '1', 'pg_class'), 'utf8'),
});

/** A fresh temporary directory per test, for templates and data directories. */
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'unigate-template-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('ensureTemplate', () => {
  it('makes the template once, aside and then renamed, and leaves one that is there as it is', async () => {
    const template = join(root, 'cache', 'pglite-1.0.0');
    const initdb = fakeInitdb();
    await ensureTemplate(template, initdb.run);
    await ensureTemplate(template, initdb.run);
    expect(initdb.runs).toHaveLength(1);
    expect(initdb.runs[0]).not.toBe(template); // made aside, then renamed
    expect(clusterOf(template)).toEqual({ marker: '17', table: 'rows' });
    expect(readdirSync(root)).toEqual(['cache']);
    expect(readdirSync(join(root, 'cache'))).toEqual(['pglite-1.0.0']);
  });

  it('lets processes starting together each make one: the first wins, nothing is left aside', async () => {
    const template = join(root, 'cache', 'pglite-1.0.0');
    const initdb = fakeInitdb(30);
    await Promise.all([1, 2, 3].map(() => ensureTemplate(template, initdb.run)));
    expect(initdb.runs.length).toBeGreaterThan(1);
    expect(clusterOf(template)).toEqual({ marker: '17', table: 'rows' });
    expect(readdirSync(join(root, 'cache'))).toEqual(['pglite-1.0.0']);
  });

  it('leaves no template when initdb fails, and the next start tries again', async () => {
    const template = join(root, 'cache', 'pglite-1.0.0');
    const broken = async (into: string) => {
      writeFileSync(join(into, 'half'), '');
      throw new Error('initdb: out of memory');
    };
    await expect(ensureTemplate(template, broken)).rejects.toThrow('out of memory');
    expect(readdirSync(join(root, 'cache'))).toEqual([]);
    const initdb = fakeInitdb();
    await ensureTemplate(template, initdb.run);
    expect(clusterOf(template)).toEqual({ marker: '17', table: 'rows' });
  });
});

describe('defaultTemplateDir', () => {
  it('is node_modules/.cache/unigate/pglite-<version> for the installed PGlite', () => {
    const entry = require.resolve('@electric-sql/pglite');
    const dir = defaultTemplateDir(entry);
    const { version } = JSON.parse(readFileSync(join(entry, '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(dir).toBe(join(entry, '..', '..', '..', '..', '.cache', 'unigate', `pglite-${version}`));
    expect(dir.split('/').slice(-4)).toEqual(['node_modules', '.cache', 'unigate', `pglite-${version}`]);
  });
});
