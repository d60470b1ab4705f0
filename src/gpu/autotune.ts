/**
 * Autotune: once the self-check has passed (selfCheck.ts), each kernel family's forms are timed
 * on this adapter with the run's own shapes — as cuDNN, TVM or ONNX Runtime pick a kernel on the
 * device they run on — and the fastest is kept (the self-check then runs again with the new
 * combination; a form that gives wrong numbers there is not kept). Families, in this order, each
 * timed with the others at their best so far:
 *
 *   matmul      tiled | direct | plain      the MLP's first layer forward (nn) and backward (nt, tn)
 *                                           and the LM head, on N = rows × seqLen tokens
 *   reduction   subgroup | workgroup | row  LayerNorm forward + backward over D, the fused
 *                                           log-softmax + gradient over V, on N rows
 *   attention   tiled | row                 attention forward + backward, `rows` × seqLen
 *   decode      fused | ops                 a rollout of `rows` rows × DECODE_POSITIONS positions (sample)
 *
 * Bounded: the whole tune, the compiling of the forms not yet compiled included (precompileCandidates
 * starts it early, beside the self-check's CPU reference), stops at
 * `budgetMs` (a form not reached keeps its family's current form and is listed with ms null);
 * a form whose first run is already DROP_FACTOR× the family's best is not run again. The choice is
 * cached per adapter, browser version and model shape (`autotuneKey`; the lab's cache is
 * IndexedDB, src/persist/idb.ts), so the next visit checks the cached forms and times nothing.
 * Nothing here runs in a training step: a step only reads the forms it was left with.
 */
import type { ModelConfig } from '../model/config.ts';
import { Rng } from '../model/rng.ts';
import { BOS } from '../tasks/tokenizer.ts';
import type { WebGPUBackend } from './backend.ts';
import type { GpuContext } from './context.ts';
import { LEVELS, formsAvailable, formsOf, kernelForms, parseForms, applyForms, wordFor, type FormFamily, type Forms } from './forms.ts';
import { formKernels } from './kernels.ts';

/** The families in the order they are tuned (the decode last: its slow form costs a CPU adapter most of the budget). */
export const TUNED_FAMILIES: FormFamily[] = ['matmul', 'reduction', 'attention', 'decode'];
/** Positions of the timed rollout: each costs the same (one pass per position), few keep a slow form cheap. */
export const DECODE_POSITIONS = 3;
/** Rows of the timed work when the caller does not say (the default lesson: 16 prompts × G = 2). */
export const DEFAULT_TUNE_ROWS = 32;
/** Timed runs of a form that is still in the race (the fastest counts). */
const RUNS = 3;
/** A form whose run is this many times the family's best so far is out after that run. */
const DROP_FACTOR = 1.5;

export interface TunedFamily {
  family: FormFamily;
  /** Each form this adapter has: the fastest of its runs, ms (null: not reached within the budget). */
  candidates: { form: string; ms: number | null }[];
  chosen: string;
  /** What was timed. */
  work: string;
}

export interface AutotuneReport {
  families: TunedFamily[];
  /** The forms chosen (the fastest per family; the check then holds them to the CPU reference). */
  forms: Forms;
  /** Wall time of the tune (compiling included); 0 when it came from the cache. */
  ms: number;
  budgetMs: number;
  /** 'timed' here and now, or 'cache' (an earlier visit's, for the same key). */
  source: 'timed' | 'cache';
  /** What the cache files it under: adapter, browser version, model shape, rows. */
  key: string;
}

/** Where tuned forms are kept between visits (the lab's: IndexedDB). Failures must not throw. */
export interface AutotuneCache {
  get(key: string): Promise<unknown>;
  put(key: string, report: AutotuneReport): Promise<void>;
}

