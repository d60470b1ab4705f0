/**
 * The engine checks itself on the user's adapter before the first step: the WebGPU engine and
 * the CPU reference run the same work from the same weights, and every number must agree within
 * SELF_CHECK_ATOL·max|ref| + SELF_CHECK_RTOL·|ref| (the absolute part scaled to its tensor, so
 * small gradients are held to their own scale). What it covers, in order (the first tensor that
 * disagrees stops the pass and names itself):
 *
 *   attention at T = 1024/hs + 66, as an op   output; dq, dk, dv — past one 64-row query tile and
 *                                             one K/V tile of the tiled form (the model's own T of
 *                                             24–32 never takes a second tile), or the row form
 *   forward of a batch as long as the model   per-token log-probs and entropies (τ = 0.9)
 *   the gradient of every loss form           loss, every parameter's gradient: grpo / dr_grpo /
 *                                             dapo, token and sequence ratio (GSPO, also at its own
 *                                             clip range), k1 and k3, entropy bonus on and off,
 *                                             β = 0 without the reference forward; cross-entropy
 *   a two-epoch update (grpo, k3, KL leash)   each epoch's loss, norm and metrics; AdamW m, v; weights
 *   sampling from the updated policy          greedy and τ = 0.7 (the rollouts' branch, at a τ
 *                                             where dividing by it matters) with the same draws:
 *                                             each token's log-prob against the reference's after
 *                                             the same prefix first, then the token; a token that
 *                                             differs only at a bin edge (SAMPLE_TIE) is a
 *                                             near-tie, not a failure
 *
 * The tolerance is tight enough that a 1 % error in a kernel fails at the first tensor it makes
 * (e2e/gpu-self-check.spec.ts: LayerNorm 8×, the fused GELU 3.5× in the forward log-probs;
 * LayerNorm's backward 37× in the first gradient, at the gradients' tenfold tolerance; the
 * attention 90× in its output; GSPO's ratio 90× in the loss); healthy engines sit at ≤ 0.1 of it.
 * The CPU reference's numbers are computed once per check.
 *
 * It runs with exactly the kernel forms the engine picked for this adapter. A form that gives
 * wrong numbers is replaced by the next safer one — matmul: tiled (workgroup memory) → direct
 * (no barriers) → plain (scalar kernels); row reductions: subgroup → workgroup tree → one row
 * per invocation; attention: tiled (K/V through workgroup memory) → one row per invocation —
 * and the check runs again. The fused decode block (decode_block.wgsl) runs none of those forms:
 * when a combination fails at its sampling with the fused decode, the same combination runs again
 * with the op-by-op decode (Ops.decodeForm 'ops'), which every later combination keeps (the fused
 * decode gives the same numbers whatever the other forms). When every family changed alone has
 * failed, the safest combination is tried next: if the same tensor fails there by the same margin,
 * the fault is in a kernel every form shares (sampling, the losses, AdamW) and no mix is tried.
 * The engine's weights and AdamW state are put back afterwards. If no combination passes, the
 * caller runs the CPU reference. The lab
 * runs it once per adapter and model shape in a session (src/lab/engine.ts CheckedAdapters), its
 * autotune at the run's rows (prompts × G); a run of another rows class on an engine checked in
 * this session gets the tune alone at its rows (retune), not the whole check again.
 *
 * Split by job: this file walks the ladder of forms (and hands the passing forms to the autotune,
 * autotune.ts); selfCheckWork.ts runs the work on both engines; selfCheckCompare.ts holds the
 * tolerances and the comparison; selfCheckSampling.ts what is sampled.
 */
import { Comparer, Mismatch } from '../model/selfCheckCompare.ts';
import type { WebGPUBackend } from './backend.ts';
import { LEVELS, WORDS, formsAvailable, formsOf, applyForms, sameForms, wordFor, type FormFamily, type Forms } from './forms.ts';
import { autotune, autotuneKey, autotuneSentence, parseCachedReport, precompileCandidates, retuneWithCache, tuneWithCache, type AutotuneOptions, type AutotuneReport } from './autotune.ts';
import { compareOnce, referenceRun } from './selfCheckWork.ts';

/** The families of the ladder (the decode has its own step: see selfCheck). */
type Family = Exclude<FormFamily, 'decode'>;
const LADDER: Family[] = ['matmul', 'reduction', 'attention'];

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
  /** Per tensor of the passing check, in order: what, how many numbers, worst ratio (the coverage table). */
  tensors: { what: string; numbers: number; worst: number }[];
  /** Sampled tokens that differed from the reference's at a bin edge (near-ties, not failures). */
  nearTies: number;
  /** Whole check, and the CPU reference's part of it (computed once). */
  ms: number;
  referenceMs: number;
  /** Each family's forms timed here (or cached from an earlier visit) and the chosen ones; null without `autotune`. */
  autotune: AutotuneReport | null;
  /** The autotune's fastest combination, when it gave wrong numbers (the forms checked before it were kept). */
  tunedFailure: { forms: Forms; what: string; worst: number } | null;
}

