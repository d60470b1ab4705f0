/**
 * Interval estimates for a lesson's verdict and a class's pool: with few runs, report an interval,
 * not a single number (Agarwal et al., "Deep RL at the Edge of the Statistical Precipice",
 * NeurIPS 2021: percentile bootstrap intervals, the interquartile mean).
 *
 * Which interval where (each was checked for coverage: intervalCoverage.test.ts, `npm run coverage`):
 *   a mean over a few items (the class pool's runs, one per student)   meanInterval: Student's t.
 *       The percentile bootstrap of a mean is too narrow with few items (it has no t correction
 *       and its spread is the plug-in √((n−1)/n)·s/√n): from a normal population nominal 90 %
 *       covered 64 % at n = 3, 77 % at n = 5, 84 % at n = 10. The t interval covers 90 % there at
 *       any n ≥ 2 (86–89 % from a log-normal, σ = 0.5, at n = 5–30). Below MIN_CLASS_RUNS, no interval.
 *   a paired difference over many items (a run's 256 held-out prompts)   pairedDiff: bootstrap.
 *       At n = 256 the bootstrap's small-sample narrowness is gone (88 % at n = 30 already), and the
 *       same resampled prompts feed any statistic of them (pass@k, the watched task), not only a mean.
 *   a trend over a run's steps (early → late window)   bootstrap with blockIndices within each window.
 *       Where steps are autocorrelated, drawing them i.i.d. treats neighbours as independent
 *       evidence; blocks of neighbouring steps keep some of it. Neither covers 90 % in the lessons'
 *       windows of 3–10 steps (AR(1) steps, φ = 0.5: 51–65 %): a window's own steps cannot show how
 *       far its mean wanders. Across ten fresh seeds the lessons' claim numbers spread 0.8–4.2×
 *       (median 1.4×) as wide as one run's interval implies (seedSpread.ts): one run's interval
 *       is a floor on the uncertainty, not its measure.
 *
 * Every bootstrap here is seeded (mulberry32, model/rng.ts): the same data gives the same interval
 * on every machine. The level is two-sided: 0.9 leaves 5 % in each tail.
 *
 * A verdict from an interval (verdictFrom): holds when the interval lies wholly on the claim's
 * side of its threshold, fails when wholly on the other side, unclear when it straddles it.
 * Engine layer: pure, no DOM.
 */
import { Rng } from '../model/rng.ts';

export interface Estimate {
  /** The statistic on the data as given. */
  value: number;
  /** The interval's ends (percentile bootstrap, or Student's t: meanInterval). */
  lo: number;
  hi: number;
}

export interface BootstrapOptions {
  /** Two-sided coverage, 0.9 by default. */
  level?: number;
  /** Resamples, 2000 by default. */
  reps?: number;
  seed?: number;
}

export const LEVEL = 0.9;
const REPS = 2000;
const SEED = 0x1e7e1;

const mean = (xs: ArrayLike<number>) => { let s = 0; for (let i = 0; i < xs.length; i++) s += xs[i]; return xs.length ? s / xs.length : NaN; };

/** The q-quantile of sorted values (linear interpolation between order statistics). */
export function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q, i = Math.floor(pos), f = pos - i;
  return i + 1 < sorted.length ? sorted[i] * (1 - f) + sorted[i + 1] * f : sorted[i];
}

/**
 * The percentile bootstrap of any statistic: `stat(draw)` is called `reps` times, each time with a
 * fresh `draw(n)` that gives n indices drawn with replacement from [0, n) (the caller resamples
 * whatever units it has: prompts, steps, students). Non-finite resampled values are dropped;
 * when more than a tenth are, the interval is [NaN, NaN] (the statistic is not defined often enough).
 */
export function bootstrap(stat: (draw: (n: number) => Int32Array) => number, value: number, o: BootstrapOptions = {}): Estimate {
  const level = o.level ?? LEVEL, reps = o.reps ?? REPS;
  const rng = new Rng(o.seed ?? SEED);
  const draw = (n: number) => { const idx = new Int32Array(n); for (let i = 0; i < n; i++) idx[i] = rng.int(n); return idx; };
  const out: number[] = [];
  for (let r = 0; r < reps; r++) { const v = stat(draw); if (Number.isFinite(v)) out.push(v); }
  if (!Number.isFinite(value) || out.length < 0.9 * reps) return { value, lo: NaN, hi: NaN };
  out.sort((a, b) => a - b);
  return { value, lo: quantile(out, (1 - level) / 2), hi: quantile(out, 1 - (1 - level) / 2) };
}

