/**
 * The engine checks itself on the user's adapter before the first step: the WebGPU engine and
 * the CPU reference run the same small work from the same weights — a forward (per-token
 * log-probs and entropies), a clipped-policy update of two inner epochs with a KL leash (each
 * epoch's loss and metrics, then AdamW's m and v, which hold the gradient, and the weights) and
 * greedy sampling — and every number must agree within atol·max|ref| + rtol·|ref| (the absolute
 * part scaled to its tensor, so small gradients are held to their own scale).
 *
 * It runs with exactly the kernel forms the engine picked for this adapter. A form that gives
 * wrong numbers is replaced by the next safer one — matmul: tiled (workgroup memory) → direct
 * (no barriers) → plain (scalar kernels); row reductions: subgroup → workgroup tree → one row
 * per invocation; attention: tiled (K/V through workgroup memory) → one row per invocation —
 * and the check runs again. The engine's weights and AdamW state are put
 * back afterwards. If no combination passes, the caller runs the CPU reference.
 */
import { ReferenceBackend } from './reference/backend.ts';
import { packBatch } from './batch.ts';
import type { AdamWSettings, Backend, LossSpec, TrainStepResult } from './backend.ts';
import type { WebGPUBackend } from '../gpu/backend.ts';
import { BOS, EOS } from '../tasks/tokenizer.ts';

export type MatmulLevel = 'tiled' | 'direct' | 'plain';
export type ReductionLevel = 'subgroup' | 'workgroup' | 'row';
export type AttentionLevel = 'tiled' | 'row';
/** The kernel forms the check can choose among, GPU-friendliest first in each family. */
export interface Forms { matmul: MatmulLevel; reduction: ReductionLevel; attention: AttentionLevel }
const LEVELS: { [K in keyof Forms]: Forms[K][] } = { matmul: ['tiled', 'direct', 'plain'], reduction: ['subgroup', 'workgroup', 'row'], attention: ['tiled', 'row'] };
const WORDS: { [K in keyof Forms]: Record<Forms[K], string> } = {
  matmul: { tiled: 'the tiled matmul (workgroup memory)', direct: 'the direct matmul (no barriers)', plain: 'the plain scalar matmul' },
  reduction: { subgroup: 'the subgroup reductions', workgroup: 'the workgroup-tree reductions', row: 'the one-row-per-invocation reductions' },
  attention: { tiled: 'the tiled attention (K/V through workgroup memory)', row: 'the one-row-per-invocation attention' },
};

/** Tolerance per number: SELF_CHECK_ATOL × the largest |ref| of its tensor + SELF_CHECK_RTOL × |ref|. */
export const SELF_CHECK_ATOL = 1e-4;
export const SELF_CHECK_RTOL = 1e-3;

export interface SelfCheckReport {
  ok: boolean;
  /** The forms the engine runs with from now on (the ones that passed; the adapter's choice when none did). */
  forms: Forms;
  /** Distinct kernels the passing check dispatched. */
  kernels: number;
  /** Numbers compared in the passing check. */
  numbers: number;
  /** Largest |gpu − ref| / (atol·max|ref| + rtol·|ref|) of the passing check (≤ 1 passes). */
  worst: number;
  /** Largest |gpu − ref| of the passing check. */
  worstAbs: number;
  /** What failed on the way, per combination tried: its forms, what disagreed first and by how much (× the tolerance). */
  failures: { forms: Forms; what: string; worst: number }[];
  /** For the page's engine line: what passed, or which form was replaced and why. */
  sentence: string;
  ms: number;
}

/** The forms the engine uses now. */
function formsOf(be: WebGPUBackend): Forms {
  const o = be.ctx.ops;
  return { matmul: o.forceScalarMatmul ? 'plain' : o.matmulForm, reduction: o.reductionForm, attention: o.attentionForm };
}

function setForms(be: WebGPUBackend, f: Forms): void {
  const o = be.ctx.ops;
  o.matmulForm = f.matmul === 'tiled' ? 'tiled' : 'direct';
  o.forceScalarMatmul = f.matmul === 'plain';
  o.reductionForm = f.reduction;
  o.attentionForm = f.attention;
}

/**
 * The combinations to try: the adapter's own first, then each family alone one step safer at a
 * time (a broken tiled matmul should cost only the matmul), then every mix of safer forms, the
 * fewest families changed first; the safest combination last.
 */
