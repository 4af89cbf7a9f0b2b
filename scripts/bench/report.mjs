/**
 * What a run found: the overheads (gateway minus direct, from the paired sequential runs) and the
 * ratios against Portkey, as markdown tables for the terminal and docs/benchmark.md, and everything as
 * JSON under bench/results/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { meanRatioInterval, overhead } from './stats.mjs';

// Everything measured paired with direct calls: the floor proxy and the gateways.
const GATEWAYS = ['proxy', 'standalone', 'distributed', 'portkey'];
const DOCS_START = '<!-- bench:latest -->';
const DOCS_END = '<!-- /bench:latest -->';

/** What each gateway adds to the floor, per case (microseconds). */
function overheadsOf(result) {
  const s = result?.sequential;
  if (!s?.json?.direct || !s?.stream?.direct) return undefined;
  return {
    json: overhead(s.json.target.total, s.json.direct.total),
    streamFirstByte: overhead(s.stream.target.firstByte, s.stream.direct.firstByte),
    streamTotal: overhead(s.stream.target.total, s.stream.direct.total),
    // Results written before the large case existed have none.
    ...(s.large?.direct && { large: overhead(s.large.target.total, s.large.direct.total) }),
    ...(s.idle?.direct && { idle: overhead(s.idle.target.total, s.idle.direct.total) }),
  };
}

/** `versus`: the head-to-head throughput of standalone and Portkey (head-to-head.mjs), when measured. */
export function summarizeRun(targets, versus) {
  const overheads = Object.fromEntries(GATEWAYS.filter((g) => overheadsOf(targets[g])).map((g) => [g, overheadsOf(targets[g])]));
  const peer = targets.portkey;
  const vsPortkey = {};
  for (const name of ['standalone', 'distributed']) {
    const ours = targets[name];
    if (!overheads[name] || !overheads.portkey || !ours?.throughput || !peer?.throughput) continue;
    vsPortkey[name] = {
      // Below 1: adds less than Portkey does. Above 1: more.
      overheadJsonP50: overheads[name].json.p50 / overheads.portkey.json.p50,
      overheadFirstByteP50: overheads[name].streamFirstByte.p50 / overheads.portkey.streamFirstByte.p50,
      overheadStreamTotalP50: overheads[name].streamTotal.p50 / overheads.portkey.streamTotal.p50,
      overheadLargeP50: (overheads[name].large?.p50 ?? NaN) / (overheads.portkey.large?.p50 ?? NaN),
      // Above 1: serves more requests per second than Portkey.
      rpsJson: ours.throughput.json.rps / peer.throughput.json.rps,
      rpsStream: ours.throughput.stream.rps / peer.throughput.stream.rps,
    };
  }
  // What each Unigate deployment adds beyond its hops' floor, measured in the same run: standalone is one
  // hop (the floor proxy's overhead), distributed two (edge, then the service: twice the proxy's p50;
  // the tails of two hops do not add up, so it gets no p99).
  const aboveFloor = {};
  const floor = overheads.proxy;
  for (const [name, hops] of [
    ['standalone', 1],
    ['distributed', 2],
  ]) {
    const o = overheads[name];
    if (!o || !floor) continue;
    aboveFloor[name] = Object.fromEntries(
      ['json', 'streamFirstByte'].map((kase) => [
        kase,
        { p50: o[kase].p50 - hops * floor[kase].p50, p99: hops === 1 ? o[kase].p99 - floor[kase].p99 : NaN },
      ]),
    );
  }
  return { overheads, vsPortkey, aboveFloor, targets: judgeTargets(targets, overheads, vsPortkey, versus) };
}

/**
 * The hot path's targets (docs/benchmark.md), each { name, goal, max | min, unit, measure }: `measure`
 * gives this run's { value, interval? } (µs for latencies, unit 'ms' as printed), or undefined when the
 * run lacks what it needs. The throughput ratio is the head-to-head one when the run has it (both
 * gateways measured in the same minutes); otherwise, as in results written before it, the ratio of the
 * two targets' own throughput runs.
 */