/** The mean of xs with its bootstrap interval (resampling the items). */
export function bootstrapMean(xs: readonly number[], o: BootstrapOptions = {}): Estimate {
  if (xs.length < 2) return { value: xs.length ? xs[0] : NaN, lo: NaN, hi: NaN };
  return bootstrap((draw) => { const idx = draw(xs.length); let s = 0; for (const i of idx) s += xs[i]; return s / idx.length; }, mean(xs), o);
}

/**
 * Paired difference: the mean of b[i] − a[i] over paired items (the same prompts and draws before
 * and after; the same seed under two variants), resampling the pairs together, so what the items
 * share cancels.
 */
export function pairedDiff(a: readonly number[], b: readonly number[], o: BootstrapOptions = {}): Estimate {
  if (a.length !== b.length) throw new Error(`pairedDiff: ${a.length} items before, ${b.length} after`);
  return bootstrapMean(a.map((x, i) => b[i] - x), o);
}

/**
 * Runs a class pool needs before it shows an interval: below five the class view says "too few runs
 * to judge". With n runs the t interval's half-width is t(n−1)·s/√n: at n = 3 that is 2.92·s/√3, wider
 * than the spread of the runs themselves (1.7 s), and s from 3 runs is itself a rough guess (2
 * degrees of freedom), so an interval that small says little beyond "too few".
 */
export const MIN_CLASS_RUNS = 5;

/**
 * The mean of xs with its Student-t interval: x̄ ± t_{(1+level)/2, n−1} · s/√n, s the sample
 * standard deviation (n − 1 in the denominator). Exact coverage for a normal population at any
 * n ≥ 2; close for a skewed one from n ≈ 10 (log-normal σ = 0.5: intervalCoverage.test.ts). NaN ends
 * below 2 items (a spread needs two), and NaN throughout when an item is not finite.
 */
export function meanInterval(xs: readonly number[], o: Pick<BootstrapOptions, 'level'> = {}): Estimate {
  const n = xs.length, m = mean(xs);
  if (n < 2) return { value: m, lo: NaN, hi: NaN };
  let ss = 0;
  for (const x of xs) ss += (x - m) * (x - m);
  const half = tQuantile(1 - (1 - (o.level ?? LEVEL)) / 2, n - 1) * Math.sqrt(ss / (n - 1) / n);
  return { value: m, lo: m - half, hi: m + half };
}

/** The t interval of the mean of b[i] − a[i] over paired items (the same seed under two settings). */
export function pairedMeanInterval(a: readonly number[], b: readonly number[], o: Pick<BootstrapOptions, 'level'> = {}): Estimate {
  if (a.length !== b.length) throw new Error(`pairedMeanInterval: ${a.length} items before, ${b.length} after`);
  return meanInterval(a.map((x, i) => b[i] - x), o);
}