export interface AutotuneOptions {
  /** Total wall-time bound, ms (default: 2000 on a CPU adapter such as SwiftShader, 500 on a GPU). */
  budgetMs?: number;
  /** Rows of the timed work (the run's rollout rows: prompts × G). */
  rows?: number;
  cache?: AutotuneCache;
  /** The browser and its version, for the key (default navigator.userAgent). */
  browser?: string;
  /** The candidates' compiling, started earlier (precompileCandidates): waited for inside the budget. */
  compiling?: Promise<void>;
  /** The clock (tests). */
  now?: () => number;
}

/** The cache's key: the adapter (vendor, architecture, device, description), the browser's version, the model's shape and the timed rows. */
export function autotuneKey(be: WebGPUBackend, o: Pick<AutotuneOptions, 'rows' | 'browser'> = {}): string {
  const info = (be.ctx.device as GPUDevice & { adapterInfo?: GPUAdapterInfo }).adapterInfo;
  const adapter = info ? [info.vendor, info.architecture, info.device, info.description].join(' / ') : be.ctx.description;
  const browser = o.browser ?? (globalThis.navigator as Navigator | undefined)?.userAgent ?? 'no browser';
  return JSON.stringify({ adapter, browser, model: be.config, rows: o.rows ?? DEFAULT_TUNE_ROWS });
}

/** A cached report as read back (outside data): the report if it is one for `key`, else null. */
export function parseCachedReport(x: unknown, key: string): AutotuneReport | null {
  if (!x || typeof x !== 'object') return null;
  const r = x as Partial<AutotuneReport>;
  const forms = parseForms(r.forms);
  if (!forms || r.key !== key || !Array.isArray(r.families)) return null;
  const families = r.families.filter((f): f is TunedFamily => !!f && TUNED_FAMILIES.includes(f.family) && Array.isArray(f.candidates) && typeof f.chosen === 'string'
    && f.candidates.every((c) => !!c && typeof c.form === 'string' && (c.ms === null || (typeof c.ms === 'number' && c.ms >= 0))));
  if (families.length !== r.families.length) return null;
  return { families, forms, ms: 0, budgetMs: Number(r.budgetMs) || 0, source: 'cache', key };
}

/** The timed rollout: `rows` rows from 2-token prompts, DECODE_POSITIONS new tokens each. */
function decodeWork(config: ModelConfig, rows: number) {
  const G = 2;
  const prompts = Array.from({ length: Math.max(1, Math.ceil(rows / G)) }, (_, i) => [BOS, 3 + (i % (config.vocabSize - 3))]);
  return { prompts, numGenerations: G, temperature: 1, maxNewTokens: Math.min(DECODE_POSITIONS, config.seqLen - 2), seed: 7, stream: 0 };
}

/**
 * The matmul, reduction and attention families' work on the training shapes (B = rows, T = seqLen,
 * N = B·T), recorded straight through Ops on scratch buffers of random numbers; `free` destroys them.
 */