const TARGETS = [
  { name: 'standalone overhead p50', goal: '≤ 0.5 ms', max: 500, unit: 'ms', measure: ({ o }) => latency(o.standalone?.json, 'p50') },
  { name: 'standalone overhead p99', goal: '≤ 2 ms', max: 2000, unit: 'ms', measure: ({ o }) => latency(o.standalone?.json, 'p99') },
  {
    name: 'standalone req/s, non-streaming',
    goal: "≥ 2× Portkey's",
    min: 2,
    unit: '×',
    measure: ({ vs, versus }) =>
      versus?.ratio
        ? { value: versus.ratio.median, interval: { low: versus.ratio.low, high: versus.ratio.high } }
        : vs.standalone && { value: vs.standalone.rpsJson },
  },
  {
    name: 'standalone no decay (last / first window)',
    goal: '≥ 0.9×',
    min: 0.9,
    unit: '×',
    measure: ({ t }) => {
      const w = t.standalone?.decay?.windows;
      if (!w?.length) return undefined;
      const value = w[w.length - 1].rps / w[0].rps;
      // One window's rate against another's moves by ±5 % on shared cores with no trend at all: the
      // verdict takes the seconds of both windows (results written before they were kept have none).
      const ratio = w[0].perSecond && meanRatioInterval(w[w.length - 1].perSecond, w[0].perSecond);
      return { value, ...(ratio && ratio.low !== null && { interval: { low: ratio.low, high: ratio.high } }) };
    },
  },
  { name: 'distributed overhead p50', goal: '≤ 1.5 ms', max: 1500, unit: 'ms', measure: ({ o }) => latency(o.distributed?.json, 'p50') },
  {
    name: 'distributed stream first-byte overhead p50',
    goal: '≤ 2 ms',
    max: 2000,
    unit: 'ms',
    measure: ({ o }) => latency(o.distributed?.streamFirstByte, 'p50'),
  },
  {
    name: 'distributed RSS, largest service',
    goal: '≤ 150 MiB',
    max: 150,
    unit: 'MiB',
    measure: ({ t }) => {
      const rss = t.distributed?.rss;
      return rss?.length ? { value: Math.max(...rss.map((p) => p.maxMiB)) } : undefined;
    },
  },
];

const latency = (o, p) => o && { value: o[p], ...(o[`${p}Interval`] && { interval: o[`${p}Interval`] }) };

/**
 * Each target judged on this run: met when its 95 % interval lies within the goal, missed when it lies
 * beyond, undecided when it spans the goal (this run cannot tell: on shared cores a tail percentile of a
 * few thousand requests often cannot). Figures without an interval (RSS; a decay from results that kept
 * no seconds) are judged on their value.
 */
export function judgeTargets(targets, overheads, vsPortkey, versus) {
  const judged = [];
  for (const target of TARGETS) {
    const m = target.measure({ t: targets, o: overheads, vs: vsPortkey, versus });
    if (!m || !Number.isFinite(m.value)) continue;
    const within = (x) => (target.max !== undefined ? x <= target.max : x >= target.min);
    // For a ceiling the interval's high end is its worst case and its low end its best; for a floor the reverse.
    const [best, worst] = target.max !== undefined ? [m.interval?.low, m.interval?.high] : [m.interval?.high, m.interval?.low];
    let verdict;
    if (!m.interval) verdict = within(m.value) ? 'met' : 'missed';
    else if (worst !== null && within(worst)) verdict = 'met';
    else if (best !== null && !within(best)) verdict = 'missed';
    else verdict = 'undecided';
    judged.push({ name: target.name, goal: target.goal, unit: target.unit, value: m.value, interval: m.interval, verdict });
  }
  return judged;
}

const ms = (us) => (Number.isFinite(us) ? (us / 1000).toFixed(3) : '—');
const plusMs = (us) => (Number.isFinite(us) ? `${us >= 0 ? '+' : ''}${(us / 1000).toFixed(3)}` : '—');
const times = (ratio) => (Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '—');
const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');