/**
 * The p-quantile of Student's t with df degrees of freedom (df > 0, Infinity for the normal).
 * Inverts the exact distribution function: P(|T| > t) = I_x(df/2, 1/2) with x = df/(df + t²), I the
 * regularized incomplete beta (continued fraction), by bisection on t to 1e-12. Table values it
 * meets at 0.95: df 1 6.3138, 2 2.9200, 4 2.1318, 9 1.8331, 29 1.6991, ∞ 1.6449.
 */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) return NaN;
  if (p < 0.5) return -tQuantile(1 - p, df);
  if (p === 0.5) return 0;
  if (df > 1e7) return normalQuantile(p); // t − z < 1e-7 here
  const key = `${p}:${df}`;
  const hit = tCache.get(key);
  if (hit !== undefined) return hit;
  const tail = 2 * (1 - p); // P(|T| > t)
  const twoTail = (t: number) => incompleteBeta(df / (df + t * t), df / 2, 0.5);
  let lo = 0, hi = 2;
  while (twoTail(hi) > tail) { lo = hi; hi *= 2; }
  while (hi - lo > 1e-12 * hi) { const mid = (lo + hi) / 2; if (twoTail(mid) > tail) lo = mid; else hi = mid; }
  const t = (lo + hi) / 2;
  tCache.set(key, t);
  return t;
}
const tCache = new Map<string, number>();

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: about 1e-15 relative). */
function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The regularized incomplete beta I_x(a, b) (Numerical Recipes' betai: Lentz's continued fraction). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  // the fraction converges fast for x < (a + 1)/(a + b + 2); beyond it, I_x(a, b) = 1 − I_{1−x}(b, a)
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1, d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m;
    for (const aa of [(m * (b - m) * x) / ((a + m2 - 1) * (a + m2)), (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))]) {
      d = 1 + aa * d;
      if (Math.abs(d) < tiny) d = tiny;
      c = 1 + aa / c;
      if (Math.abs(c) < tiny) c = tiny;
      d = 1 / d;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

/** The p-quantile of the standard normal (Acklam's rational approximation: 1.2e-9 relative). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return NaN;
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const tailQ = (q: number) => (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tailQ(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tailQ(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5, r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/**
 * Indices for one circular block bootstrap draw of a window of n neighbouring steps (Politis &
 * Romano 1992): ⌈n/len⌉ blocks of len consecutive indices, each starting at a uniform index and
 * wrapping past the window's end to its start, cut to n. Neighbouring steps stay together, so their
 * correlation counts in the resampled mean's spread; wrapping gives every step the same weight (a
 * moving block bootstrap under-weights the ends). `draw` is bootstrap's i.i.d. draw (its first
 * ⌈n/len⌉ indices are the block starts), so the draw stays seeded; len = 1 is the i.i.d. draw itself.
 */
export function blockIndices(draw: (n: number) => Int32Array, n: number, len: number): Int32Array {
  if (len <= 1 || n <= 1) return draw(n);
  const starts = draw(n), idx = new Int32Array(n);
  for (let j = 0; j < n; j++) idx[j] = (starts[Math.floor(j / len)] + (j % len)) % n;
  return idx;
}

/**
 * The block length for a window of n steps: 1 (i.i.d.) below 8 steps, else max(2, round(n^(1/3)))
 * (the usual n^(1/3) rate for a block bootstrap of a mean: 2 up to 15 steps, 3 up to 42).
 *
 * Chosen by simulation (`npm run coverage`; intervalCoverage.test.ts): late − early window means
 * of an AR(1) series, φ ∈ {0, 0.3, 0.5, 0.7}. Blocks of 2 in a window of 3–7 steps lower coverage at
 * every φ ≤ 0.3 and gain under 2 points above it (in a window of 3 every pair of steps is
 * neighbours, so blocks carry no correlation, only fewer distinct steps); from 8 steps blocks gain
 * 3–5 points at φ ≥ 0.5 for 3–4 lost at φ = 0. Within windows this short no block length reaches
 * the nominal 90 %: a window's own steps cannot show how much its mean wanders (see the test).
 */
export const stepBlockLength = (n: number) => (n < 8 ? 1 : Math.max(2, Math.round(Math.cbrt(n))));

/** The interquartile mean: the mean of the middle half (each value weighted by how much of it lies between the quartiles). */
export function iqm(xs: readonly number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  const n = s.length;
  if (!n) return NaN;
  if (n < 4) return mean(s);
  // the middle half of the sorted values, as a continuous range [n/4, 3n/4): partial weights at its ends
  const from = n / 4, to = (3 * n) / 4;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const w = Math.max(0, Math.min(i + 1, to) - Math.max(i, from));
    sum += w * s[i];
  }
  return sum / (to - from);
}

export type IntervalVerdict = 'holds' | 'fails' | 'unclear';

/**
 * The verdict on a claim that its number lies above (strictly) or at-or-below a threshold, from the
 * number's interval: holds when the whole interval is on the claim's side, fails when it is wholly
 * on the other side, unclear when it straddles the threshold (or is not defined).
 */
export function verdictFrom(interval: readonly [number, number], threshold: number, side: 'above' | 'below'): IntervalVerdict {
  const [lo, hi] = interval;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return 'unclear';
  if (side === 'above') return lo > threshold ? 'holds' : hi <= threshold ? 'fails' : 'unclear';
  return hi <= threshold ? 'holds' : lo > threshold ? 'fails' : 'unclear';
}
