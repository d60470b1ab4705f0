/**
 * npx tsx scripts/record-page-run.ts [--steps 1100] [--rollouts 12] [--out scripts/fixtures/page-run.json.gz]
 *
 * Records one real run at the lab's defaults (the reverse base checkpoint, the page's held-out
 * size and evaluation cadence) on the CPU reference, for the page bench (scripts/page-bench.ts):
 * every step's StepMetrics, every EvalMetrics, and the last few rollouts in the fields the page
 * shows (rolloutView: prompt, answers, verdicts, rewards, advantages, tokens). Nothing is made up:
 * the bench replays these numbers through the store. Slow (about a second a step): run it once.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { decodeCheckpoint } from '../src/model/checkpoint.ts';
import { createBackend } from '../src/model/engines.ts';
import { baseCheckpointPath } from '../src/rl/bases.ts';
import { defaultSettings } from '../src/rl/settings.ts';
import { GrpoTrainer } from '../src/rl/trainer.ts';
import { compactRollout, keepNonFinite, type RecordedRun } from '../src/lab/replay.ts';

/** The held-out size the fixture was recorded with (the page evaluated 24 prompts then; it now reads HELDOUT_SIZE, src/rl/evaluation.ts). */
const EVAL_SIZE = 24;

function write(out: string, run: RecordedRun): void {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, gzipSync(JSON.stringify(run, keepNonFinite), { level: 9 }));
}

async function main() {
  const argv = process.argv.slice(2);
  const opt = (name: string, d: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : d; };
  const steps = Number(opt('steps', '1100'));
  const keep = Number(opt('rollouts', '12'));
  const out = opt('out', 'scripts/fixtures/page-run.json.gz');
  const s = defaultSettings();
  const path = baseCheckpointPath(s.task, s.difficulty);
  if (!path) throw new Error(`no base checkpoint for ${s.task} d${s.difficulty}`);
  const c = decodeCheckpoint(new Uint8Array(readFileSync(path)));
  const be = await createBackend('cpu', c.config, { seed: s.seed, weights: c.weights });
  const trainer = new GrpoTrainer(be, s, { evalSize: EVAL_SIZE });
  await trainer.takeReference();
  const run: RecordedRun = { what: `lab defaults (${s.task} d${s.difficulty}, seed ${s.seed}) on the CPU reference from ${path}, ${steps} steps, recorded by scripts/record-page-run.ts`, settings: s, steps: [], evals: [await trainer.evaluate(s)], rollouts: [] };
  const t0 = Date.now();
  while (run.steps.length < steps) {
    for await (const ph of trainer.runStep(s)) {
      if (ph.kind === 'metrics' && ph.accepted) {
        run.steps.push(ph.metrics);
        run.rollouts = [...run.rollouts, compactRollout(ph.rollout)].slice(-keep); // the last few
      } else if (ph.kind === 'evaluation') run.evals.push(ph.evaluation);
    }
    if (run.steps.length % 20 === 0) process.stderr.write(`record: step ${run.steps.length}/${steps}, reward ${run.steps.at(-1)!.reward.toFixed(3)}, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
    if (run.steps.length % 100 === 0) write(out, run); // a long recording can be looked at before it ends
  }
  be.dispose();
  write(out, run);
  process.stderr.write(`record: wrote ${out} (${run.steps.length} steps, ${run.evals.length} evaluations, ${run.rollouts.length} rollouts)\n`);
}

if (process.argv[1]?.endsWith('record-page-run.ts')) void main();