const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** Run `be` with these kernel forms (ones a self-check on this adapter chose). */
export function setForms(be: WebGPUBackend, f: Forms): void {
  applyForms(be.ctx.ops, f);
}

/** How many kernel families `f` runs in another form than `start`. */
const changedFamilies = (f: Forms, start: Forms) => LADDER.filter((k) => f[k] !== start[k]).length;

/**
 * The combinations to try: the adapter's own first, then each family alone one step safer at a
 * time (a broken tiled matmul should cost only the matmul), then every mix of safer forms, the
 * fewest families changed first; the safest combination last.
 */
function ladder(start: Forms, available: (f: Forms) => boolean): Forms[] {
  const keys = LADDER;
  const levels = LEVELS as Record<Family, string[]>;
  const from = (k: Family) => levels[k].slice(levels[k].indexOf(start[k]));
  let all: Forms[] = [{ ...start }];
  for (const k of keys) all = all.flatMap((f) => from(k).map((v) => ({ ...f, [k]: v })));
  const changed = (f: Forms) => changedFamilies(f, start);
  const depth = (f: Forms) => keys.reduce((a, k) => a + levels[k].indexOf(f[k]), 0);
  const first = (f: Forms) => keys.findIndex((k) => f[k] !== start[k]);
  return all.filter(available).sort((a, b) => changed(a) - changed(b) || first(a) - first(b) || depth(a) - depth(b));
}

/** The tensor a failure names (its text up to the detail: "[i] …" or "row r token i …"). */
const failedTensor = (what: string) => what.replace(/ (\[\d+\]|row \d+|\d+ (numbers|rows)).*$/, '');
/**
 * Two failures are one fault when the same tensor failed by the same margin (within a quarter):
 * rounding differs between forms, a broken kernel's error does not move with them.
 */
function sameFault(a: { what: string; worst: number } | undefined, b: { what: string; worst: number }): boolean {
  if (!a || failedTensor(a.what) !== failedTensor(b.what)) return false;
  if (!Number.isFinite(a.worst) || !Number.isFinite(b.worst)) return a.worst === b.worst;
  return Math.max(a.worst, b.worst) <= 1.25 * Math.min(a.worst, b.worst);
}

export interface SelfCheckOptions {
  onProgress?: (tried: number, total: number) => void;
  /**
   * Once the check passes, time each family's forms here and keep the fastest that passes it too
   * (autotune.ts), on `autotune.rows` rows (the run's prompts × G). With a cache: forms cached for
   * this adapter, browser, model and rows class are checked first; when they pass and their record
   * is final nothing is timed, when it is unfinished (an earlier tune cut short) the families it
   * did not time are timed now.
   */
  autotune?: AutotuneOptions;
}

/** One run of the check with forms `f` from `weights` (the engine's weights, AdamW state and π_ref are left as the check left them). */
async function checkForms(be: WebGPUBackend, reference: Awaited<ReturnType<typeof referenceRun>>, weights: Float32Array, f: Forms) {
  applyForms(be.ctx.ops, f);
  await be.setWeights(weights);
  await be.setOptimizerState({ step: 0, m: new Float32Array(weights.length), v: new Float32Array(weights.length) });
  await be.snapshotReference();
  const c = new Comparer(reference);
  const trace: NonNullable<typeof be.ctx.ops.trace> = [];
  const at = { sampling: false };
  be.ctx.ops.trace = trace;
  try {
    await compareOnce(be, reference, c, at);
  } catch (e) {
    if (!(e instanceof Mismatch)) {
      c.first ??= `error: ${(e as Error).message.slice(0, 120)}`;
      c.worst = Infinity;
    }
  } finally {
    be.ctx.ops.trace = null;
  }
  if (c.first === null && c.worst <= 1) return { ok: true, c, kernels: new Set(trace.map((d) => d.kernel)).size, fusedDecodeFailed: false, failure: null };
  const failure = { forms: f, what: c.first ?? 'no numbers', worst: c.firstRatio || c.worst };
  const fusedRan = trace.some((d) => d.kernel === 'decode_block') || c.first?.startsWith('error: ');
  return { ok: false, c, kernels: 0, fusedDecodeFailed: at.sampling && f.decode === 'fused' && !!fusedRan, failure };
}

/**
 * Check `be` against the CPU reference from its current weights, replacing failing kernel forms
 * by safer ones; `be`'s weights, AdamW state and π_ref come back as they were. The reference's
 * numbers are computed once and compared with each combination of forms tried (and with the
 * autotune's choice, when it differs from the forms that passed).
 */
