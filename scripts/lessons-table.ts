/**
 * npm run lessons -- [--seeds 2,3,4,5,6] [--lesson ID] [--json] [--null] [--backend webgpu]
 *
 * Every variant of every lesson, run from its base with its settings on several seeds (the
 * CPU reference, or with --backend webgpu the page's WebGPU engine in headless Chromium — exactly
 * what `npm run train -- --lesson ID --variant N --seed S [--backend webgpu]` runs), with
 * the claim's verdict and evidence per run. Prints a markdown table (and with --json one JSON
 * line per run). Exit 1 if any variant holds on fewer than 4 of 5 seeds (or the same share of
 * the seeds given) — the promise a lesson makes to a teacher — or if a promised contrast across
 * its variants (Lesson.contrast.promised, src/rl/contrast.ts: lessons 1, 2, 3, 4, 6, 8 and 10, each
 * promised where five recorded seeds showed it, src/rl/contrastSeeds.ts) shows on fewer than 4 of 5,
 * same seed; the other lessons' contrasts are reported. Exit 1 too if any run of a
 * variant whose text promises no wreck (LessonVariant.promisesWreck unset) ends with held-out accuracy
 * (greedy, read on WRECK_HELDOUT_SIZE = 512 held-out prompts at the start and the end of the run) more than
 * UNPROMISED_WRECK (0.15) below where it started, on any seed. With --null every variant runs with
 * η = 0 (the same rollouts, no update) and the exit is 1 if any verdict holds.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Backend } from '../src/model/backend.ts';
import { decodeCheckpoint } from '../src/model/checkpoint.ts';
import { ReferenceBackend } from '../src/model/reference/backend.ts';
import { baseCheckpointPath } from '../src/rl/bases.ts';
import { contrastBySeed, enough } from '../src/rl/contrast.ts';
import { LESSONS, lessonSettings } from '../src/rl/lessons.ts';
import { runTraining, type RunSummary } from '../src/rl/run.ts';
import { defaultSettings } from '../src/rl/settings.ts';
import { evaluatePolicy, HELDOUT_SIZE } from '../src/rl/evaluation.ts';
import { taskDifficulty } from '../src/rl/rollout.ts';
import type { Settings } from '../src/rl/settings.ts';
import { UNPROMISED_WRECK } from '../src/rl/claims.ts';

export interface LessonRun { lesson: string; variant: number; label: string; seed: number; holds: boolean; sentence: string; evidence: Record<string, number>; measured: Record<string, number>; seconds: number; /** Held-out accuracy (greedy) on WRECK_HELDOUT_SIZE prompts before and after the run (wreckReading). */ greedy: { start: number; end: number }; /** The run's own held-out accuracy (greedy, HELDOUT_SIZE prompts) at its first and last evaluation, as the page shows it. */ greedy32: { start: number; end: number } }

/**
 * How many held-out prompts the wreck rule reads greedy accuracy on. The run's own evaluations use
 * HELDOUT_SIZE (32, the page's), and at the capability boundary 32 seed-chosen prompts misread the
 * base: on add d2, seeds 2–11, its greedy accuracy reads 0.31–0.84 on the run's 32 held-out prompts
 * and 0.44–0.48 on 512 (docs/lessons.md). A run that starts on a lucky 32 (seed 5: 0.84) falls back
 * whatever it learns; 512 prompts read the policy (one standard error about 0.02).
 */
export const WRECK_HELDOUT_SIZE = 512;

/** Held-out accuracy (greedy) on WRECK_HELDOUT_SIZE prompts of the run's task and difficulty (the same prompts before and after: seeded by the run's seed). */
export async function wreckReading(be: Backend, s: Settings): Promise<number> {
  return (await evaluatePolicy(be, s, { size: WRECK_HELDOUT_SIZE, difficulties: [taskDifficulty(s)], passAtK: false, step: 0 })).heldout_accuracy;
}

/** Numbers back from JSON: a NaN was written as null. */
const numbers = (r: Record<string, number | null> | undefined): Record<string, number> => Object.fromEntries(Object.entries(r ?? {}).map(([k, v]) => [k, typeof v === 'number' ? v : NaN]));