function ladder(start: Forms, available: (f: Forms) => boolean): Forms[] {
  const keys = Object.keys(LEVELS) as (keyof Forms)[];
  const levels = LEVELS as Record<keyof Forms, string[]>;
  const from = (k: keyof Forms) => levels[k].slice(levels[k].indexOf(start[k]));
  let all: Forms[] = [{ ...start }];
  for (const k of keys) all = all.flatMap((f) => from(k).map((v) => ({ ...f, [k]: v })));
  const changed = (f: Forms) => keys.filter((k) => f[k] !== start[k]).length;
  const depth = (f: Forms) => keys.reduce((a, k) => a + levels[k].indexOf(f[k]), 0);
  const first = (f: Forms) => keys.findIndex((k) => f[k] !== start[k]);
  return all.filter(available).sort((a, b) => changed(a) - changed(b) || first(a) - first(b) || depth(a) - depth(b));
}

class Comparer {
  worst = 0;
  worstAbs = 0;
  numbers = 0;
  first: string | null = null;
  /** |gpu − ref| / tolerance of the first number that disagreed. */
  firstRatio = 0;
  check(what: string, gpu: ArrayLike<number>, ref: ArrayLike<number>): void {
    if (gpu.length !== ref.length) {
      this.fail(what, `${gpu.length} numbers, expected ${ref.length}`, Infinity);
      return;
    }
    // the absolute part scales with the tensor: AdamW's m holds gradients of 1e-4, log-probs are near −4
    let scale = 0;
    for (let i = 0; i < ref.length; i++) scale = Math.max(scale, Math.abs(ref[i]));
    const atol = SELF_CHECK_ATOL * Math.max(scale, 1e-12);
    for (let i = 0; i < ref.length; i++) {
      const d = Math.abs(gpu[i] - ref[i]);
      const r = d / (atol + SELF_CHECK_RTOL * Math.abs(ref[i]));
      this.numbers++;
      if (d > this.worstAbs) this.worstAbs = d;
      if (!(r <= this.worst)) this.worst = Number.isNaN(r) ? Infinity : Math.max(this.worst, r);
      if (!(r <= 1)) this.fail(what, `[${i}] ${gpu[i].toPrecision(4)} vs ${ref[i].toPrecision(4)}`, r);
    }
  }
  private fail(what: string, detail: string, r: number): void {
    this.worst = Math.max(this.worst, r);
    if (!this.first) {
      this.first = `${what} ${detail}`;
      this.firstRatio = r;
    }
  }
}

/** A small batch: two prompts with answers of different lengths, from the vocabulary's low ids. */
function checkBatch(be: Backend) {
  const V = be.config.vocabSize;
  const tok = (i: number) => 3 + (i % (V - 3));
  const pairs = [
    { prompt: [BOS, tok(5), tok(9), tok(2)], response: [tok(7), tok(1), tok(4), EOS] },
    { prompt: [BOS, tok(11), tok(3)], response: [tok(8), tok(6), tok(2), tok(13), tok(5), EOS] },
  ];
  return { pairs, batch: packBatch(pairs, be.config.seqLen, { trim: true }) };
}

/** One pass of the check on both engines; fills `c`. */
async function compareOnce(gpu: WebGPUBackend, ref: ReferenceBackend, c: Comparer): Promise<void> {
  const { pairs, batch } = checkBatch(gpu);
  // forward
  const [g0, r0] = [await gpu.logprobs(batch, { temperature: 0.9 }), await ref.logprobs(batch, { temperature: 0.9 })];
  const masked = (x: Float32Array) => x.map((v, i) => v * batch.mask[i]);
  c.check('forward log-probs', masked(g0.logprobs), masked(r0.logprobs));
  c.check('forward entropies', masked(g0.entropy), masked(r0.entropy));
  // the policy update: two inner epochs, π_old off the current policy, a KL leash
  const oldLogprobs = Float32Array.from(r0.logprobs, (v, i) => v + 0.05 * Math.sin(i));
  const loss: LossSpec = {
    kind: 'policy', advantages: new Float32Array([1.2, -0.8]), oldLogprobs, epsilon: 0.2, epsilonHigh: 0.28, beta: 0.04, klEstimator: 'k3',
    lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0.01, maxCompletionLength: 8, temperature: 0.9, measureKl: true,
  };
  const opt: AdamWSettings = { lr: 1e-3, beta1: 0.9, beta2: 0.99, eps: 1e-3, weightDecay: 0.01, gradClip: 1 };
  const [gu, ru] = [await gpu.trainStep(batch, loss, opt, { epochs: 2 }), await ref.trainStep(batch, loss, opt, { epochs: 2 })];
  const epochs = (r: TrainStepResult) => (r.epochs ?? [r]).flatMap((e) => [e.loss, e.gradNorm, ...Object.keys(e.metrics).sort().map((k) => e.metrics[k])]);
  c.check('update: loss, gradient norm and metrics of each epoch', epochs(gu), epochs(ru));
  const [gs, rs] = [await gpu.getOptimizerState(), await ref.getOptimizerState()];
  c.check('update: AdamW m (the gradients)', gs.m, rs.m);
  c.check('update: AdamW v', gs.v, rs.v);
  c.check('update: weights after AdamW', await gpu.getWeights(), await ref.getWeights());
  // greedy sampling from the updated policy
  const req = { prompts: pairs.map((p) => p.prompt), numGenerations: 2, temperature: 0, maxNewTokens: 6, seed: 1, stream: 0 };
  const [gt, rt] = [await gpu.sample(req), await ref.sample(req)];
  c.check('greedy sampling: tokens', gt.tokens.flatMap((x) => Array.from(x)), rt.tokens.flatMap((x) => Array.from(x)));
  c.check('greedy sampling: log-probs', gt.logprobs.flatMap((x) => Array.from(x)), rt.logprobs.flatMap((x) => Array.from(x)));
}