function familyWork(ctx: GpuContext, config: ModelConfig, rows: number) {
  const { seqLen: T, dModel: D, nHeads: H, vocabSize: V } = config;
  const B = rows;
  const N = B * T;
  const rng = new Rng(20260507);
  const made: GPUBuffer[] = [];
  const rand = (n: number) => { const b = ctx.upload('autotune', Float32Array.from({ length: n }, () => rng.normal())); made.push(b); return b; };
  const zero = (n: number) => { const b = ctx.arena.storage('autotune', n); made.push(b); return b; };
  const [x, w, h, dh, wl, logits, dlogits] = [rand(N * D), rand(D * 4 * D), zero(N * 4 * D), rand(N * 4 * D), rand(D * V), zero(N * V), zero(N * V)];
  const [dx, dw, gamma, beta, mean, rstd, dg, db] = [zero(N * D), zero(D * 4 * D), rand(D), rand(D), zero(N), zero(N), zero(D), zero(D)];
  const [qkv, att, dpre, dqkv, lp, ent, gl, ge] = [rand(N * 3 * D), zero(B * H * T * T), zero(B * H * T * T), zero(N * 3 * D), zero(N), zero(N), rand(N), rand(N)];
  const targets = ctx.upload('autotune', Int32Array.from({ length: N }, (_, i) => (i * 7) % V));
  const mask = ctx.upload('autotune', new Float32Array(N).fill(1));
  made.push(targets, mask);
  const o = ctx.ops;
  const record: Record<Exclude<FormFamily, 'decode'>, (p: GPUComputePassEncoder) => void> = {
    matmul: (p) => {
      o.matmulForward(p, h, x, w, null, N, D, 4 * D);
      o.matmulNT(p, dx, dh, w, N, 4 * D, D);
      o.matmulTN(p, dw, x, dh, D, N, 4 * D);
      o.matmulForward(p, logits, x, wl, null, N, D, V);
    },
    reduction: (p) => {
      o.layernormForward(p, dx, mean, rstd, x, gamma, beta, N, D);
      o.layernormBackward(p, dx, dg, db, x, x, gamma, mean, rstd, N, D);
      o.logsoftmaxFused(p, lp, ent, dlogits, logits, targets, mask, gl, ge, 1, N, V);
    },
    attention: (p) => {
      o.attentionForward(p, h, att, qkv, B, T, D, H);
      o.attentionBackward(p, dqkv, dpre, h, qkv, att, B, T, D, H);
    },
  };
  const what = {
    matmul: `the MLP's first layer forward and backward and the LM head on ${N} tokens (D ${D}, V ${V})`,
    reduction: `LayerNorm forward + backward (C ${D}) and the log-softmax + gradient (V ${V}) on ${N} rows`,
    attention: `attention forward + backward, ${B} rows × ${T} positions (D ${D}, H ${H})`,
  };
  const run = async (family: Exclude<FormFamily, 'decode'>) => { await ctx.run(record[family], [{ buffer: mean, floats: 4 }]); };
  return { run, what, free: () => { for (const b of made) ctx.arena.destroy(b); } };
}

/** Every form any family could switch to from `forms`. */
function candidateForms(be: WebGPUBackend, forms: Forms, family: FormFamily): Forms[] {
  return [forms[family], ...(LEVELS[family] as string[]).filter((f) => f !== forms[family])]
    .map((f) => ({ ...forms, [family]: f }) as Forms).filter((f) => formsAvailable(be.ctx.kernels, f));
}

/**
 * Compile the kernels of every form the autotune may time from `be`'s forms, off the page's thread
 * (the self-check starts it before its CPU reference, which then runs beside it).
 */
export function precompileCandidates(be: WebGPUBackend): Promise<void> {
  const forms = formsOf(be.ctx.ops);
  const names = new Set(TUNED_FAMILIES.flatMap((fam) => candidateForms(be, forms, fam).flatMap((f) => formKernels(kernelForms(f)))));
  return be.ctx.kernels.precompile([...names]).catch(() => {}); // a kernel that fails here fails again when timed, and is not chosen
}

/**
 * Time each family's forms on `be` (its weights and state are left as they were: sampling and a
 * gradient change neither) and leave it in the fastest forms. `be` runs the forms the self-check
 * passed; they are every family's first candidate.
 */
