/**
 * npm run lessons -- [--seeds 1,2,3,4,5,6] [--lesson ID] [--backend cpu|dawn|webgpu] [--jobs N]
 *                    [--json] [--null] [--record [DIR]] [--from a.jsonl,…]
 *
 * Every variant of every lesson, run from its base with its settings and its evaluation contract
 * on several seeds — exactly what `npm run train -- --lesson ID --variant N --seed S` runs: the
 * CPU reference, the WGSL engine in Node through Dawn (--backend dawn: a GPU's Vulkan driver, or
 * SwiftShader), or the page's WebGPU engine in headless Chromium (--backend webgpu). Each run is
 * judged once at its lesson's verdict step: holds, fails or unclear, with its claim number's 90 %
 * interval (src/rl/claims.ts).
 *
 * Prints one row per run, then a table per variant: holds / fails / unclear counts, the median
 * width of the interval, the steps; each lesson's contrast by seed; and the runs of variants that
 * promise no wreck whose held-out accuracy (greedy, the contract's 256 prompts) fell by the one wreck
 * rule (claims.ts heldoutWreck: the whole 90 % interval of the change below −HELDOUT_WRECK). It reports; it does not decide a lesson's fate by a count (a claim is not
 * re-tuned on the seeds that judged it: docs). Exit 1 only where a run failed to run, where
 * --null finds a verdict that holds (η = 0: the same rollouts, no update, so nothing may hold), or
 * where --record finds no fresh seeds.
 *
 * --jobs N runs N runs at a time in child processes (a GPU machine's cores). --record [DIR] writes
 * the seeds table (per lesson: the contract's hash, the engine's real name, the seeds, per variant
 * the counts and every run's number and interval) into DIR/<lesson>.json (src/rl/records unless
 * given), replacing those lessons' old records: the record a lesson card quotes once the student
 * has predicted (src/rl/lessonRecords.ts). Only fresh seeds (1000 and up) may be recorded.
 * --probe 10,20,30 runs to the last step and judges at each (choosing verdict steps on seeds 1–6).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Backend } from '../src/model/backend.ts';
import { decodeCheckpoint } from '../src/model/checkpoint.ts';
import { baseCheckpointPath } from '../src/rl/bases.ts';
import { expectedOutcome, judgeContrast, OUTCOMES } from '../src/rl/contrast.ts';
import { classContrast } from '../src/class/pool.ts';
import { lessonQuestionVariants } from '../src/rl/lessons.ts';
import { existsSync } from 'node:fs';
import { LESSONS, lessonSettings } from '../src/rl/lessons.ts';
import { contractHash, lessonRun } from '../src/rl/lessonContract.ts';
import { runTraining, type RunSummary } from '../src/rl/run.ts';
import { defaultSettings } from '../src/rl/settings.ts';
import { HELDOUT_SIZE } from '../src/rl/evaluation.ts';
import { heldoutWreck, HELDOUT_WRECK, isWreck, truncateRun } from '../src/rl/claims.ts';
import { quantile, verdictFrom } from '../src/rl/interval.ts';
import type { LessonRecord } from '../src/rl/lessonRecords.ts';
import type { RunRecord } from '../src/rl/claims.ts';

/** Where --record writes (merging by lesson): the records the lesson cards quote (src/rl/lessonRecords.ts). */
const RECORDS_FILE = 'src/rl/records';

/** A lesson's record as its file keeps it: the header and each variant on a few lines, one line per run. */
export function recordText(r: LessonRecord): string {
  const { variants, ...head } = r;
  const variant = ({ runs, ...v }: LessonRecord['variants'][number]) => `  ${JSON.stringify(v).slice(0, -1)}, "runs": [\n${runs.map((x) => `   ${JSON.stringify(x)}`).join(',\n')}\n  ]}`;
  return `${JSON.stringify(head, null, 1).slice(0, -2)},\n "variants": [\n${variants.map(variant).join(',\n')}\n ]\n}\n`;
}

type BackendName = 'cpu' | 'dawn' | 'webgpu';

