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
 * `rows` are the run's rollout and update rows (prompts × G; DEFAULT_TUNE_ROWS when the caller
 * gives none); the choice is filed under their class (`tuneRowsClass`: 24 and 32 rows share one,
 * 32 and 256 do not).
 *
 * Timing, not compiling: the candidates' pipelines are compiled before the clock starts
 * (precompileCandidates starts it early, beside the self-check's CPU reference, and what is still
 * compiling is waited for), and a pipeline compiled later, when a form is set, is not charged
 * either: `budgetMs` is spent on runs only. Each form runs once untimed when it is set (its warm-up:
 * bind groups, buffers, the driver's first dispatch), then up to RUNS times, the fastest counting;
 * a form whose run is already DROP_FACTOR× the family's best is not run again. No form starts once
 * the budget is spent (one under way gets its warm-up and one timed run). A family with a form not
 * timed keeps its current form: the tune is unfinished, cached as such (`finished` false, each
 * family's `timed` and the forms' times so far), and the next visit's self-check times the rest,
 * keeping what was timed, until the record is final (tuneWithCache). The cache is per adapter,
 * browser version, model shape and rows class (`autotuneKey`; the lab's cache is IndexedDB,
 * src/persist/idb.ts). Within a visit, the rest of a tune cut short is timed in the lab's idle time,
 * one family at most per slice (tuneSlice, src/lab/idleTune.ts), the run's forms unchanged; and a run
 * of a rows class not timed yet this session gets the tune alone as it starts (retuneWithCache,
 * selfCheck.ts retune). Nothing here runs in a training step: a step only reads the forms it was left with.
 */
import type { ModelConfig } from '../model/config.ts';
import { Rng } from '../model/rng.ts';
import { BOS } from '../tasks/tokenizer.ts';
import type { WebGPUBackend } from './backend.ts';
import type { GpuContext } from './context.ts';
import { LEVELS, formsAvailable, formsOf, kernelForms, parseForms, applyForms, sameForms, wordFor, type FormFamily, type Forms } from './forms.ts';
import { formKernels } from './kernels.ts';

/** The families in the order they are tuned (the decode last: its slow form costs a CPU adapter most of the budget). */
export const TUNED_FAMILIES: FormFamily[] = ['matmul', 'reduction', 'attention', 'decode'];
/** Positions of the timed rollout: each costs the same (one pass per position), few keep a slow form cheap. */
export const DECODE_POSITIONS = 3;
/** Rows of the timed work when the caller does not say (the default lesson: 16 prompts × G = 2). */
export const DEFAULT_TUNE_ROWS = 32;
/** Timed runs of a form that is still in the race (the fastest counts), after its untimed warm-up. */
const RUNS = 3;
/** A form whose run is this many times the family's best so far is out after that run. */
const DROP_FACTOR = 1.5;

/** The rows class a tune is filed under: the next power of two (24 and 32 rows share one; 32 and 256 do not). */
export const tuneRowsClass = (rows: number): number => 2 ** Math.ceil(Math.log2(Math.max(1, rows)));

export interface TunedFamily {
  family: FormFamily;
  /** Each form this adapter has: the fastest of its timed runs, ms (null: not timed). */
  candidates: { form: string; ms: number | null }[];
  /** The fastest form; a family not timed keeps its current form (the one the self-check passed). */
  chosen: string;
  /** What was timed. */
  work: string;
  /** Every form was timed (false: the budget was spent first; the family keeps its current form, and a resumed tune times the forms without a time). */
  timed: boolean;
  /** Timed on an earlier visit, kept by this one's resumed tune. */
  earlier?: boolean;
}

export interface AutotuneReport {
  families: TunedFamily[];
  /** The forms chosen (the fastest per timed family, the current form of the others; the check then holds them to the CPU reference). */
  forms: Forms;
  /** Wall time of the timing (compiling not included); 0 when it came from the cache. */
  ms: number;
  /** Compiling the candidates' pipelines before the clock started (not charged to the budget); 0 from the cache. */
  compileMs: number;
  budgetMs: number;
  /** Rows of the timed work (the run's rollout and update rows). */
  rows: number;
  /** Every family timed: the cache keeps it as final. False: cut short by the budget; the next visit times the rest. */
  finished: boolean;
  /** 'timed' here and now (all or part of it: see each family's `earlier`), 'idle' (the latest family timed in the lab's idle time: tuneSlice), or 'cache' (a final record read back, for the same key). */
  source: 'timed' | 'idle' | 'cache';
  /** What the cache files it under: adapter, browser version, model shape, rows class. */
  key: string;
}

/** Where tuned forms are kept between visits (the lab's: IndexedDB). Failures must not throw. */
export interface AutotuneCache {
  get(key: string): Promise<unknown>;
  put(key: string, report: AutotuneReport): Promise<void>;
}

export interface AutotuneOptions {
  /** Timing bound, ms (default: 2000 on a CPU adapter such as SwiftShader, 500 on a GPU); compiling is not counted. */
  budgetMs?: number;
  /** Rows of the timed work: the run's rollout and update rows, prompts × G (default DEFAULT_TUNE_ROWS). */
  rows?: number;
  cache?: AutotuneCache;
  /** The browser and its version, for the key (default navigator.userAgent). */
  browser?: string;
  /** The candidates' compiling, started earlier (precompileCandidates): waited for before the clock starts. */
  compiling?: Promise<void>;
  /** An unfinished record of this key for the forms `be` runs: its timed families are kept, the others timed. */
  resume?: AutotuneReport | null;
  /** The most families timed by this call, the first ones not timed yet (default all): an idle-time slice times one (tuneSlice). */
  families?: number;
  /** True when the engine is wanted (a step waits for an idle-time slice): the timing ends after the run under way. */
  stop?: () => boolean;
  /** The clock (tests). */
  now?: () => number;
}

/** The cache's key: the adapter (vendor, architecture, device, description), the browser's version, the model's shape and the rows class. */
export function autotuneKey(be: Pick<WebGPUBackend, 'ctx' | 'config'>, o: Pick<AutotuneOptions, 'rows' | 'browser'> = {}): string {
  const info = (be.ctx.device as GPUDevice & { adapterInfo?: GPUAdapterInfo }).adapterInfo;
  const adapter = info ? [info.vendor, info.architecture, info.device, info.description].join(' / ') : be.ctx.description;
  const browser = o.browser ?? (globalThis.navigator as Navigator | undefined)?.userAgent ?? 'no browser';
  return JSON.stringify({ adapter, browser, model: be.config, rows: tuneRowsClass(o.rows ?? DEFAULT_TUNE_ROWS) });
}

/**
 * A cached report as read back (outside data): the report if it is one for `key`, else null. A
 * record from before families said whether they were timed counts a family as timed when every
 * form has a time (a tune cut short by its budget was once cached as final: it is resumed now).
 */
export function parseCachedReport(x: unknown, key: string): AutotuneReport | null {
  if (!x || typeof x !== 'object') return null;
  const r = x as Partial<AutotuneReport>;
  const forms = parseForms(r.forms);
  if (!forms || r.key !== key || !Array.isArray(r.families)) return null;
  const families = r.families.filter((f): f is TunedFamily => !!f && TUNED_FAMILIES.includes(f.family) && Array.isArray(f.candidates) && typeof f.chosen === 'string'
    && f.candidates.every((c) => !!c && typeof c.form === 'string' && (c.ms === null || (typeof c.ms === 'number' && c.ms >= 0))));
  if (families.length !== r.families.length) return null;
  const read = families.map((f) => ({ family: f.family, candidates: f.candidates, chosen: f.chosen, work: String(f.work ?? ''), timed: typeof f.timed === 'boolean' ? f.timed : f.candidates.every((c) => c.ms !== null) }));
  const finished = TUNED_FAMILIES.every((fam) => read.some((f) => f.family === fam && f.timed));
  const rows = typeof r.rows === 'number' && r.rows > 0 ? r.rows : DEFAULT_TUNE_ROWS;
  return { families: read, forms, ms: 0, compileMs: 0, budgetMs: Number(r.budgetMs) || 0, rows, finished, source: 'cache', key };
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
 * Compile the pipelines of every form the autotune may time for `families` from `be`'s forms, off
 * the page's thread (the self-check starts it before its CPU reference, which then runs beside it).
 */
export function precompileCandidates(be: WebGPUBackend, families: readonly FormFamily[] = TUNED_FAMILIES): Promise<void> {
  const forms = formsOf(be.ctx.ops);
  const names = new Set(families.flatMap((fam) => candidateForms(be, forms, fam).flatMap((f) => formKernels(kernelForms(f)))));
  return be.ctx.kernels.precompile([...names]).catch(() => {}); // a kernel that fails here fails again when timed, and is not chosen
}

/**
 * Time each family's forms on `be` (its weights and state are left as they were: sampling and a
 * gradient change neither) and leave it in the fastest forms. `be` runs the forms the self-check
 * passed; they are every family's first candidate. With `resume`, only the families it did not time.
 */
export async function autotune(be: WebGPUBackend, o: AutotuneOptions = {}): Promise<AutotuneReport> {
  const cpu = /swiftshader|llvmpipe|lavapipe|cpu/i.test(be.ctx.description);
  const budgetMs = o.budgetMs ?? (cpu ? 2000 : 500);
  const rows = o.rows ?? DEFAULT_TUNE_ROWS;
  const ops = be.ctx.ops;
  const best: Forms = formsOf(ops);
  const decode = decodeWork(be.config, rows);
  const work = familyWork(be.ctx, be.config, rows);
  const what = { ...work.what, decode: `a rollout of ${decode.prompts.length * decode.numGenerations} rows × ${decode.maxNewTokens} positions` };
  try {
    const tune = await runTune(TUNED_FAMILIES.map((family) => ({ family, forms: candidateForms(be, best, family).map((f) => f[family]), work: what[family] })), {
      compile: async (families) => { await o.compiling; await precompileCandidates(be, families); },
      prepare: async (family, form) => {
        const forms = { ...best, [family]: form } as Forms;
        await be.ctx.kernels.precompile(formKernels(kernelForms(forms))); // a kernel not compiled yet: not charged to the budget
        applyForms(ops, forms);
      },
      run: (family) => (family === 'decode' ? be.sample(decode).then(() => {}) : work.run(family)),
      chosen: (family, form) => { (best as Record<FormFamily, string>)[family] = form; },
      now: o.now ?? (() => performance.now()),
      stop: o.stop,
    }, { budgetMs, resume: o.resume ?? null, families: o.families });
    return { ...tune, forms: { ...best }, budgetMs, rows, source: 'timed', key: autotuneKey(be, o) };
  } finally {
    applyForms(ops, best);
    work.free();
  }
}

/** What the tune needs from an engine (autotune's are the real ones; the tests' run on a scripted clock). */
export interface TuneHooks {
  /** Compile every candidate of these families (before the clock starts). */
  compile: (families: FormFamily[]) => Promise<void>;
  /** Set `form` for `family`, the others at their best so far (compiling what is missing: not charged). */
  prepare: (family: FormFamily, form: string) => Promise<void>;
  /** One run of the family's timed work. */
  run: (family: FormFamily) => Promise<void>;
  /** The family's fastest, as soon as it is known (later families run beside it). */
  chosen: (family: FormFamily, form: string) => void;
  now: () => number;
  /** True when the engine is wanted elsewhere: no run starts after the one under way (a form not timed yet stays untimed). */
  stop?: () => boolean;
}

/** A family to time: its forms (the current one first), what is timed, and the forms an earlier visit timed (`known`, ms). */
export interface FamilySpec { family: FormFamily; forms: string[]; work: string; known?: Record<string, number> }

/**
 * The tune on `h`: the families `resume` timed are kept as they were (and the forms it timed of a
 * family cut short), the others' candidates are compiled, then the clock starts and the rest is
 * timed within `budgetMs` (timeForms). With `families`, only that many of the rest are timed (the
 * first ones); the others keep what `resume` had of them, untimed.
 */
export async function runTune(specs: FamilySpec[], h: TuneHooks, o: { budgetMs: number; resume: AutotuneReport | null; families?: number }): Promise<Pick<AutotuneReport, 'families' | 'ms' | 'compileMs' | 'finished'>> {
  const resumed = new Map((o.resume?.families ?? []).map((f) => [f.family, f]));
  const earlier = (s: FamilySpec) => (resumed.get(s.family)?.timed ? { ...resumed.get(s.family)!, earlier: true } : null);
  const known = (s: FamilySpec) => Object.fromEntries((resumed.get(s.family)?.candidates ?? []).filter((c) => c.ms !== null && s.forms.includes(c.form)).map((c) => [c.form, c.ms!]));
  const todo = specs.filter((s) => !earlier(s)).map((s) => ({ ...s, known: known(s) })).slice(0, o.families ?? specs.length);
  /** A family left for a later call: its forms timed so far, its first form kept. */
  const later = (s: FamilySpec): TunedFamily => ({ family: s.family, candidates: s.forms.map((form) => ({ form, ms: known(s)[form] ?? null })), chosen: s.forms[0], work: s.work, timed: false });
  const c0 = h.now();
  if (todo.length) await h.compile(todo.map((s) => s.family));
  const t0 = h.now();
  const timed = await timeForms(todo, { ...h, deadline: t0 + o.budgetMs });
  const families = specs.map((s) => earlier(s) ?? timed.find((f) => f.family === s.family) ?? later(s));
  return { families, ms: h.now() - t0, compileMs: t0 - c0, finished: families.every((f) => f.timed) };
}

/**
 * The timing loop: per family in order, each form not `known` yet, unless `deadline` has passed,
 * is prepared (set, compiled if need be: the time that takes moves the deadline), run once untimed
 * (its warm-up), then up to RUNS times — the first always, the others before the deadline — the
 * fastest run counting; a form DROP_FACTOR× the family's best so far after a run is out. A family
 * with a form not timed keeps its first form (`timed` false: a resumed tune times the rest).
 * `chosen` hears each timed family's fastest as soon as it is known. Once `stop` says so, no run
 * starts (an idle-time slice that a step waits for: the step waits for one run at most); a form
 * stopped before its first timed run stays untimed.
 */
export async function timeForms(families: FamilySpec[], h: Pick<TuneHooks, 'prepare' | 'run' | 'chosen' | 'now' | 'stop'> & { deadline: number }): Promise<TunedFamily[]> {
  const out: TunedFamily[] = [];
  let deadline = h.deadline;
  /** Set a form; its compiling is not charged to the budget. */
  const prepare = async (family: FormFamily, form: string) => {
    const t = h.now();
    await h.prepare(family, form);
    deadline += h.now() - t;
  };
  for (const { family, forms, work, known = {} } of families) {
    const candidates: TunedFamily['candidates'] = [];
    let [fastest, chosen] = [Infinity, forms[0]];
    for (const form of forms) {
      let ms: number | null = known[form] ?? null;
      if (ms === null && h.now() < deadline && !h.stop?.()) {
        await prepare(family, form);
        await h.run(family); // the warm-up, untimed
        ms = Infinity;
        for (let i = 0; i < RUNS && (i === 0 || h.now() < deadline) && !h.stop?.(); i++) {
          const t = h.now();
          await h.run(family);
          ms = Math.min(ms, h.now() - t);
          if (ms > DROP_FACTOR * fastest) break;
        }
        if (ms === Infinity) ms = null; // stopped after its warm-up: not timed
      }
      candidates.push({ form, ms });
      if (ms !== null && ms < fastest) [fastest, chosen] = [ms, form];
    }
    const timed = candidates.every((c) => c.ms !== null);
    if (timed) {
      await prepare(family, chosen);
      h.chosen(family, chosen);
    }
    out.push({ family, candidates, chosen: timed ? chosen : forms[0], work, timed });
  }
  return out;
}

/** A failure of the check (selfCheck.ts): its forms, what disagreed first, by how much. */
type CheckFailure = { forms: Forms; what: string; worst: number };

/**
 * The self-check's tune, once `passed` has passed it, with the cache: a final record for these
 * forms is used as it is (nothing timed); an unfinished one for these forms is resumed (its timed
 * families kept, the others timed); otherwise every family is timed. A choice other than `passed`
 * is kept only if it passes `check` too (the CPU reference). The result is cached as it is: final
 * when every family was timed, else unfinished.
 */
export async function tuneWithCache(passed: Forms, cached: AutotuneReport | null, d: {
  key: string;
  cache?: AutotuneCache;
  time: (resume: AutotuneReport | null) => Promise<AutotuneReport>;
  check: (forms: Forms) => Promise<CheckFailure | null>;
}): Promise<{ report: AutotuneReport; failed: CheckFailure | null }> {
  const mine = cached && sameForms(passed, cached.forms) ? cached : null;
  if (mine?.finished) return { report: mine, failed: null };
  let report = await d.time(mine);
  const failed = sameForms(report.forms, passed) ? null : await d.check(report.forms);
  // the forms that passed stay, and each family's record says so (its times still listed)
  if (failed) report = { ...report, forms: passed, families: report.families.map((f) => ({ ...f, chosen: passed[f.family] })) };
  await d.cache?.put(d.key, report).catch(() => {});
  return { report, failed };
}

/**
 * The tune for a run of other rows on an engine whose forms `known` passed this session's check
 * (selfCheck.ts retune): a record cached for these rows in other forms has them checked first
 * (they passed: they are the forms to time from, and a final record is used as it is; they
 * failed: `known` stays, and everything is timed from it), then tuneWithCache.
 */
export async function retuneWithCache(known: Forms, cached: AutotuneReport | null, d: Parameters<typeof tuneWithCache>[2]): Promise<{ report: AutotuneReport; failed: CheckFailure | null; cachedFailed: CheckFailure | null }> {
  let passed = known;
  let cachedFailed: CheckFailure | null = null;
  if (cached && !sameForms(cached.forms, known)) {
    cachedFailed = await d.check(cached.forms);
    if (!cachedFailed) passed = cached.forms;
  }
  return { ...(await tuneWithCache(passed, cachedFailed ? null : cached, d)), cachedFailed };
}

/**
 * One slice of an unfinished tune, in the lab's idle time (src/lab/idleTune.ts): the next family not
 * timed yet (`families`, default one), within `budgetMs`, resumed from the record cached for `be`'s
 * key and rows. The engine goes on running the forms it ran (a run never changes form mid-way: the
 * choice is checked against the CPU reference and taken when the next run starts, retune, or on the
 * next visit, selfCheck). The record is cached with the choice so far: each timed family's fastest.
 * Returns the record (unchanged when it was final), or null when there is none for this key.
 */
export async function tuneSlice(be: WebGPUBackend, o: AutotuneOptions & { cache: AutotuneCache }): Promise<AutotuneReport | null> {
  const key = autotuneKey(be, o);
  const rec = parseCachedReport(await o.cache.get(key).catch(() => null), key);
  if (!rec || rec.finished) return rec;
  const running = formsOf(be.ctx.ops);
  let r: AutotuneReport;
  try {
    r = await autotune(be, { ...o, resume: rec, families: o.families ?? 1 });
  } finally {
    applyForms(be.ctx.ops, running);
  }
  const forms = { ...running, ...Object.fromEntries(r.families.filter((f) => f.timed).map((f) => [f.family, f.chosen])) } as Forms;
  const report = { ...r, forms, source: 'idle' as const };
  await o.cache.put(key, report).catch(() => {});
  return report;
}

const msText = (ms: number | null) => (ms === null ? 'not timed' : ms < 10 ? `${ms.toFixed(2)} ms` : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
/** Each family in a word, for the sentence. */
const FAMILY_WORDS: Record<FormFamily, string> = { matmul: 'the matmul', reduction: 'the reductions', attention: 'the attention', decode: 'the decode' };
const listed = (xs: string[]) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/** For the engine's Details: which families were timed (and when), each one's chosen form and every form's time, and which kept a default. */
export function autotuneSentence(r: AutotuneReport): string {
  const timed = r.families.filter((f) => f.timed);
  const kept = r.families.filter((f) => !f.timed);
  const names = (fs: TunedFamily[]) => listed(fs.map((f) => FAMILY_WORDS[f.family]));
  const times = (cs: TunedFamily['candidates']) => cs.map((c) => `${c.form} ${msText(c.ms)}`).join(', ');
  const parts = timed.map((f) => {
    const others = times(f.candidates.filter((c) => c.form !== f.chosen));
    return `${wordFor(f.family, f.chosen as never)} (${msText(f.candidates.find((c) => c.form === f.chosen)?.ms ?? null)}${others ? `; ${others}` : ''})`;
  });
  const before = timed.filter((f) => f.earlier);
  const spent = `${msText(r.ms)} of timing, budget ${msText(r.budgetMs)}${r.compileMs >= 1 ? `, after ${msText(r.compileMs)} of compiling` : ''}`;
  const how = r.source === 'cache' ? 'earlier (not timed again: on an earlier visit, or in this one\'s idle time)' : r.source === 'idle' ? 'with the latest of them in the lab\'s idle time' : before.length ? `(${names(before)} on an earlier visit; this visit: ${spent})` : `now (${spent})`;
  let s = timed.length ? `Kernel forms timed on this GPU for ${r.rows} rows ${how}, the fastest that passed kept: ${parts.join('; ')}.` : `Kernel forms: no family fully timed on this GPU for ${r.rows} rows yet (${spent}).`;
  if (kept.length) {
    const which = listed(kept.map((f) => {
      const soFar = f.candidates.filter((c) => c.ms !== null);
      return `${FAMILY_WORDS[f.family]}${soFar.length ? ` (so far ${times(soFar)})` : ''}`;
    }));
    const defaults = listed(kept.map((f) => wordFor(f.family, f.chosen as never)));
    s += ` ${which[0].toUpperCase()}${which.slice(1)} ${kept.length > 1 ? 'were' : 'was'} not timed within the budget: ${kept.length > 1 ? 'they keep their defaults' : 'it keeps its default'} (${defaults}) until ${kept.length > 1 ? 'they are' : 'it is'} timed, in the lab's idle time or on the next visit.`;
  }
  return s;
}
