/**
 * npm run coverage: how often a nominal 90 % interval covers the true value, before and after
 * issue 47 (item 5, "intervals that cover what they say"), on simulated data whose truth is known.
 *
 *   mean of n runs (the class pool)      before: percentile bootstrap (bootstrapMean)
 *                                        after:  Student's t (meanInterval)
 *     from a normal population, and a log-normal one (σ = 0.5: skewed, like a spread of rates)
 *   trend of one run (late − early)      before: steps resampled i.i.d. within each window
 *                                        after:  resampleRun (blocks of neighbouring steps, stepBlockLength)
 *     on x_t = slope·t + e_t, e an AR(1) series (unit variance, e_t = φ·e_{t−1} + √(1−φ²)·z_t)
 *   seed spread of the lessons' records (seedSpread.ts): how far one run's interval understates
 *     the spread across ten fresh seeds
 *
 * Every dataset is seeded (model/rng.ts): the table is the same on every machine. The simulation
 * functions are exported: src/rl/intervalCoverage.test.ts asserts the bands on smaller runs of them.
 */
import { pathToFileURL } from 'node:url';
import { Rng } from '../src/model/rng.ts';
import { bootstrap, bootstrapMean, meanInterval, stepBlockLength, type Estimate } from '../src/rl/interval.ts';
import { early, late, resampleRun, windowSize, type RunRecord } from '../src/rl/claims.ts';
import type { StepMetrics } from '../src/rl/metrics.ts';
import { LESSON_RECORDS } from '../src/rl/lessonRecords.ts';
import { seedSpread } from '../src/rl/seedSpread.ts';

/** A standard normal draw (Box–Muller). */
const gauss = (rng: Rng) => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

/** A population to draw runs' numbers from, with its true mean. */
export interface Population {
  name: string;
  mean: number;
  draw(rng: Rng): number;
}
export const NORMAL: Population = { name: 'normal', mean: 0.3, draw: (rng) => 0.3 + gauss(rng) };
/** exp(σZ), σ = 0.5: skewness 1.75; its mean is exp(σ²/2). */
export const LOG_NORMAL: Population = { name: 'log-normal σ=0.5', mean: Math.exp(0.125), draw: (rng) => Math.exp(0.5 * gauss(rng)) };

export type MeanMethod = (xs: number[], dataset: number) => Estimate;
/** Before: the percentile bootstrap of the mean (what the class pool used). */
export const percentileMean = (reps: number): MeanMethod => (xs, d) => bootstrapMean(xs, { reps, seed: d });
/** After: the t interval. */
export const tMean: MeanMethod = (xs) => meanInterval(xs);

/** Share of `datasets` samples of n from `pop` whose interval covers the true mean. */
export function meanCoverage(method: MeanMethod, pop: Population, n: number, datasets: number, seed = 47): number {
  const rng = new Rng(seed);
  let covered = 0;
  for (let d = 0; d < datasets; d++) {
    const xs = Array.from({ length: n }, () => pop.draw(rng));
    const e = method(xs, d);
    if (e.lo <= pop.mean && pop.mean <= e.hi) covered++;
  }
  return covered / datasets;
}

/** A run of n steps whose `accuracy` is slope·t + an AR(1) series of unit variance. */
export function ar1Run(rng: Rng, n: number, phi: number, slope: number): RunRecord {
  const steps: StepMetrics[] = [];
  let e = gauss(rng);
  for (let t = 0; t < n; t++) {
    if (t) e = phi * e + Math.sqrt(1 - phi * phi) * gauss(rng);
    steps.push({ step: t, accuracy: slope * t + e } as StepMetrics);
  }
  return { steps, evals: [] };
}

/** The trend a claim reads: the late window's mean minus the early window's (claims.ts' own windows). */
export const trend = (run: RunRecord) => late(run, (m) => m.accuracy) - early(run, (m) => m.accuracy);