export async function autotune(be: WebGPUBackend, o: AutotuneOptions = {}): Promise<AutotuneReport> {
  const now = o.now ?? (() => performance.now());
  const t0 = now();
  const cpu = /swiftshader|llvmpipe|lavapipe|cpu/i.test(be.ctx.description);
  const budgetMs = o.budgetMs ?? (cpu ? 2000 : 500);
  const rows = o.rows ?? DEFAULT_TUNE_ROWS;
  const key = autotuneKey(be, o);
  const ops = be.ctx.ops;
  const best: Forms = formsOf(ops);
  const decode = decodeWork(be.config, rows);
  const work = familyWork(be.ctx, be.config, rows);
  const what = { ...work.what, decode: `a rollout of ${decode.prompts.length * decode.numGenerations} rows × ${decode.maxNewTokens} positions` };
  const run = (family: FormFamily) => (family === 'decode' ? be.sample(decode).then(() => {}) : work.run(family));
  // the candidates' compiling, waited for within the budget only: where it outlasts it (SwiftShader), no form is timed and the tune ends at the deadline
  if (o.compiling) await Promise.race([o.compiling, new Promise<void>((r) => setTimeout(r, Math.max(0, t0 + budgetMs - now())))]);
  let families: TunedFamily[] = [];
  try {
    families = await timeForms(TUNED_FAMILIES.map((family) => ({ family, forms: candidateForms(be, best, family).map((f) => f[family]), work: what[family] })), {
      prepare: async (family, form) => {
        const forms = { ...best, [family]: form } as Forms;
        await be.ctx.kernels.precompile(formKernels(kernelForms(forms))); // the form's kernels not compiled yet: inside the budget, outside its time
        applyForms(ops, forms);
      },
      run,
      chosen: (family, form) => { (best as Record<FormFamily, string>)[family] = form; },
      now, deadline: t0 + budgetMs,
    });
  } finally {
    applyForms(ops, best);
    work.free();
  }
  return { families, forms: { ...best }, ms: now() - t0, budgetMs, source: 'timed', key };
}

/**
 * The timing loop: per family in order, each form prepared (compiled, set) then run — the
 * family's first form once untimed (it warms what every form shares) — up to RUNS times, the
 * fastest run counting; a form DROP_FACTOR× the family's best so far after a run is out; from
 * `deadline` on nothing starts (a run under way finishes) and the forms not reached get ms null.
 * `chosen` hears each family's fastest as soon as it is known, so later families run beside it.
 */
export async function timeForms(
  families: { family: FormFamily; forms: string[]; work: string }[],
  h: { prepare: (family: FormFamily, form: string) => Promise<void>; run: (family: FormFamily) => Promise<void>; chosen: (family: FormFamily, form: string) => void; now: () => number; deadline: number },
): Promise<TunedFamily[]> {
  const out: TunedFamily[] = [];
  for (const { family, forms, work } of families) {
    const candidates: TunedFamily['candidates'] = [];
    let [fastest, chosen] = [Infinity, forms[0]];
    for (const form of forms) {
      if (h.now() >= h.deadline) { candidates.push({ form, ms: null }); continue; }
      await h.prepare(family, form);
      if (candidates.length === 0) await h.run(family);
      let ms = Infinity;
      for (let i = 0; i < RUNS && h.now() < h.deadline; i++) {
        const t = h.now();
        await h.run(family);
        ms = Math.min(ms, h.now() - t);
        if (ms > DROP_FACTOR * fastest) break;
      }
      candidates.push({ form, ms: Number.isFinite(ms) ? ms : null });
      if (ms < fastest) [fastest, chosen] = [ms, form];
    }
    await h.prepare(family, chosen);
    h.chosen(family, chosen);
    out.push({ family, candidates, chosen, work });
  }
  return out;
}

const msText = (ms: number | null) => (ms === null ? 'not reached' : ms < 10 ? `${ms.toFixed(2)} ms` : `${Math.round(ms)} ms`);

/** For the engine's Details: each family's chosen form and every form's time. */
export function autotuneSentence(r: AutotuneReport): string {
  const parts = r.families.map((f) => {
    const others = f.candidates.filter((c) => c.form !== f.chosen).map((c) => `${c.form} ${msText(c.ms)}`).join(', ');
    const mine = f.candidates.find((c) => c.form === f.chosen)?.ms ?? null;
    return `${wordFor(f.family, f.chosen as never)} (${msText(mine)}${others ? `; ${others}` : ''})`;
  });
  const how = r.source === 'cache' ? 'timed on this GPU on an earlier visit (not timed again)' : `timed on this GPU in ${msText(r.ms)}`;
  return `Kernel forms ${how}, the fastest that passed kept: ${parts.join('; ')}.`;
}