export interface LessonRun {
  lesson: string; variant: number; label: string; seed: number;
  verdict: 'holds' | 'fails' | 'unclear' | 'pending';
  value: number; interval: [number, number]; steps: number;
  sentence: string; evidence: Record<string, number>; measured: Record<string, number>; seconds: number;
  /** Held-out accuracy (greedy) at step 0 and at the verdict step, on the contract's 256 prompts. */
  greedy: { start: number; end: number };
  /** The 90 % interval of that change (paired by prompt), as the one wreck rule reads it; absent from rows of older JSONL. */
  wreck?: { lo: number; hi: number };
  engine: string;
  /** --probe: the verdict judged at each probe step of one longer run (choosing a verdict step on seeds 1–6). */
  probes?: { step: number; verdict: string; value: number; lo: number; hi: number }[];
}

/** A run's whole record as --dump wrote it (NaN was written as null). */
function readRecord(file: string): RunRecord {
  return JSON.parse(readFileSync(file, 'utf8'), (_k, v) => (v === null ? NaN : v)) as RunRecord;
}

/**
 * --from-dumps DIR: each run judged again on the whole record --dump wrote (exactly what the run
 * judged when it ended: runTraining judges that record), so a lesson's claims stated after the runs
 * were made are judged on them without running them again — and the record names the contract as it is now.
 */
function runFromDump(dir: string, id: string, variant: number, seed: number, engineName: string): LessonRun {
  const l = LESSONS.find((x) => x.id === id)!;
  const v = l.variants[variant];
  const record = readRecord(join(dir, `${id}.${variant}.${seed}.json`));
  const j = v.claim.judge(record);
  const c = record.evals.filter((e) => e.contract);
  const greedy = { start: c[0]?.heldout_accuracy ?? NaN, end: c.at(-1)?.heldout_accuracy ?? NaN };
  const w = heldoutWreck(truncateRun(record, j.step));
  return { lesson: id, variant, label: v.label, seed, verdict: j.state, value: j.number.value, interval: [j.number.lo, j.number.hi], steps: record.steps.length, sentence: j.sentence, evidence: j.evidence, measured: j.measured, seconds: NaN, greedy, engine: engineName, ...(w ? { wreck: { lo: w.lo, hi: w.hi } } : {}) };
}

/** Numbers back from JSON: a NaN was written as null. */
const numbers = (r: Record<string, number | null> | undefined): Record<string, number> => Object.fromEntries(Object.entries(r ?? {}).map(([k, v]) => [k, typeof v === 'number' ? v : NaN]));
const num = (x: unknown) => (typeof x === 'number' ? x : NaN);

/** The adapter Dawn found, once asked (one per process). */
const dawn: { adapter: string | null } = { adapter: null };
/** The engine's real name, as the record says it: the CPU reference, or Dawn with the adapter it found (SwiftShader says SwiftShader). */
async function engine(name: BackendName): Promise<string> {
  if (name === 'cpu') return 'CPU reference (Node)';
  if (name === 'dawn') {
    dawn.adapter ??= await (await import('./dawn.ts')).installDawn();
    return `WGSL engine, Dawn + Vulkan in Node: ${dawn.adapter}`;
  }
  return 'WGSL engine, WebGPU in headless Chromium';
}