/**
 * Check `be` against the CPU reference from its current weights, replacing failing kernel forms
 * by safer ones; `be`'s weights, AdamW state and π_ref come back as they were.
 */
export async function selfCheck(be: WebGPUBackend, o: { onProgress?: (tried: number, total: number) => void } = {}): Promise<SelfCheckReport> {
  const t0 = performance.now();
  const saved = { weights: await be.getWeights(), optimizer: await be.getOptimizerState() };
  const start = formsOf(be);
  const k = be.ctx.kernels;
  const combos = ladder(start, (f) => (f.reduction !== 'subgroup' || k.has('layernorm_forward_sg')) && (f.attention !== 'tiled' || k.has('attention_forward_tiled')));
  const failures: SelfCheckReport['failures'] = [];
  let passed: { forms: Forms; c: Comparer; kernels: number } | null = null;
  try {
    for (let i = 0; i < combos.length && !passed; i++) {
      o.onProgress?.(i, combos.length);
      setForms(be, combos[i]);
      await be.setWeights(saved.weights);
      await be.setOptimizerState({ step: 0, m: new Float32Array(saved.weights.length), v: new Float32Array(saved.weights.length) });
      await be.snapshotReference();
      const ref = new ReferenceBackend(be.config, saved.weights);
      await ref.snapshotReference();
      const c = new Comparer();
      const trace: NonNullable<typeof be.ctx.ops.trace> = [];
      be.ctx.ops.trace = trace;
      try {
        await compareOnce(be, ref, c);
      } catch (e) {
        c.first ??= `error: ${(e as Error).message.slice(0, 120)}`;
        c.worst = Infinity;
      } finally {
        be.ctx.ops.trace = null;
      }
      if (c.first === null && c.worst <= 1) passed = { forms: combos[i], c, kernels: new Set(trace.map((d) => d.kernel)).size };
      else failures.push({ forms: combos[i], what: c.first ?? 'no numbers', worst: c.firstRatio || c.worst });
    }
  } finally {
    await be.setWeights(saved.weights);
    await be.setOptimizerState(saved.optimizer);
    await be.snapshotReference();
  }
  const forms = passed?.forms ?? start;
  setForms(be, forms);
  const ms = performance.now() - t0;
  const fmt = (x: number) => (Number.isFinite(x) ? (x >= 10 ? x.toFixed(0) : x.toPrecision(2)) : 'an infinite multiple of');
  let sentence: string;
  if (!passed) {
    sentence = `Self-check: no kernel form gave the CPU reference's numbers on this GPU (${failures[0]?.what ?? ''}), so the lab runs on the CPU reference.`;
  } else {
    const replaced = (Object.keys(LEVELS) as (keyof Forms)[]).filter((key) => forms[key] !== start[key])
      .map((key) => `${(WORDS[key] as Record<string, string>)[start[key]]} by ${(WORDS[key] as Record<string, string>)[forms[key]]}`);
    const why = failures[0] ? ` (${failures[0].what}, ${fmt(failures[0].worst)}× the tolerance)` : '';
    sentence = `Self-check: ${passed.kernels} kernels passed against the CPU reference, worst error ${passed.c.worstAbs.toExponential(0)} (${passed.c.worst.toPrecision(1)} of the tolerance)`
      + (replaced.length ? `; replaced ${replaced.join(' and ')}, which gave wrong numbers here${why}.` : '.');
  }
  return { ok: passed !== null, forms, kernels: passed?.kernels ?? 0, numbers: passed?.c.numbers ?? 0, worst: passed?.c.worst ?? Infinity, worstAbs: passed?.c.worstAbs ?? Infinity, failures, sentence, ms };
}