export async function selfCheck(be: WebGPUBackend, o: SelfCheckOptions = {}): Promise<SelfCheckReport> {
  const t0 = performance.now();
  const saved = { weights: await be.getWeights(), optimizer: await be.getOptimizerState() };
  const k = be.ctx.kernels;
  const tuneKey = o.autotune ? autotuneKey(be, o.autotune) : '';
  const cached = o.autotune?.cache ? parseCachedReport(await o.autotune.cache.get(tuneKey).catch(() => null), tuneKey) : null;
  if (cached && formsAvailable(k, cached.forms)) applyForms(be.ctx.ops, cached.forms);
  const start = formsOf(be.ctx.ops);
  const combos = ladder(start, (f) => formsAvailable(k, f));
  const failures: SelfCheckReport['failures'] = [];
  let passed: { forms: Forms; c: Comparer; kernels: number } | null = null;
  let shared = false;
  // the forms the autotune may time compile off the page's thread while the CPU reference runs
  const compiling = o.autotune && !cached?.finished ? precompileCandidates(be) : undefined;
  const r0 = performance.now();
  const reference = await referenceRun(be.config, saved.weights);
  const referenceMs = performance.now() - r0;
  /** One run of the check with forms `f`: what disagreed first (null: passed), whether it got to the sampling and ran the fused decode. */
  const attempt = async (f: Forms) => {
    const r = await checkForms(be, reference, saved.weights, f);
    if (r.failure) failures.push(r.failure);
    return r;
  };
  let tuned: AutotuneReport | null = null;
  /** The tuned forms that gave wrong numbers (the ones that passed before them are kept). */
  let tunedFailed: SelfCheckReport['failures'][number] | null = null;
  /** The forms the ladder settled on, before the autotune. */
  let ladderForms: Forms | null = null;
  try {
    // the fused decode runs none of the ladder's forms: once it fails at the sampling it fails in
    // every combination, so the same combination runs again with the op-by-op decode, kept from then on
    let decode = start.decode;
    let probed: Awaited<ReturnType<typeof attempt>> | null = null;
    /** How the adapter's own combination failed (with the decode kept from then on). */
    let adapters: SelfCheckReport['failures'][number] | undefined;
    const safest = combos.length - 1;
    for (let i = 0; i < combos.length && !passed; i++) {
      o.onProgress?.(i, combos.length);
      // every family changed alone failed: probe the safest combination (every family changed) now;
      // the same tensor failing by the same margin there is a fault in a kernel every form shares
      if (i > 0 && i < safest && changedFamilies(combos[i], start) > 1 && !probed) {
        probed = await attempt({ ...combos[safest], decode });
        if (!probed.ok && sameFault(adapters, failures[failures.length - 1])) {
          shared = true;
          break;
        }
      }
      let f: Forms = { ...combos[i], decode };
      let r = i === safest && probed ? probed : await attempt(f);
      if (!r.ok && r.fusedDecodeFailed) {
        decode = 'ops';
        f = { ...f, decode };
        r = await attempt(f);
      }
      if (r.ok) passed = { forms: f, c: r.c, kernels: r.kernels };
      if (i === 0) adapters = failures[failures.length - 1];
    }
    ladderForms = passed?.forms ?? null;
    // a final record for the forms that passed: nothing to time; else time (or resume timing) here, and check the fastest
    if (passed && o.autotune) {
      const checked = passed;
      const t = await tuneWithCache(checked.forms, cached, {
        key: tuneKey, cache: o.autotune.cache,
        time: async (resume) => {
          applyForms(be.ctx.ops, checked.forms);
          await be.setWeights(saved.weights);
          return autotune(be, { ...o.autotune, compiling, resume });
        },
        check: async (f) => {
          const r = await attempt(f);
          if (!r.ok) return failures.pop()!;
          passed = { forms: f, c: r.c, kernels: r.kernels };
          return null;
        },
      });
      [tuned, tunedFailed] = [t.report, t.failed];
    }
  } finally {
    await be.setWeights(saved.weights);
    await be.setOptimizerState(saved.optimizer);
    await be.snapshotReference();
  }
  const forms = passed?.forms ?? start;
  applyForms(be.ctx.ops, forms);
  const ms = performance.now() - t0;
  const fmt = (x: number) => (Number.isFinite(x) ? (x >= 10 ? x.toFixed(0) : x.toPrecision(2)) : 'an infinite multiple of');
  let sentence: string;
  if (!passed) {
    sentence = shared
      ? `Self-check: a kernel that every form shares gave wrong numbers on this GPU (${failures[0]?.what ?? ''}; the same with the safest form of each), so the lab runs on the CPU reference.`
      : `Self-check: no kernel form gave the CPU reference's numbers on this GPU (${failures[0]?.what ?? ''}), so the lab runs on the CPU reference.`;
  } else {
    // what replaced the forms checked first, for wrong numbers (a tuned choice is not a replacement)
    const checkedForms = ladderForms ?? forms;
    const replaced = (Object.keys(WORDS) as FormFamily[]).filter((key) => checkedForms[key] !== start[key]).map((key) => `${wordFor(key, start[key] as never)} by ${wordFor(key, checkedForms[key] as never)}`);
    const why = failures[0] ? ` (${failures[0].what}, ${fmt(failures[0].worst)}× the tolerance)` : '';
    sentence = `Self-check: ${passed.kernels} kernels passed against the CPU reference in ${seconds(ms)}, worst error ${passed.c.worstAbs.toExponential(0)} (${passed.c.worst.toPrecision(1)} of the tolerance)`
      + (replaced.length ? `; replaced ${replaced.join(' and ')}, which gave wrong numbers here${why}.` : '.');
    if (tuned) sentence += ` ${autotuneSentence(tuned)}`;
    if (tunedFailed) sentence += ` The fastest combination gave wrong numbers (${tunedFailed.what}), so the forms checked first stay.`;
  }
  return {
    ok: passed !== null, forms, kernels: passed?.kernels ?? 0, numbers: passed?.c.numbers ?? 0, worst: passed?.c.worst ?? Infinity, worstAbs: passed?.c.worstAbs ?? Infinity,
    tensors: passed?.c.tensors ?? [], nearTies: passed?.c.nearTies ?? 0, failures, sentence, ms, referenceMs, autotune: tuned, tunedFailure: tunedFailed,
  };
}