/** One lesson variant on one seed, as the CLI runs it (its contract's evaluations, held-out greedy accuracy and pass@k, like the lab). */
export async function runLesson(id: string, variant: number, seed: number, o: { nullRun?: boolean; backend?: BackendName; probes?: number[]; dump?: string } = {}): Promise<LessonRun> {
  const lesson = LESSONS.find((l) => l.id === id)!;
  const v = lesson.variants[variant];
  const settings = { ...lessonSettings(lesson, defaultSettings(), variant), seed, ...(o.nullRun ? { learningRate: 0 } : {}) };
  const backend = o.backend ?? 'cpu';
  const name = await engine(backend);
  let s: RunSummary;
  if (backend === 'webgpu') {
    const { spawnSync } = await import('node:child_process');
    const args = ['run', '-s', 'train', '--', '--backend', 'webgpu', '--lesson', id, '--variant', String(variant), '--seed', String(seed), ...(o.nullRun ? ['--null'] : [])];
    const r = spawnSync('npm', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
    const line = r.stdout.trim().split('\n').reverse().find((l) => l.includes('"type":"summary"'));
    if (!line) throw new Error(`npm ${args.join(' ')} gave no summary: ${r.stderr.slice(-300)}`);
    s = JSON.parse(line) as RunSummary;
  } else {
    const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath(settings.task, settings.difficulty, settings.watchTask)!)));
    const { createBackend } = await import('../src/model/engines.ts');
    const be: Backend = await createBackend(backend === 'cpu' ? 'cpu' : 'webgpu', ck.config, { seed, weights: ck.weights });
    let summary: RunSummary | null = null;
    let record: RunRecord | null = null;
    const lr = lessonRun(id, variant);
    const probes = o.probes?.length ? o.probes : null;
    const steps = probes ? Math.max(...probes) : v.claim.steps;
    await runTraining(be, settings, {
      steps, emit: (r) => { if (r.type === 'summary') summary = r as unknown as RunSummary; }, evalSize: HELDOUT_SIZE, evalPassAtK: true,
      lesson: probes ? { ...lr, contract: { ...lr.contract, steps, probes } } : lr, onRecord: (r) => { record = r; },
    });
    be.dispose();
    s = summary!;
    // --dump DIR: the run's whole record (its steps and its evaluations, every prompt's result), so a
    // lesson's contrast verdict (rl/contrastVerdict.ts) can be judged on it later without running it again
    if (o.dump && record) writeFileSync(join(o.dump, `${id}.${variant}.${seed}.json`), JSON.stringify(record));
    if (probes) {
      const probed = probes.map((k) => { const j = v.claim.judge(record!, { steps: k }); return { step: k, verdict: j.state, value: j.number.value, lo: j.number.lo, hi: j.number.hi }; });
      const l = s.lesson!;
      return { lesson: id, variant, label: v.label, seed, verdict: l.verdict, value: num(l.value), interval: [num(l.interval?.[0]), num(l.interval?.[1])], steps: s.steps, sentence: l.sentence, evidence: numbers(l.evidence), measured: numbers(l.measured), seconds: s.seconds, greedy: { start: s.heldout_before, end: s.heldout_after }, ...wreckOf(l), engine: name, probes: probed };
    }
  }
  const l = s.lesson!;
  return {
    lesson: id, variant, label: v.label, seed, verdict: l.verdict, value: num(l.value), interval: [num(l.interval?.[0]), num(l.interval?.[1])], steps: s.steps,
    sentence: l.sentence, evidence: numbers(l.evidence), measured: numbers(l.measured ?? l.evidence), seconds: s.seconds,
    greedy: { start: s.heldout_before, end: s.heldout_after }, ...wreckOf(l), engine: name,
  };
}

/** The wreck interval a run's summary carries (none in a summary from before it did). */
const wreckOf = (l: NonNullable<RunSummary['lesson']>) => (l.wreck ? { wreck: { lo: num(l.wreck.lo), hi: num(l.wreck.hi) } } : {});

/**
 * The runs that wrecked the model by the one rule the verdict uses (claims.ts heldoutWreck: held-out
 * accuracy (greedy, the contract's 256 prompts, paired from step 0 to the verdict step) fell with
 * the whole 90 % interval below −HELDOUT_WRECK) in a variant whose claim does not promise a wreck
 * (Claim.promisesWreck): the verdict fails such a run, and the table names it. A control that loses
 * a third of its accuracy teaches the opposite of its lesson.
 */
export function unpromisedWrecks(runs: readonly (Pick<LessonRun, 'lesson' | 'variant' | 'seed' | 'wreck'> & { greedy: { start: number; end: number } })[]): string[] {
  return runs
    .filter((r) => !LESSONS.find((l) => l.id === r.lesson)?.variants[r.variant]?.claim.promisesWreck && r.wreck && isWreck(r.wreck.hi))
    .map((r) => `${r.lesson}#${r.variant} seed ${r.seed} (held-out accuracy (greedy) ${r.greedy.start.toFixed(2)} → ${r.greedy.end.toFixed(2)}, change ${r.wreck!.lo.toFixed(2)} to ${r.wreck!.hi.toFixed(2)})`);
}

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '–');

