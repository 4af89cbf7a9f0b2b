#!/usr/bin/env node
/**
 * `npm run bench:compare -- <git ref> [standalone|distributed]`: what the working tree changed in a
 * deployment's overhead against <ref>, measured so that the machine's drift cannot pass for it. On a
 * shared 2-core machine the floor itself moves by more than most changes within minutes, so two runs
 * of `npm run bench`, one per build, compare states of the machine as much as builds. Here both builds
 * run at once, each its own deployment in front of one simulator, and every round sends the same
 * request to direct, to the baseline and to this build, in a rotating order; each round's difference
 * (this build minus the baseline) is taken in the same moment.
 *
 * The baseline is checked out as a git worktree in $TMPDIR/unigate-bench-baseline/<commit> (outside
 * this tree, where no test run or type check would find it) and installed and built there once (npm
 * ci and the build: a few minutes the first time). Cases: the short non-streaming
 * request, the stream's first event, the coding agent's 60 KB prompt (BENCH_SEQUENTIAL,
 * BENCH_SEQUENTIAL_STREAM, BENCH_SEQUENTIAL_LARGE, BENCH_QUICK as for `npm run bench`). Prints a
 * table and writes bench/results/compare-<time>.json; it never touches docs/benchmark.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig, reportFailure, UsageError } from './config.mjs';
import { environment, loadavgNow, withHostCpu } from './environment.mjs';
import { log, stopAll, stopOnSignals } from './lifecycle.mjs';
import { sequentialCases } from './measure.mjs';
import { compareTable, pairedRounds } from './paired-rounds.mjs';
import { startDeploymentAt, startSimulator } from './targets.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEPLOYMENTS = ['standalone', 'distributed'];

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The baseline's checkout, installed and built (once per commit). */
function baselineCheckout(ref) {
  let commit;
  try {
    commit = run('git', ['rev-parse', '--verify', `${ref}^{commit}`], ROOT);
  } catch {
    throw new UsageError(`'${ref}' is not a commit of this repository`);
  }
  const dir = join(tmpdir(), 'unigate-bench-baseline', commit.slice(0, 12));
  const built = join(dir, '.bench-built');
  if (existsSync(built)) return { commit, dir };
  if (!existsSync(dir)) {
    log(`baseline ${commit.slice(0, 12)}: git worktree in ${dir}`);
    run('git', ['worktree', 'prune'], ROOT);
    run('git', ['worktree', 'add', '--force', '--detach', dir, commit], ROOT);
  }
  log(`baseline ${commit.slice(0, 12)}: npm ci and build (once per commit)`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(built, `${new Date().toISOString()}\n`);
  return { commit, dir };
}

async function main() {
  const [ref, deployment = 'distributed'] = process.argv.slice(2);
  if (!ref) throw new UsageError('usage: npm run bench:compare -- <git ref> [standalone|distributed]');
  if (!DEPLOYMENTS.includes(deployment)) throw new UsageError(`deployment must be one of ${DEPLOYMENTS.join(', ')}, got '${deployment}'`);
  const config = readConfig([]);
  stopOnSignals();
  const environmentNow = environment(ROOT);
  const baseline = baselineCheckout(ref);
  const sim = await startSimulator();
  log(`${deployment}: starting this build's and the baseline's`);
  // This build first: a stack started later has measured a little quicker here at times (an A/A run
  // of one commit against itself: docs/benchmark.md), and that should favour the baseline, not the change.
  const head = await startDeploymentAt(ROOT, deployment, sim.origin, config);
  const base = await startDeploymentAt(baseline.dir, deployment, sim.origin, config);
  const sides = [sim, { ...base, name: 'baseline' }, { ...head, name: 'current' }];
  const cases = {};
  // The bench's sequential cases but the idle one: a change to how a process wakes shows in the stream's.
  for (const [name, kase] of sequentialCases(config).filter(([name]) => name !== 'idle')) {
    log(`${deployment}: ${name}`);
    cases[name] = await withHostCpu(() => pairedRounds(sides, config, kase));
  }
  const result = {
    startedAt: new Date().toISOString(),
    deployment,
    environment: environmentNow,
    loadavgAtEnd: loadavgNow(),
    baseline: { ref, commit: baseline.commit },
    current: { commit: environmentNow.commit, dirty: environmentNow.dirty },
    config,
    cases,
  };
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `compare-${result.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\n${compareTable(result)}\n`);
  log(`results: ${relative(ROOT, path)}`);
}

main()
  .catch((err) => {
    reportFailure(err);
    process.exitCode = 1;
  })
  .finally(stopAll);
