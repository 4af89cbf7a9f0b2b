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
import { readConfig } from './config.mjs';
import { environment, loadavgNow, withHostCpu } from './environment.mjs';
import { log, stopAll, stopOnSignals } from './lifecycle.mjs';
import { sequentialCases } from './measure.mjs';
import { chatBody } from './requests.mjs';
import { client } from './sequential.mjs';
import { medianWithInterval, summarize } from './stats.mjs';
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
    throw new Error(`'${ref}' is not a commit of this repository`);
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

/** `count` rounds of one case (after `warmup` unrecorded ones): each sends the request to all three sides. */
async function rounds(sides, config, kase) {
  const body = Buffer.from(chatBody(config, kase.stream, kase.large));
  const clients = sides.map((side) => client(side, body));
  // The six orders of three: each side goes first, second and last equally often.
  const orders = [
    [0, 1, 2],
    [2, 0, 1],
    [1, 2, 0],
    [0, 2, 1],
    [1, 0, 2],
    [2, 1, 0],
  ];
  const samples = sides.map(() => []);
  try {
    // Three requests a round: three times a single target's time limit.
    const deadline = performance.now() + config.sequential.maxSeconds * 1000 * 3;
    for (let i = 0; i < config.sequential.warmup + kase.count; i++) {
      if (i >= config.sequential.warmup && performance.now() > deadline) break;
      const times = [];
      for (const s of orders[i % orders.length]) {
        const r = await clients[s].send();
        if (r.status !== 200) throw new Error(`${sides[s].name}: HTTP ${r.status}`);
        times[s] = kase.stream ? r.firstByteUs : r.totalUs;
      }
      if (i >= config.sequential.warmup) times.forEach((t, s) => samples[s].push(t));
    }
  } finally {
    for (const c of clients) c.close();
  }
  const [direct, base, head] = samples;
  const overhead = (own) => {
    const { p50, p99 } = summarize(own.map((t, i) => t - direct[i]));
    return { p50, p99 };
  };
  return {
    rounds: direct.length,
    direct: summarize(direct),
    baseline: { ...summarize(base), overhead: overhead(base) },
    current: { ...summarize(head), overhead: overhead(head) },
    difference: medianWithInterval(head.map((t, i) => t - base[i])),
  };
}

function markdown(result) {
  const ms = (us) => (us / 1000).toFixed(3);
  const signed = (us) => `${us >= 0 ? '+' : '−'}${ms(Math.abs(us))}`;
  const lines = [
    `- ${result.deployment}: this build (${result.current.commit}${result.current.dirty ? ', uncommitted changes' : ''}) against ${result.baseline.commit.slice(0, 12)}, both running at once; ${result.environment.cpus} cores (${result.environment.cpuModel}), load average ${result.environment.loadavgAtStart.join(' ')} at the start, ${result.loadavgAtEnd.join(' ')} at the end.`,
    '',
    '| case | rounds | direct p50 | baseline overhead p50 | this build overhead p50 | this − baseline, per round: median | 95 % interval | host steal / busy |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
  ];
  for (const [name, c] of Object.entries(result.cases)) {
    const d = c.difference;
    lines.push(
      `| ${name} | ${c.rounds} | ${ms(c.direct.p50)} | ${signed(c.baseline.overhead.p50)} | ${signed(c.current.overhead.p50)} | ${signed(d.median)} | ${d.low === null ? 'none (fewer than six rounds)' : `${signed(d.low)} … ${signed(d.high)}`} | ${c.hostCpu ? `${c.hostCpu.steal} % / ${c.hostCpu.busy} %` : '—'} |`,
    );
  }
  lines.push('', '(ms; streams: time to the first event; an interval that holds 0 is no measured difference)');
  return lines.join('\n');
}

async function main() {
  const [ref, deployment = 'distributed'] = process.argv.slice(2);
  if (!ref) throw new Error('usage: npm run bench:compare -- <git ref> [standalone|distributed]');
  if (!DEPLOYMENTS.includes(deployment)) throw new Error(`deployment must be one of ${DEPLOYMENTS.join(', ')}, got '${deployment}'`);
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
    cases[name] = await withHostCpu(() => rounds(sides, config, kase));
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
  console.log(`\n${markdown(result)}\n`);
  log(`results: ${relative(ROOT, path)}`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(stopAll);