/** One lesson variant on one seed, as the CLI runs it (held-out greedy accuracy and pass@k, like the lab). */
export async function runLesson(id: string, variant: number, seed: number, o: { nullRun?: boolean; backend?: 'cpu' | 'webgpu' } = {}): Promise<LessonRun> {
  const lesson = LESSONS.find((l) => l.id === id)!;
  const v = lesson.variants[variant];
  const settings = { ...lessonSettings(lesson, defaultSettings(), variant), seed, ...(o.nullRun ? { learningRate: 0 } : {}) };
  const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath(settings.task, settings.difficulty, settings.watchTask)!)));
  const be = new ReferenceBackend(ck.config, ck.weights);
  const start = await wreckReading(be, settings);
  if (o.backend === 'webgpu') {
    // the page's engine (WebGPU in headless Chromium), through the train CLI: the same runTraining, the same verdict;
    // its final weights come back as a checkpoint, read on the CPU reference like the start
    const out = join(mkdtempSync(join(tmpdir(), 'lessons-')), 'end.ckpt');
    const args = ['run', '-s', 'train', '--', '--backend', 'webgpu', '--lesson', id, '--variant', String(variant), '--seed', String(seed), '--out', out, ...(o.nullRun ? ['--null'] : [])];
    const r = spawnSync('npm', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
    const line = r.stdout.trim().split('\n').reverse().find((l) => l.includes('"type":"summary"'));
    if (!line) throw new Error(`npm ${args.join(' ')} gave no summary: ${r.stderr.slice(-300)}`);
    const s = JSON.parse(line) as RunSummary;
    const end = decodeCheckpoint(new Uint8Array(readFileSync(out)));
    rmSync(dirname(out), { recursive: true, force: true });
    const greedy = { start, end: await wreckReading(new ReferenceBackend(end.config, end.weights), settings) };
    return { lesson: id, variant, label: v.label, seed, holds: s.lesson!.holds, sentence: s.lesson!.sentence, evidence: numbers(s.lesson!.evidence), measured: numbers(s.lesson!.measured ?? s.lesson!.evidence), seconds: s.seconds, greedy, greedy32: { start: s.heldout_before, end: s.heldout_after } };
  }
  let summary: RunSummary | null = null;
  await runTraining(be, settings, { steps: v.claim.steps, emit: (r) => { if (r.type === 'summary') summary = r as unknown as RunSummary; }, evalSize: HELDOUT_SIZE, evalPassAtK: true, lesson: { id, variant, claim: v.claim } });
  const s = summary! as RunSummary;
  const greedy = { start, end: await wreckReading(be, settings) };
  return { lesson: id, variant, label: v.label, seed, holds: s.lesson!.holds, sentence: s.lesson!.sentence, evidence: s.lesson!.evidence, measured: s.lesson!.measured, seconds: s.seconds, greedy, greedy32: { start: s.heldout_before, end: s.heldout_after } };
}

/**
 * The runs that lost more than UNPROMISED_WRECK held-out accuracy (greedy, on WRECK_HELDOUT_SIZE
 * prompts before and after the run) in a variant whose text does not promise a wreck (LessonVariant.promisesWreck): a control that
 * loses a third of its accuracy teaches the opposite of its lesson. Any one of them fails the table.
 */
export function unpromisedWrecks(runs: readonly (Pick<LessonRun, 'lesson' | 'variant' | 'seed'> & { greedy: { start: number; end: number } })[]): string[] {
  return runs
    .filter((r) => !LESSONS.find((l) => l.id === r.lesson)?.variants[r.variant]?.promisesWreck && r.greedy.end < r.greedy.start - UNPROMISED_WRECK)
    .map((r) => `${r.lesson}#${r.variant} seed ${r.seed} (held-out accuracy (greedy, ${WRECK_HELDOUT_SIZE} prompts) ${r.greedy.start.toFixed(2)} → ${r.greedy.end.toFixed(2)})`);
}