export type Resampler = (run: RunRecord, draw: (n: number) => Int32Array) => RunRecord;
/** Before: resampleRun as it was, each window's steps drawn i.i.d. (the same strata). */
export const iidResample: Resampler = (run, draw) => {
  const n = run.steps.length, w = windowSize(n);
  const strata = n >= 2 * w ? [[0, w], [w, n - w], [n - w, n]] : [[0, n]];
  const steps: StepMetrics[] = [];
  for (const [a, b] of strata) if (b > a) for (const i of draw(b - a)) steps.push(run.steps[a + i]);
  return { steps, evals: run.evals };
};
/** After: resampleRun itself (blocks of neighbouring steps within each window). */
export const blockResample: Resampler = (run, draw) => resampleRun(run, draw);

/**
 * Share of `datasets` simulated runs whose trend interval (a percentile bootstrap of `reps`
 * resamples, as a verdict computes it) covers the true trend, slope · (n − w) for a linear ramp.
 */
export function trendCoverage(resample: Resampler, n: number, phi: number, datasets: number, reps: number, seed = 47): number {
  const rng = new Rng(seed + n * 100 + Math.round(phi * 10));
  const slope = 0.01, truth = slope * (n - windowSize(n));
  let covered = 0;
  for (let d = 0; d < datasets; d++) {
    const run = ar1Run(rng, n, phi, slope);
    const e = bootstrap((draw) => trend(resample(run, draw)), trend(run), { reps, seed: d });
    if (e.lo <= truth && truth <= e.hi) covered++;
  }
  return covered / datasets;
}

function main() {
  const datasets = 2000, pct = (x: number) => `${(100 * x).toFixed(1)} %`.padStart(8);
  const t0 = performance.now();
  console.log(`Coverage of nominal 90 % intervals (${datasets} seeded datasets per cell).\n`);
  console.log('Mean of n runs                    n   before (percentile bootstrap)   after (t interval)');
  for (const pop of [NORMAL, LOG_NORMAL]) for (const n of [3, 5, 10, 30]) {
    const before = meanCoverage(percentileMean(1000), pop, n, datasets), after = meanCoverage(tMean, pop, n, datasets);
    console.log(`  ${pop.name.padEnd(30)} ${String(n).padStart(3)}   ${pct(before).padEnd(30)}  ${pct(after)}`);
  }
  const reps = 500;
  console.log(`\nTrend of one run (late − early window mean, AR(1) steps; ${reps} resamples)`);
  console.log('  steps  window  φ     before (i.i.d. steps)   after (blocks)   block length');
  for (const n of [15, 30, 40]) for (const phi of [0, 0.3, 0.5, 0.7]) {
    const before = trendCoverage(iidResample, n, phi, datasets, reps), after = trendCoverage(blockResample, n, phi, datasets, reps);
    const w = windowSize(n);
    console.log(`  ${String(n).padStart(5)}  ${String(w).padStart(6)}  ${phi.toFixed(1)}   ${pct(before).padEnd(22)}  ${pct(after).padEnd(15)}  ${blockWords(w)}`);
  }
  console.log('\n  longer runs than any lesson (1000 datasets): how long a window the blocks need');
  for (const n of [100, 200]) for (const phi of [0.3, 0.5, 0.7]) {
    const before = trendCoverage(iidResample, n, phi, 1000, reps), after = trendCoverage(blockResample, n, phi, 1000, reps);
    const w = windowSize(n);
    console.log(`  ${String(n).padStart(5)}  ${String(w).padStart(6)}  ${phi.toFixed(1)}   ${pct(before).padEnd(22)}  ${pct(after).padEnd(15)}  ${blockWords(w)}`);
  }
  console.log('\nSeed spread (records/*.json, 10 fresh seeds): sd of the claim number across seeds / median standard error its runs\' 90 % intervals imply');
  for (const r of LESSON_RECORDS.lessons) for (const v of r.variants) {
    const f = seedSpread(v);
    console.log(`  ${r.lesson.padEnd(20)} ${v.label.padEnd(24)} ${String(v.steps).padStart(3)} steps   ${f === null ? '—' : f.toFixed(2)}`);
  }
  console.log(`\n(${((performance.now() - t0) / 1000).toFixed(0)} s)`);
}

const blockWords = (w: number) => (stepBlockLength(w) === 1 ? '1 (i.i.d.: window under 8)' : String(stepBlockLength(w)));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
