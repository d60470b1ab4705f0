/**
 * npm run update-push -- [--seeds 1,2,3,4,5] [--steps 15] [--match change|length] [--lr 7e-4] [--mu 2] [--json]
 *
 * What the step-through's update phase says, measured over whole runs: for lesson 1 (G = 8) and
 * the lab's default run, on several seeds, every step of the first `steps` is inspected (as the
 * step-through does it, on the CPU reference) and the answers with A > 0 made more likely are
 * counted twice: by this batch's gradient alone (a plain step from the same weights that moves
 * the policy as far as the applied one — with --match length, as long in parameter space — then
 * undone) and by the update that was applied (AdamW). Prints one row per run and seed: the two
 * fractions, and the mean cosine between the applied step and the batch's descent direction.
 * Beside them, what GRPO promises: in how many steps the surrogate J = Σ w·A·Δ log π rose after
 * each step (the gradient alone, 10× shorter, AdamW's), and how far the two gradient steps' J fell
 * from the first-order prediction s·‖g‖ (mean relative gap).
 */
import { readFileSync } from 'node:fs';
import { decodeCheckpoint } from '../src/model/checkpoint.ts';
import { ReferenceBackend } from '../src/model/reference/backend.ts';
import { baseCheckpointPath } from '../src/rl/bases.ts';
import { pushCounts, type GradientStepSize } from '../src/rl/inspection.ts';
import { getLesson, lessonSettings } from '../src/rl/lessons.ts';
import { defaultSettings, type Settings } from '../src/rl/settings.ts';
import { GrpoTrainer } from '../src/rl/trainer.ts';

export interface PushRow {
  run: string; seed: number; steps: number; positive: number; upGradient: number; upShort: number; upApplied: number; negative: number; downGradient: number; downApplied: number; cosine: number;
  /** Steps whose surrogate J = Σ w·A·Δ log π rose: after the gradient alone, after it 10× shorter, after AdamW's step; and the mean |J / (s·‖g‖) − 1| of the two gradient steps (β = 0). */
  jUpGradient: number; jUpShort: number; jUpApplied: number; firstOrderGap: number; firstOrderGapShort: number;
}

export async function measurePush(run: string, s: Settings, steps: number, gradientStep: GradientStepSize = 'change'): Promise<PushRow> {
  const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath(s.task, s.difficulty)!)));
  const be = new ReferenceBackend(ck.config, ck.weights);
  const t = new GrpoTrainer(be, s, { evalSize: 8, evalPassAtK: false });
  const row: PushRow = { run, seed: s.seed, steps, positive: 0, upGradient: 0, upShort: 0, upApplied: 0, negative: 0, downGradient: 0, downApplied: 0, cosine: 0, jUpGradient: 0, jUpShort: 0, jUpApplied: 0, firstOrderGap: 0, firstOrderGapShort: 0 };
  let cosines = 0, predicted = 0;
  for (let i = 0; i < steps; i++) {
    for await (const ph of t.runStep(s, { inspect: true, gradientStep })) {
      if (ph.kind !== 'update' || !ph.inspection) continue;
      const answers = ph.inspection.answers.flat();
      const c = pushCounts(answers);
      row.positive += c.positive;
      row.negative += c.negative;
      row.upApplied += c.applied.up;
      row.downApplied += c.applied.down;
      row.upGradient += c.gradientAlone?.up ?? 0;
      row.downGradient += c.gradientAlone?.down ?? 0;
      row.upShort += c.gradientShort?.up ?? 0;
      const geo = ph.inspection.step;
      if (!geo) continue;
      row.cosine += geo.cosine;
      cosines++;
      const J = geo.objective;
      row.jUpGradient += J.gradientAlone > 0 ? 1 : 0;
      row.jUpShort += J.gradientShort > 0 ? 1 : 0;
      row.jUpApplied += J.applied > 0 ? 1 : 0;
      if (J.predictedAlone && J.predictedShort) {
        row.firstOrderGap += Math.abs(J.gradientAlone / J.predictedAlone - 1);
        row.firstOrderGapShort += Math.abs(J.gradientShort / J.predictedShort - 1);
        predicted++;
      }
    }
  }
  row.cosine = cosines ? row.cosine / cosines : NaN;
  row.firstOrderGap = predicted ? row.firstOrderGap / predicted : NaN;
  row.firstOrderGapShort = predicted ? row.firstOrderGapShort / predicted : NaN;
  return row;
}

async function main() {
  const args = process.argv.slice(2);
  const flag = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
  const seeds = (flag('seeds') ?? '1,2,3,4,5').split(',').map(Number);
  const steps = Number(flag('steps') ?? 15);
  const match = (flag('match') ?? 'change') as GradientStepSize;
  const over: Partial<Settings> = {};
  if (flag('lr')) over.learningRate = Number(flag('lr'));
  if (flag('mu')) over.numIterations = Number(flag('mu'));
  const lesson1 = getLesson('mixed-groups')!;
  const runs: [string, (seed: number) => Settings][] = [
    ['lesson 1 · G = 8', (seed) => ({ ...lessonSettings(lesson1, defaultSettings(), 1), ...over, seed })],
    ['default run', (seed) => ({ ...defaultSettings(), ...over, seed })],
  ];
  const pct = (a: number, b: number) => `${a} of ${b} (${b ? Math.round((100 * a) / b) : 0} %)`;
  console.log(`steps 0–${steps - 1} of each run, every step inspected; gradient-alone step sized by ${match === 'change' ? 'the same mean |Δ log π| per token as the applied step' : 'the same parameter-space length ‖Δw‖ as the applied step'}${Object.keys(over).length ? `, with ${JSON.stringify(over)}` : ''}\n`);
  console.log('| run | seed | A > 0 up: gradient alone | 10× shorter | AdamW applied | A < 0 down: gradient alone | applied | cos(Δw, −g) | steps with J = Σ w·A·Δ log π > 0: gradient alone / 10× shorter / applied | mean \\|J / s‖g‖ − 1\\|: gradient alone / 10× shorter |\n|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, settingsOf] of runs) {
    for (const seed of seeds) {
      const r = await measurePush(name, settingsOf(seed), steps, match);
      if (args.includes('--json')) process.stderr.write(`${JSON.stringify(r)}\n`);
      console.log(`| ${name} | ${seed} | ${pct(r.upGradient, r.positive)} | ${pct(r.upShort, r.positive)} | ${pct(r.upApplied, r.positive)} | ${pct(r.downGradient, r.negative)} | ${pct(r.downApplied, r.negative)} | ${r.cosine.toFixed(2)} | ${r.jUpGradient} / ${r.jUpShort} / ${r.jUpApplied} of ${r.steps} | ${r.firstOrderGap.toFixed(3)} / ${r.firstOrderGapShort.toFixed(3)} |`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main().catch((e) => { console.error(e); process.exit(1); });