/** Per variant: the counts of each verdict, the median interval width, the steps (what a record keeps). */
export function variantTable(runs: readonly LessonRun[]): LessonRecord[] {
  const out: LessonRecord[] = [];
  for (const l of LESSONS) {
    const mine = runs.filter((r) => r.lesson === l.id);
    if (!mine.length) continue;
    const seeds = [...new Set(mine.map((r) => r.seed))].sort((a, b) => a - b);
    out.push({
      lesson: l.id, hash: contractHash(l), engine: mine[0].engine, seeds,
      variants: l.variants.map((v, i) => {
        const rs = mine.filter((r) => r.variant === i).sort((a, b) => a.seed - b.seed);
        const widths = rs.map((r) => r.interval[1] - r.interval[0]).filter(Number.isFinite).sort((a, b) => a - b);
        return {
          label: v.short ?? v.label, steps: v.claim.steps,
          holds: rs.filter((r) => r.verdict === 'holds').length, fails: rs.filter((r) => r.verdict === 'fails').length, unclear: rs.filter((r) => r.verdict === 'unclear').length,
          median_width: Number(quantile(widths, 0.5).toFixed(4)),
          runs: rs.map((r) => ({ seed: r.seed, verdict: r.verdict, value: Number(r.value.toFixed(4)), lo: Number(r.interval[0].toFixed(4)), hi: Number(r.interval[1].toFixed(4)) })),
        };
      }),
    });
  }
  return out;
}

/**
 * --from a.jsonl,b.jsonl: the runs an earlier `--json` wrote (one LessonRun a line), instead of
 * running them again: the tables and --record from runs already made. Each run's verdict is read
 * again against its claim as it is now (a run-level failure — the policy never moved, a wreck —
 * stays one), so a record always states the current thresholds; only the tasks asked for are kept.
 */