/**
 * The kernel forms for a run of other rows on an engine whose check passed in this session
 * (`known`: that check's report, at another rows class): no ladder, the tune alone at `o.rows`
 * (autotune.ts retuneWithCache) — a record cached for these rows is used (its forms checked first
 * when they differ from the ones that passed), else the forms are timed (an unfinished record
 * resumed), and a choice other than the forms that passed is kept only if it passes the check too.
 * The CPU reference is computed only when a check is needed. `be`'s weights, AdamW state and
 * π_ref come back as they were (π_ref as a copy of the weights: the lab calls it before a run takes its π_ref).
 */
export async function retune(be: WebGPUBackend, known: SelfCheckReport, o: AutotuneOptions): Promise<SelfCheckReport> {
  const t0 = performance.now();
  const saved = { weights: await be.getWeights(), optimizer: await be.getOptimizerState() };
  const k = be.ctx.kernels;
  const key = autotuneKey(be, o);
  const read = o.cache ? parseCachedReport(await o.cache.get(key).catch(() => null), key) : null;
  const cached = read && formsAvailable(k, read.forms) ? read : null;
  let reference: Promise<Awaited<ReturnType<typeof referenceRun>>> | null = null;
  let referenceMs = 0;
  let passed = { forms: known.forms, kernels: known.kernels, numbers: known.numbers, worst: known.worst, worstAbs: known.worstAbs, tensors: known.tensors, nearTies: known.nearTies };
  let t: Awaited<ReturnType<typeof retuneWithCache>>;
  try {
    t = await retuneWithCache(known.forms, cached, {
      key, cache: o.cache,
      time: async (resume) => {
        applyForms(be.ctx.ops, resume?.forms ?? passed.forms);
        await be.setWeights(saved.weights);
        return autotune(be, { ...o, resume });
      },
      check: async (f) => {
        reference ??= (async () => { const r0 = performance.now(); const r = await referenceRun(be.config, saved.weights); referenceMs = performance.now() - r0; return r; })();
        const r = await checkForms(be, await reference, saved.weights, f);
        if (r.failure) return r.failure;
        passed = { forms: f, kernels: r.kernels, numbers: r.c.numbers, worst: r.c.worst, worstAbs: r.c.worstAbs, tensors: r.c.tensors, nearTies: r.c.nearTies };
        return null;
      },
    });
  } finally {
    await be.setWeights(saved.weights);
    await be.setOptimizerState(saved.optimizer);
    await be.snapshotReference();
  }
  const forms = t.report.forms; // a choice that failed the check is not in it: the forms that passed stay
  applyForms(be.ctx.ops, forms);
  if (!sameForms(passed.forms, forms)) passed = { ...known, forms };
  const failures = [t.cachedFailed, t.failed].filter((x): x is NonNullable<typeof x> => !!x);
  let sentence = autotuneSentence(t.report);
  if (t.failed) sentence += ` The fastest combination gave wrong numbers (${t.failed.what}), so the forms checked first stay.`;
  return { ...known, ...passed, forms, ok: true, failures, sentence, ms: performance.now() - t0, referenceMs, autotune: t.report, tunedFailure: t.failed };
}