async function main() {
  const args = process.argv.slice(2);
  const flag = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
  const seeds = (flag('seeds') ?? '2,3,4,5,6').split(',').map(Number);
  const only = flag('lesson');
  const json = args.includes('--json');
  const nullRun = args.includes('--null');
  const backend = flag('backend') === 'webgpu' ? 'webgpu' : 'cpu';
  const runs: LessonRun[] = [];
  console.log(`| lesson | variant | seed | verdict | evidence | held-out greedy, ${WRECK_HELDOUT_SIZE} prompts (${HELDOUT_SIZE}) |\n|---|---|---|---|---|---|`);
  for (const l of LESSONS.filter((x) => !only || x.id === only)) {
    for (let v = 0; v < l.variants.length; v++) {
      for (const seed of seeds) {
        const r = await runLesson(l.id, v, seed, { nullRun, backend });
        runs.push(r);
        if (json) process.stderr.write(`${JSON.stringify(r)}\n`);
        const ev = Object.entries(r.evidence).map(([k, x]) => `${k} ${x}`).join(', ');
        console.log(`| ${l.id} | ${v}: ${r.label} | ${seed} | ${r.holds ? '✓ holds' : '✗ fails'} | ${ev} | ${r.greedy.start.toFixed(2)} → ${r.greedy.end.toFixed(2)} (${r.greedy32.start.toFixed(2)} → ${r.greedy32.end.toFixed(2)}) |`);
      }
    }
  }
  if (nullRun) {
    // η = 0: the same rollouts, no update — every verdict must say ✗
    const held = runs.filter((r) => r.holds);
    console.log(`null runs (η = 0): ${runs.length - held.length} of ${runs.length} verdicts fail${held.length ? `; holding: ${held.map((r) => `${r.lesson}#${r.variant} seed ${r.seed}`).join(', ')}` : ''}`);
    if (held.length) process.exit(1);
    return;
  }
  // Each lesson's contrast across its variants, per seed (src/rl/contrast.ts): the highest-rank variant's number
  // minus the lowest-rank one's; a promised contrast (lessons 2 and 8) must show on 4 of 5 seeds, the others are reported.
  const failing: string[] = [];
  for (const l of LESSONS) {
    const rs = runs.filter((r) => r.lesson === l.id);
    if (!l.contrast || !rs.length) continue;
    const { top, bottom, diffs } = contrastBySeed(l.contrast, rs.map((r) => ({ ...r, evidence: r.measured })), seeds); // unrounded, as each run's sentence
    const shown = diffs.filter((d) => d > 0).length;
    const name = (v: number) => l.variants[v].short ?? l.variants[v].label;
    const order = l.contrast.rank[top] === l.contrast.rank[bottom] ? 'no expected order' : `higher under ${name(top)} on ${shown} of ${seeds.length}`;
    console.log(`${l.id} contrast: ${l.contrast.what}, ${name(top)} − ${name(bottom)}, by seed: ${diffs.map((d) => d.toFixed(2)).join(', ')} (${order})${l.contrast.promised ? '' : ' — reported'}`);
    if (l.contrast.promised && !enough(shown, seeds.length)) failing.push(`${l.id} contrast`);
  }
  for (const key of [...new Set(runs.map((r) => `${r.lesson}#${r.variant}`))]) {
    const rs = runs.filter((r) => `${r.lesson}#${r.variant}` === key);
    const n = rs.filter((r) => r.holds).length;
    console.log(`${key}: holds on ${n} of ${rs.length} seeds`);
    if (!enough(n, rs.length)) failing.push(key);
  }
  const wrecks = unpromisedWrecks(runs);
  console.log(wrecks.length ? `held-out accuracy (greedy) fell more than ${UNPROMISED_WRECK} where the lesson promises no wreck: ${wrecks.join('; ')}` : `no run of a variant that promises no wreck lost more than ${UNPROMISED_WRECK} held-out accuracy (greedy)`);
  if (failing.length) console.log(`below 4 of 5: ${failing.join(', ')}`);
  if (failing.length || wrecks.length) process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) main().catch((e) => { console.error(e); process.exit(1); });