/** A markdown table whose first `textColumns` columns are left-aligned, the numbers right-aligned. */
function table(header, rows, textColumns = 1) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map((_, i) => (i < textColumns ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

/**
 * A row of a non-streaming sequential table: the target's times of complete answers, its overhead, the
 * `extra` columns, then what the gateway reported of its own overhead (`x-unigate-overhead-ms`) at p50
 * and p99: set against the overhead p99, how much of the slow requests' time the gateway itself spent.
 */
function answerRow(name, side, overhead, ...extra) {
  return [
    name,
    int(side.total.n),
    ms(side.total.p50),
    ms(side.total.p99),
    plusMs(overhead?.p50),
    plusMs(overhead?.p99),
    ...extra,
    side.reported ? ms(side.reported.p50) : '—',
    side.reported ? ms(side.reported.p99) : '—',
  ];
}

function sequentialTables(run) {
  const json = [];
  const stream = [];
  const large = [];
  const idle = [];
  for (const [name, t] of Object.entries(run.targets)) {
    if (!t.sequential) continue;
    const o = run.summary.overheads[name];
    json.push(answerRow(name, t.sequential.json.target, o?.json));
    // Results written before these cases existed have none.
    if (t.sequential.large) large.push(answerRow(name, t.sequential.large.target, o?.large));
    if (t.sequential.idle) idle.push(answerRow(name, t.sequential.idle.target, o?.idle, plusMs(o?.idle && o.idle.p50 - o.json.p50)));
    const f = t.sequential.stream.target.firstByte;
    const s = t.sequential.stream.target.total;
    stream.push([
      name,
      int(s.n),
      ms(f.p50),
      ms(f.p99),
      plusMs(o?.streamFirstByte.p50),
      plusMs(o?.streamFirstByte.p99),
      ms(s.p50),
      ms(s.p99),
      plusMs(o?.streamTotal.p50),
      plusMs(o?.streamTotal.p99),
    ]);
  }
  return [
    "**Sequential, non-streaming** (ms; one connection, one request at a time; overhead = target − direct, the direct calls interleaved with the target's in the same run)",
    '',
    table(['target', 'requests', 'p50', 'p99', 'overhead p50', 'overhead p99', 'x-unigate-overhead-ms p50', 'p99'], json),
    '',
    '**Sequential, streaming** (ms; first byte = first SSE event)',
    '',
    table(
      ['target', 'requests', 'first byte p50', 'p99', 'overhead p50', 'overhead p99', 'total p50', 'p99', 'overhead p50', 'overhead p99'],
      stream,
    ),
    ...(large.length > 0
      ? [
          '',
          "**Sequential, a coding agent's prompt** (ms; non-streaming, 41 messages, ~60 KB: `largeConversation` in scripts/bench/requests.mjs)",
          '',
          table(['target', 'requests', 'p50', 'p99', 'overhead p50', 'overhead p99', 'x-unigate-overhead-ms p50', 'p99'], large),
        ]
      : []),
    ...(idle.length > 0
      ? [
          '',
          '**Sequential, after 50 ms idle** (ms; the non-streaming request, each after the idle time a request of the streaming case follows; "cost of idle" = its overhead p50 minus the back-to-back one\'s)',
          '',
          table(
            ['target', 'requests', 'p50', 'p99', 'overhead p50', 'overhead p99', 'cost of idle p50', 'x-unigate-overhead-ms p50', 'p99'],
            idle,
          ),
        ]
      : []),
  ];
}

function throughputTable(run) {
  const rows = [];
  for (const [name, t] of Object.entries(run.targets)) {
    for (const [kase, r] of Object.entries(t.throughput ?? {})) {
      rows.push([
        name,
        kase === 'json' ? 'non-streaming' : 'streaming',
        int(r.rps),
        ms(r.latency.p50),
        ms(r.latency.p99),
        int(r.non2xx),
        int(r.errors),
      ]);
    }
  }
  const c = run.config;
  return [
    `**Max throughput** (${c.connections} connections, ${c.durationSeconds} s per case after ${c.warmupSeconds} s of warm-up; latency of complete answers, ms)`,
    '',
    table(['target', 'case', 'req/s', 'p50', 'p99', 'non-2xx', 'errors'], rows, 2),
  ];
}

function headToHeadTable(run) {
  const h = run.headToHead;
  if (!h) return [];
  if (h.error) return [`**Throughput head to head not measured:** ${h.error}`, ''];
  const c = run.config.headToHead;
  // Results of the first runs name no first gateway: it alternated from the first.
  const rows = h.rounds.map((r, i) => [String(i + 1), r.first ?? (i % 2 === 0 ? h.a : h.b), int(r[h.a]), int(r[h.b]), times(r.ratio)]);
  const warmup = h.warmupRounds ? `, after ${h.warmupRounds} uncounted,` : '';
  return [
    `**Throughput head to head** (non-streaming, ${run.config.connections} connections; ${h.a} and ${h.b} both running, loaded in turn: ${h.rounds.length} rounds${warmup} of a ${h.sliceSeconds} s slice each, the first of its ${c?.windows ?? '—'} windows dropped as warm-up; req/s)`,
    '',
    table(['round', 'first', h.a, h.b, 'ratio'], rows, 2),
    '',
    h.ratio.low === null
      ? `Ratio ${h.a} / ${h.b}: median ${times(h.ratio.median)}; too few rounds for a 95 % interval (the sign test needs six).`
      : `Ratio ${h.a} / ${h.b}: median ${times(h.ratio.median)}, 95 % interval ${times(h.ratio.low)} … ${times(h.ratio.high)} (sign test over the rounds).`,
    '',
  ];
}

/**
 * A window's CPU per answer (µs) of the target's own processes together, or of the simulator's
 * (`simulator` true); undefined when a window has no reading (results written before they were kept).
 */
function windowCpu(decay, window, simulator) {
  const perProcess = window.cpuUsPerRequest;
  if (!perProcess) return undefined;
  const ofSimulator = new Set(decay.simulatorProcesses ?? []);
  const values = Object.entries(perProcess)
    .filter(([name]) => ofSimulator.has(name) === simulator)
    .map(([, us]) => us);
  return values.length === 0 || values.some((us) => us === undefined) ? undefined : values.reduce((a, b) => a + b, 0);
}

/** "first → last (ratio)" of a figure per window, or — without both. */
function firstToLast(first, last) {
  return first === undefined || last === undefined ? '—' : `${int(first)} → ${int(last)} (${times(last / first)})`;
}

function decayTable(run) {
  const rows = Object.entries(run.targets)
    .filter(([, t]) => t.decay)
    .map(([name, t]) => {
      const w = t.decay.windows;
      const [first, last] = [w[0], w[w.length - 1]];
      return [
        name,
        w.map((x) => int(x.rps)).join(' · '),
        times(last.rps / first.rps),
        firstToLast(windowCpu(t.decay, first, false), windowCpu(t.decay, last, false)),
        firstToLast(windowCpu(t.decay, first, true), windowCpu(t.decay, last, true)),
      ];
    });
  // Only gateways have a no-decay run (not the simulator or the floor proxy).
  if (rows.length === 0) return [];
  const c = run.config;
  return [
    `**No decay** (non-streaming, ${c.connections} connections, ${c.decay.seconds} s from a fresh start, req/s per ${c.decay.seconds / c.decay.windows} s window; CPU per answer in µs, first window → last: the target's processes together, and the simulator's, whose work per request never changes — a gateway that degrades spends more per answer while the simulator does not; a host that slows down moves both alike)`,
    '',
    table(['target', 'req/s per window', 'last / first', 'CPU per answer', "simulator's CPU per answer"], rows),
  ];
}

function rssTable(run) {
  const rows = [];
  for (const [name, t] of Object.entries(run.targets)) {
    for (const p of t.rss ?? []) rows.push([name, p.name, int(p.maxMiB), int(p.endMiB)]);
  }
  return [
    '**Memory** (VmRSS in MiB while measured: the maximum, and at the end of the last load run)',
    '',
    table(['target', 'process', 'max', 'end'], rows, 2),
  ];
}

function targetsTable(run) {
  const judged = run.summary.targets ?? [];
  if (judged.length === 0) return [];
  const rows = judged.map((j) => {
    const format = { ms: plusMs, '×': times, MiB: (x) => `${int(x)} MiB` }[j.unit];
    // A side without a bound (too few samples for an extreme percentile) is open.
    const interval = j.interval
      ? `${j.interval.low === null ? '−∞' : format(j.interval.low)} … ${j.interval.high === null ? '+∞' : format(j.interval.high)}`
      : '—';
    return [j.name, j.goal, format(j.value), interval, j.verdict];
  });
  return [
    "**Targets** (this run's figure and its 95 % interval: for an overhead, each side's percentile bounded by its order statistics, the two combined so that the difference holds at ≥ 95 % whatever their dependence; for the throughput ratio, the sign test's over the head-to-head rounds; met = the whole interval within the goal, missed = all of it beyond, undecided = it spans the goal)",
    '',
    table(['target', 'goal', 'this run', '95 % interval', 'verdict'], rows, 2),
    '',
  ];
}

function floorTable(run) {
  const rows = Object.entries(run.summary.aboveFloor ?? {}).map(([name, a]) => [
    name,
    plusMs(a.json.p50),
    plusMs(a.json.p99),
    plusMs(a.streamFirstByte.p50),
    plusMs(a.streamFirstByte.p99),
  ]);
  if (rows.length === 0) return [];
  return [
    "**Above the floor** (ms; what Unigate adds beyond its hops' floor in this run: standalone's overhead minus the floor proxy's, distributed's minus twice the proxy's p50)",
    '',
    table(['target', 'non-streaming p50', 'p99', 'stream first byte p50', 'p99'], rows),
    '',
  ];
}

function portkeyTable(run) {
  const rows = Object.entries(run.summary.vsPortkey).map(([name, r]) => {
    const o = run.summary.overheads[name];
    const t = run.targets[name].throughput;
    return [
      name,
      `${plusMs(o.json.p50)} (${times(r.overheadJsonP50)})`,
      `${plusMs(o.streamFirstByte.p50)} (${times(r.overheadFirstByteP50)})`,
      `${plusMs(o.streamTotal.p50)} (${times(r.overheadStreamTotalP50)})`,
      `${plusMs(o.large?.p50)} (${times(r.overheadLargeP50)})`,
      `${int(t.json.rps)} (${times(r.rpsJson)})`,
      `${int(t.stream.rps)} (${times(r.rpsStream)})`,
    ];
  });
  if (rows.length === 0) return [];
  return [
    "**Against Portkey** (overhead p50 in ms and as a multiple of Portkey's: below 1× adds less; req/s as a multiple of Portkey's: above 1× serves more, each target's rate from its own throughput run, minutes apart from Portkey's; the head-to-head table compares the same minutes)",
    '',
    table(
      [
        'target',
        'overhead non-streaming',
        'overhead stream first byte',
        'overhead stream total',
        'overhead 60 KB prompt',
        'req/s non-streaming',
        'req/s streaming',
      ],
      rows,
    ),
  ];
}

/** How the host's CPUs were used while each target was measured (older results have no such figures). */
function hostCpuLine(run) {
  const measured = Object.entries(run.targets).filter(([, t]) => t.hostCpu);
  if (measured.length === 0) return [];
  const each = measured.map(([name, t]) => `${name} ${t.hostCpu.steal} % steal, ${t.hostCpu.busy} % busy`).join('; ');
  return [
    `- Host CPU while each target was measured (steal: time the hypervisor gave other guests, which slows every figure of that target; busy: all work here, the bench's included): ${each}.`,
  ];
}

export function markdown(run, resultsPath) {
  const e = run.environment;
  const failed = Object.entries(run.targets).filter(([, t]) => t.error);
  return [
    `- Run of ${run.startedAt.slice(0, 10)} (${run.durationSeconds} s), commit ${e.commit}${e.dirty ? ' with uncommitted changes' : ''}, model \`${run.config.model}\`, max_tokens ${run.config.maxTokens}${run.config.quick ? ', BENCH_QUICK' : ''}.`,
    `- Machine: ${e.cpus} cores (${e.cpuModel}) shared with other work, ${e.memGiB} GiB, Node ${e.node}; load average ${e.loadavgAtStart[0]} at the start, ${run.loadavgAtEnd[0]} at the end.`,
    ...hostCpuLine(run),
    `- Full results: \`${resultsPath}\`.`,
    '',
    ...targetsTable(run),
    ...sequentialTables(run),
    '',
    ...throughputTable(run),
    '',
    ...headToHeadTable(run),
    ...decayTable(run),
    '',
    ...rssTable(run),
    '',
    ...floorTable(run),
    ...portkeyTable(run),
    ...failed.map(([name, t]) => `\n**${name} not measured:** ${t.error}`),
  ].join('\n');
}

/**
 * Writes <timestamp>.json in `dir` (default bench/results); returns its path, relative to the
 * repository when it lies inside it.
 */
export function writeResults(root, run, dir = join(root, 'bench', 'results')) {
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, `${run.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);
  const inside = relative(root, file);
  return inside.startsWith('..') || isAbsolute(inside) ? file : inside;
}

/** Replaces the latest-numbers section of docs/benchmark.md (between its two markers), Prettier-formatted. */
export async function updateDocs(root, text) {
  const file = join(root, 'docs', 'benchmark.md');
  const doc = readFileSync(file, 'utf8');
  const start = doc.indexOf(DOCS_START);
  const end = doc.indexOf(DOCS_END);
  if (start < 0 || end < start) throw new Error(`docs/benchmark.md has no ${DOCS_START} … ${DOCS_END} section to replace`);
  const updated = `${doc.slice(0, start + DOCS_START.length)}\n${text}\n${doc.slice(end)}`;
  // Loaded here, only for --docs: prettier's CommonJS entry imports its ES modules dynamically, which
  // a jest spec of this module could not load.
  const { default: prettier } = await import('prettier');
  const options = { ...(await prettier.resolveConfig(file)), filepath: file };
  writeFileSync(file, await prettier.format(updated, options));
}