function readRuns(files: string[], tasks: string[]): LessonRun[] {
  const byTask = new Map<string, LessonRun>();
  for (const f of files) for (const line of readFileSync(f, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const r = JSON.parse(line, (_k, v) => (v === null ? NaN : v)) as LessonRun;
    byTask.set(`${r.lesson}:${r.variant}:${r.seed}`, r);
  }
  const missing = tasks.filter((t) => !byTask.has(t));
  if (missing.length) throw new Error(`--from: no run for ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}`);
  return tasks.map((t) => {
    const r = byTask.get(t)!;
    const c = LESSONS.find((l) => l.id === r.lesson)!.variants[r.variant].claim.number;
    const runLevel = r.verdict === 'fails' && /never moved|wrecked the model/.test(r.sentence);
    return { ...r, verdict: runLevel || r.verdict === 'pending' ? r.verdict : verdictFrom(r.interval, c.threshold, c.side) };
  });
}

/** Runs `tasks` `jobs` at a time, each in a child process of this script (`--one lesson:variant:seed`), in order of the tasks. */
async function inChildren(tasks: string[], jobs: number, extra: string[], stream: boolean): Promise<LessonRun[]> {
  const script = fileURLToPath(import.meta.url);
  const cmd = script.endsWith('.ts') ? ['npx', ['tsx', '--import', './scripts/wgsl-raw.mjs', script]] as const : [process.execPath, [script]] as const;
  const results: (LessonRun | null)[] = tasks.map(() => null);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await new Promise<LessonRun>((resolve, reject) => {
        const p = spawn(cmd[0], [...cmd[1], '--one', tasks[i], ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        p.stdout.on('data', (d) => { out += d; });
        p.on('close', (code) => {
          const line = out.trim().split('\n').find((x) => x.startsWith('{'));
          if (code !== 0 || !line) { reject(new Error(`${tasks[i]}: exit ${code}`)); return; }
          if (stream) process.stderr.write(`${line}\n`); // as each run ends: a run cut short keeps what finished
          resolve(JSON.parse(line, (_k, v) => (v === null ? NaN : v)) as LessonRun);
        });
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
  return results as LessonRun[];
}

async function main() {
  const args = process.argv.slice(2);
  const flag = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
  const nullRun = args.includes('--null');
  const backend = (flag('backend') ?? 'cpu') as BackendName;
  if (!['cpu', 'dawn', 'webgpu'].includes(backend)) throw new Error(`--backend must be cpu, dawn or webgpu, got ${backend}`);
  if (backend === 'dawn') (await import('./dawn.ts')).withDawnEnv();
  const probes = flag('probe')?.split(',').map(Number);
  const one = flag('one');
  const dump = flag('dump');
  if (one) {
    const [id, v, seed] = one.split(':');
    process.stdout.write(`${JSON.stringify(await runLesson(id, Number(v), Number(seed), { nullRun, backend, probes, dump }))}\n`);
    return;
  }
  const seeds = (flag('seeds') ?? '1,2,3,4,5,6').split(',').map(Number);
  const only = flag('lesson')?.split(',');
  const jobs = Number(flag('jobs') ?? 1);
  const record = args.includes('--record') ? (flag('record')?.startsWith('--') === false ? flag('record')! : RECORDS_FILE) : null;
  if (record && seeds.some((s) => s < 1000)) throw new Error('--record takes fresh seeds only (1000 and up): seeds 1–6 chose the claims, they cannot judge them');
  const tasks: string[] = [];
  const variants = flag('variants')?.split(',').map(Number); // --variants 0,1: only these (a lesson's question compares its first two)
  for (const l of LESSONS.filter((x) => !only || only.includes(x.id))) for (let v = 0; v < l.variants.length; v++) if (!variants || variants.includes(v)) for (const seed of seeds) tasks.push(`${l.id}:${v}:${seed}`);
  if (dump && args.includes('--resume')) tasks.splice(0, tasks.length, ...tasks.filter((t) => { const [id, v, seed] = t.split(':'); return !existsSync(join(dump, `${id}.${v}.${seed}.json`)); })); // --dump DIR --resume: only the runs not dumped yet
  const t0 = Date.now();
  const from = flag('from');
  const fromDumps = flag('from-dumps');
  const runs = fromDumps ? tasks.map((t) => { const [id, v, seed] = t.split(':'); return runFromDump(fromDumps, id, Number(v), Number(seed), flag('engine') ?? 'CPU reference (Node)'); })
    : from ? readRuns(from.split(','), tasks) : jobs > 1
    ? await inChildren(tasks, jobs, [...(nullRun ? ['--null'] : []), '--backend', backend, ...(probes ? ['--probe', probes.join(',')] : []), ...(dump ? ['--dump', dump] : [])], args.includes('--json'))
    : await tasks.reduce<Promise<LessonRun[]>>(async (acc, t) => { const [id, v, seed] = t.split(':'); return [...await acc, await runLesson(id, Number(v), Number(seed), { nullRun, backend, probes, dump })]; }, Promise.resolve([]));
  console.log(`engine: ${runs[0]?.engine}; ${runs.length} runs in ${((Date.now() - t0) / 1000).toFixed(0)} s${nullRun ? ' (η = 0: null runs)' : ''}\n`);
  console.log('| lesson | variant | seed | verdict | claim number [90 % interval] | held-out greedy (256) | s |\n|---|---|---|---|---|---|---|');
  for (const r of runs) {
    if (args.includes('--json') && jobs <= 1) process.stderr.write(`${JSON.stringify(r)}\n`);
    console.log(`| ${r.lesson} | ${r.variant}: ${r.label} | ${r.seed} | ${r.verdict} | ${f3(r.value)} [${f3(r.interval[0])}, ${f3(r.interval[1])}] | ${f2(r.greedy.start)} → ${f2(r.greedy.end)} | ${r.seconds.toFixed(0)} |`);
  }
  if (probes) {
    // choosing a verdict step (seeds 1–6 only): per variant and probe step, the verdicts and the numbers
    console.log('\n| lesson | variant | step | holds | fails | unclear | values [lo, hi] by seed |\n|---|---|---|---|---|---|---|');
    for (const l of LESSONS) for (let v = 0; v < l.variants.length; v++) {
      const rs = runs.filter((r) => r.lesson === l.id && r.variant === v);
      if (!rs.length) continue;
      for (const k of probes) {
        const at = rs.map((r) => r.probes!.find((p) => p.step === k)!);
        const n = (s: string) => at.filter((p) => p.verdict === s).length;
        console.log(`| ${l.id} | ${l.variants[v].short ?? l.variants[v].label} | ${k} | ${n('holds')} | ${n('fails')} | ${n('unclear')} | ${at.map((p) => `${f3(p.value)} [${f3(p.lo)}, ${f3(p.hi)}]`).join('; ')} |`);
      }
    }
  }
  const table = variantTable(runs);
  console.log('\n| lesson | variant | claim | steps | holds | fails | unclear | median interval width |\n|---|---|---|---|---|---|---|---|');
  for (const t of table) {
    const l = LESSONS.find((x) => x.id === t.lesson)!;
    t.variants.forEach((v, i) => {
      const c = l.variants[i].claim.number;
      console.log(`| ${t.lesson} | ${v.label} | ${c.what} ${c.side === 'above' ? '>' : '≤'} ${+c.threshold.toFixed(3)} | ${v.steps} | ${v.holds} | ${v.fails} | ${v.unclear} | ${f3(v.median_width)} |`);
    });
  }
  // each lesson's question, judged as a claim of its own (rl/contrast.ts): per seed the paired
  // difference with its interval, read from the runs' whole records (--dump / --from-dumps), and the
  // class across the seeds (the pool's rule, class/pool.ts)
  const dumps = flag('from-dumps') ?? dump;
  for (const l of LESSONS) {
    const q = lessonQuestionVariants(l);
    if (!l.contrast || !q || !runs.some((r) => r.lesson === l.id)) continue;
    const name = (v: number) => l.variants[v].short ?? l.variants[v].label;
    const rows: string[] = [];
    const diffs: number[] = [];
    for (const seed of seeds) {
      const file = (v: number) => (dumps ? join(dumps, `${l.id}.${v}.${seed}.json`) : '');
      if (!dumps || !existsSync(file(q.asked)) || !existsSync(file(q.against))) continue;
      const rec = (v: number) => ({ variant: v, claim: l.variants[v].claim, run: readRecord(file(v)) });
      const c = judgeContrast(l.contrast, rec(q.asked), rec(q.against), l.variants[q.asked].claim.steps);
      diffs.push(c.value);
      rows.push(`| ${l.id} | ${seed} | ${f3(c.askedValue)} | ${f3(c.againstValue)} | ${f3(c.value)} [${f3(c.lo)}, ${f3(c.hi)}] | ${c.outcome === null ? 'unclear' : OUTCOMES[c.outcome]} | ${c.state} |`);
    }
    if (!rows.length) continue;
    const cc = classContrast(diffs, l.contrast.margin, expectedOutcome(l.contrast, q.asked, q.against));
    console.log(`\n${l.id} contrast: ${l.contrast.what}, “${name(q.asked)}” − “${name(q.against)}”, margin ±${l.contrast.margin}\n| lesson | seed | ${name(q.asked)} | ${name(q.against)} | difference [90 % interval] | outcome | verdict |\n|---|---|---|---|---|---|---|\n${rows.join('\n')}`);
    console.log(`| ${l.id} | class of ${cc.n} | | | ${f3(cc.value)} [${f3(cc.lo)}, ${f3(cc.hi)}] (t) | ${cc.tooFew ? 'too few' : cc.outcome === null ? 'unclear' : OUTCOMES[cc.outcome]} | ${cc.state} |`);
  }
  const wrecks = unpromisedWrecks(runs);
  console.log(wrecks.length ? `held-out accuracy (greedy) fell, the whole 90 % interval below −${HELDOUT_WRECK}, where the claim promises no wreck: ${wrecks.join('; ')}` : `no run of a claim that promises no wreck lost held-out accuracy (greedy) with its whole 90 % interval below −${HELDOUT_WRECK}`);
  if (nullRun) {
    const held = runs.filter((r) => r.verdict === 'holds');
    console.log(`null runs (η = 0): ${runs.length - held.length} of ${runs.length} verdicts do not hold${held.length ? `; holding: ${held.map((r) => `${r.lesson}#${r.variant} seed ${r.seed}`).join(', ')}` : ''}`);
    if (held.length) process.exit(1);
    return;
  }
  if (record) {
    // one file per lesson: the lessons recorded now replace their old records; the others stay as they were
    const recorded = new Date().toISOString().slice(0, 10);
    for (const t of table) writeFileSync(join(record, `${t.lesson}.json`), recordText({ ...t, recorded }));
    console.log(`recorded ${table.length} lessons into ${record}/`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main().catch((e) => { console.error(e); process.exit(1); });
