/**
 * Browser-side body of `npm run bench` (scripts/bench.ts) for the WGSL engine: one training
 * step, one rollout, one full GRPO step and the matmul kernels, each timed with
 * performance.now() around work that ends in a readback (so the GPU has finished).
 *
 * Figures and their formulas:
 *   step_ms        wall time of backend.trainStep (upload, forward, cross-entropy, backward,
 *                  grad-norm clip, AdamW, one readback of the metrics)
 *   tokens_per_s   B·T / step time
 *   gflops         trainingFlops / step time, with
 *                  trainingFlops = 3·forwardFlops (backward ≈ 2× forward), and
 *                  forwardFlops = 2·N·(12·L·D² + D·V) + 4·L·B·T²·D        (N = B·T; the first
 *                  term is the linear layers (qkv 3D², proj D², fc 4D², fc2 4D²) and the LM head,
 *                  the second QKᵀ and A·V over the full T×T score matrix)
 *   dispatches     compute dispatches recorded per step (Ops.dispatches)
 *   sample_ms      one backend.sample of R rows from a 1-token prompt (BOS) for T−1 new tokens
 *                  (the whole KV-cache decode in one submit, one readback)
 *   readbacks      GPUBuffer.mapAsync calls, counted by wrapping the prototype
 */
import { DEFAULT_ADAMW } from '../../model/backend.ts';
import type { TokenBatch } from '../../model/backend.ts';
import { CONFIGS } from '../../model/config.ts';
import type { ModelConfig } from '../../model/config.ts';
import { Rng } from '../../model/rng.ts';
import { BOS, VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { createWebGPUBackend } from '../backend.ts';
import type { WebGPUBackend } from '../backend.ts';
import { GpuContext } from '../context.ts';
import { Profiler } from '../profiler.ts';
import type { Profile } from '../profiler.ts';

/** The bench's named configurations: model shape plus the training batch size B. */
export const BENCH_CONFIGS = {
  tiny: { model: { vocabSize: VOCAB_SIZE, ...CONFIGS.tiny }, batch: 64 },
  small: { model: { vocabSize: VOCAB_SIZE, ...CONFIGS.small }, batch: 32 },
} as const satisfies Record<string, { model: ModelConfig; batch: number }>;
export type BenchConfigName = keyof typeof BENCH_CONFIGS;

/** forwardFlops = 2·N·(12·L·D² + D·V) + 4·L·B·T²·D (see the file comment). */
export function forwardFlops(c: ModelConfig, B: number, T: number): number {
  const { dModel: D, nLayers: L, vocabSize: V } = c;
  const N = B * T;
  return 2 * N * (12 * L * D * D + D * V) + 4 * L * B * T * T * D;
}

/** One training step is forward + backward ≈ 3 forwards. */
export const trainingFlops = (c: ModelConfig, B: number, T: number) => 3 * forwardFlops(c, B, T);

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** A deterministic cross-entropy batch of random tokens, every position scored. */
export function randomBatch(seed: number, B: number, T: number, V: number): TokenBatch {
  const rng = new Rng(seed);
  const inputs = Int32Array.from({ length: B * T }, () => 4 + rng.int(V - 4));
  const targets = Int32Array.from({ length: B * T }, () => 4 + rng.int(V - 4));
  return { B, T, inputs, targets, mask: new Float32Array(B * T).fill(1) };
}

/** Counts GPUBuffer.mapAsync calls while `f` runs (readbacks). */
export async function countReadbacks<T>(f: () => Promise<T>): Promise<{ value: T; readbacks: number }> {
  const orig = GPUBuffer.prototype.mapAsync;
  let n = 0;
  GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, ...args: Parameters<GPUBuffer['mapAsync']>) {
    n++;
    return orig.apply(this, args);
  };
  try {
    return { value: await f(), readbacks: n };
  } finally {
    GPUBuffer.prototype.mapAsync = orig;
  }
}

export async function adapterInfo(): Promise<{ vendor: string; architecture: string; device: string; description: string; features: string[]; swiftshader: boolean }> {
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('no WebGPU adapter');
  const i = adapter.info;
  const features = [...adapter.features].sort();
  return {
    vendor: i.vendor, architecture: i.architecture, device: i.device, description: i.description, features,
    swiftshader: /swiftshader/i.test(`${i.architecture} ${i.description} ${i.device}`),
  };
}

export interface TrainStepBench {
  config: ModelConfig;
  B: number;
  T: number;
  reps: number;
  step_ms: number[];
  step_ms_median: number;
  step_ms_min: number;
  tokens_per_s: number;
  gflops: number;
  flops_per_step: number;
  dispatches_per_step: number;
  readbacks_per_step: number;
  /** Per-kernel-family GPU times of one step (timestamp queries or CPU replay timing). */
  profile: Profile | null;
}

/** Time `reps` training steps (after one warm-up step) of model `config` on a B×T batch. */
export async function benchTrainStep(config: ModelConfig, B: number, T: number, reps: number, opts: { profile?: boolean } = {}): Promise<TrainStepBench> {
  const be = await createWebGPUBackend(config, { seed: 1, limits: 'adapter', timestamps: true });
  try {
    const batch = randomBatch(2, B, T, config.vocabSize);
    const opt = { ...DEFAULT_ADAMW, lr: 1e-3 };
    await be.trainStep(batch, { kind: 'ce' }, opt);
    const times: number[] = [];
    let dispatches = 0;
    let readbacks = 0;
    for (let i = 0; i < reps; i++) {
      const d0 = be.ctx.ops.dispatches;
      const t0 = performance.now();
      readbacks = (await countReadbacks(() => be.trainStep(batch, { kind: 'ce' }, opt))).readbacks;
      times.push(performance.now() - t0);
      dispatches = be.ctx.ops.dispatches - d0;
    }
    const profile = opts.profile ? await new Profiler(be).profileTrainStep(batch, opt) : null;
    if (be.ctx.errors.length) throw new Error(`WebGPU errors: ${be.ctx.errors.join('; ')}`);
    const med = median(times);
    const flops = trainingFlops(config, B, T);
    return {
      config, B, T, reps, step_ms: times, step_ms_median: med, step_ms_min: Math.min(...times),
      tokens_per_s: (B * T) / (med / 1000), gflops: flops / (med / 1000) / 1e9, flops_per_step: flops,
      dispatches_per_step: dispatches, readbacks_per_step: readbacks, profile,
    };
  } finally {
    be.dispose();
  }
}

export interface SampleBench {
  rows: number;
  newTokens: number;
  reps: number;
  sample_ms: number[];
  sample_ms_median: number;
  sample_ms_min: number;
  readbacks: number;
  submits: number;
}

/** Time `reps` rollouts of R rows from BOS for T−1 new tokens at temperature 1 (after a warm-up). */
export async function benchSample(config: ModelConfig, R: number, reps: number, be0?: WebGPUBackend): Promise<SampleBench> {
  const be = be0 ?? (await createWebGPUBackend(config, { seed: 1, limits: 'adapter' }));
  try {
    const newTokens = config.seqLen - 1;
    // R identical one-token prompts, G = 1: every row decodes all positions (until EOS)
    const req = (stream: number) => ({ prompts: Array.from({ length: R }, () => [BOS]), numGenerations: 1, temperature: 1, maxNewTokens: newTokens, seed: 3, stream });
    await be.sample(req(0));
    const q = GPUQueue.prototype;
    const origSubmit = q.submit;
    let submits = 0;
    let readbacks = 0;
    const times: number[] = [];
    for (let i = 0; i < reps; i++) {
      submits = 0;
      q.submit = function (this: GPUQueue, cbs: Iterable<GPUCommandBuffer>) {
        submits++;
        return origSubmit.call(this, cbs);
      };
      try {
        const t0 = performance.now();
        readbacks = (await countReadbacks(() => be.sample(req(1 + i)))).readbacks;
        times.push(performance.now() - t0);
      } finally {
        q.submit = origSubmit;
      }
    }
    return { rows: R, newTokens, reps, sample_ms: times, sample_ms_median: median(times), sample_ms_min: Math.min(...times), readbacks, submits };
  } finally {
    if (!be0) be.dispose();
  }
}

export interface GrpoStepBench {
  lesson: string;
  task: string;
  prompts: number;
  G: number;
  /** µ: inner epochs of the update (the lesson's own unless the caller set it). */
  mu: number;
  reps: number;
  ms: number[];
  ms_median: number;
  rollout_ms: number;
  verify_ms: number;
  update_ms: number;
  /** Wall time not inside rollout, verify or update: advantages, batch packing, metrics. */
  other_ms: number;
  readbacks: number;
  tokens_generated: number;
}

/**
 * Time `reps` full GRPO steps (GrpoTrainer.trainStep: rollout → verify → advantages → update)
 * of the lab's default lesson on model `config`, after one warm-up step. Phase times are the
 * trainer's own (rollout_ms, verify_ms, update_ms), medians over the steps. `mu` sets µ (the
 * update's inner epochs; default the lesson's).
 */
export async function benchGrpoStep(config: ModelConfig, reps: number, mu?: number): Promise<GrpoStepBench> {
  const [{ GrpoTrainer }, { LESSONS, lessonSettings }, { defaultSettings }] = await Promise.all([
    import('../../rl/trainer.ts'),
    import('../../rl/lessons.ts'),
    import('../../rl/settings.ts'),
  ]);
  const lesson = LESSONS[0];
  const settings = { ...lessonSettings(lesson, defaultSettings()), ...(mu ? { numIterations: mu } : {}) };
  const be = await createWebGPUBackend(config, { seed: 1, limits: 'adapter' });
  try {
    const trainer = new GrpoTrainer(be, settings, { evalSize: 8 });
    await trainer.trainStep();
    const rows: { ms: number; rollout: number; verify: number; update: number; readbacks: number; tokens: number }[] = [];
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      const { value, readbacks } = await countReadbacks(() => trainer.trainStep());
      const m = value.metrics;
      rows.push({ ms: performance.now() - t0, rollout: m.rollout_ms, verify: m.verify_ms, update: m.update_ms, readbacks, tokens: m.tokens_generated });
    }
    const med = (k: keyof (typeof rows)[number]) => median(rows.map((r) => r[k]));
    const ms = med('ms');
    return {
      lesson: lesson.id, task: settings.task, prompts: settings.promptsPerStep, G: settings.numGenerations, mu: settings.numIterations, reps,
      ms: rows.map((r) => r.ms), ms_median: ms, rollout_ms: med('rollout'), verify_ms: med('verify'), update_ms: med('update'),
      other_ms: ms - med('rollout') - med('verify') - med('update'), readbacks: Math.max(...rows.map((r) => r.readbacks)), tokens_generated: med('tokens'),
    };
  } finally {
    be.dispose();
  }
}

/** The kernel forms a GPU adapter takes (GpuContext.create): the forms the traffic is counted in. */
export const GPU_FORMS = { matmulForm: 'tiled', reductionForm: 'workgroup', attentionForm: 'tiled', decodeForm: 'fused' } as const;
export type CountedForms = { matmulForm: 'tiled' | 'direct'; reductionForm: 'row' | 'workgroup' | 'subgroup'; attentionForm: 'tiled' | 'row'; decodeForm: 'fused' | 'ops' };

/** GPU traffic of one GRPO step of the default lesson at each µ: what stays on the GPU. */
export interface GrpoTrafficRow {
  mu: number;
  /** The decode form counted (Ops.decodeForm). */
  decode_form: 'fused' | 'ops';
  /** Every kernel form counted (GPU_FORMS unless the caller chose others). */
  forms: CountedForms;
  /** queue.submit calls in the whole step (rollout + update; the verifier and advantages are CPU-only). */
  submits: number;
  /** buffer.mapAsync readbacks in the whole step. */
  readbacks: number;
  /** Compute dispatches recorded in the whole step (sampling's per-position dispatches included). */
  dispatches: number;
  /** Of them, in the rollout (the KV-cache decode of every prompt × G rows). */
  rollout_dispatches: number;
  /** Of them, in the update (µ epochs of forward, loss, backward, clip and AdamW, π_ref once). */
  update_dispatches: number;
  /**
   * One held-out evaluation (greedy decode of the trainer's evalSize prompts), counted on its
   * own: a step pays it every evalEvery steps, and `dispatches` counts it only when this step did.
   */
  evaluation_dispatches: number;
  /** Whether the counted step included its evaluation. */
  evaluation_in_step: boolean;
}

/**
 * Submits, readbacks and dispatches of one GRPO step (the default lesson) at µ = 1, 2, 4, after a
 * warm-up step, in the kernel forms a GPU runs (`forms`, default GPU_FORMS: the fused decode, L + 1
 * dispatches per decode position; the tiled attention, one backward dispatch per layer; the
 * workgroup-tree reductions, whose clip and AdamW are one dispatch), whatever this adapter's own
 * choice: a CPU adapter such as SwiftShader runs the row forms and decodes op by op (7L + 4), faster there.
 */
export async function benchGrpoTraffic(config: ModelConfig, mus: number[] = [1, 2, 4], forms: CountedForms = GPU_FORMS): Promise<GrpoTrafficRow[]> {
  const [{ GrpoTrainer }, { LESSONS, lessonSettings }, { defaultSettings }, { installGpuCounters }] = await Promise.all([
    import('../../rl/trainer.ts'),
    import('../../rl/lessons.ts'),
    import('../../rl/settings.ts'),
    import('../testing/counters.ts'),
  ]);
  const rows: GrpoTrafficRow[] = [];
  for (const mu of mus) {
    const settings = { ...lessonSettings(LESSONS[0], defaultSettings()), numIterations: mu };
    const be = await createWebGPUBackend(config, { seed: 1, limits: 'adapter', ...forms });
    try {
      const trainer = new GrpoTrainer(be, settings, { evalSize: 8 });
      await trainer.trainStep();
      const { counts, restore } = installGpuCounters();
      const ops = be.ctx.ops;
      const d0 = ops.dispatches;
      let [dRollout, dUpdate, dEval, mark] = [0, 0, -1, d0];
      try {
        for await (const ph of trainer.runStep()) {
          if (ph.kind === 'rollout') dRollout = ops.dispatches - d0;
          if (ph.kind === 'advantages' || ph.kind === 'metrics') mark = ops.dispatches;
          if (ph.kind === 'update') dUpdate = ops.dispatches - mark;
          if (ph.kind === 'evaluation') dEval = ops.dispatches - mark;
        }
      } finally {
        restore();
      }
      const dispatches = ops.dispatches - d0;
      const inStep = dEval >= 0;
      if (!inStep) {
        const e0 = ops.dispatches;
        await trainer.evaluate();
        dEval = ops.dispatches - e0;
      }
      rows.push({ mu, decode_form: forms.decodeForm, forms, submits: counts.submits, readbacks: counts.maps, dispatches, rollout_dispatches: dRollout, update_dispatches: dUpdate, evaluation_dispatches: dEval, evaluation_in_step: inStep });
    } finally {
      be.dispose();
    }
  }
  return rows;
}

/**
 * Where a GRPO step's GPU time goes (the default lesson at µ, after a warm-up step): the
 * profiler (src/gpu/profiler.ts) replays one real step's dispatches per phase (rollout, forward,
 * loss, backward, optimizer) and per kernel family. Null where the adapter has no
 * 'timestamp-query' unless `cpuClock` (the CPU clock around each replay: slow on SwiftShader,
 * and includes each submit's fixed cost).
 */
export async function profileGrpoStep(config: ModelConfig, mu: number, cpuClock = false): Promise<Pick<Profile, 'label' | 'source' | 'wallMs' | 'gpuMs' | 'dispatches' | 'phases' | 'families'> | null> {
  const [{ GrpoTrainer }, { LESSONS, lessonSettings }, { defaultSettings }] = await Promise.all([
    import('../../rl/trainer.ts'),
    import('../../rl/lessons.ts'),
    import('../../rl/settings.ts'),
  ]);
  const settings = { ...lessonSettings(LESSONS[0], defaultSettings()), numIterations: mu };
  const be = await createWebGPUBackend(config, { seed: 1, limits: 'adapter', timestamps: true });
  const profiler = new Profiler(be, cpuClock ? { maxRepeat: 4 } : {});
  try {
    if (profiler.source !== 'timestamp-query' && !cpuClock) return null;
    const trainer = new GrpoTrainer(be, settings, { evalSize: 8 });
    await trainer.trainStep();
    be.reserve(settings.promptsPerStep * settings.numGenerations); // the profiled step allocates nothing its replay would miss
    const p = await profiler.profile(`GRPO step (${LESSONS[0].id}, µ = ${mu})`, () => trainer.trainStep());
    return { label: p.label, source: p.source, wallMs: p.wallMs, gpuMs: p.gpuMs, dispatches: p.dispatches, phases: p.phases, families: p.families };
  } finally {
    profiler.destroy();
    be.dispose();
  }
}

export interface MatmulBench {
  M: number;
  K: number;
  N: number;
  /** GFLOP/s = 2·M·K·N / time, per kernel. */
  /** maxAbsDiff: max |kernel − float64 CPU product| (NaN if the kernel left outputs unwritten). */
  /** ms: fastest of the repetitions (gflops from it), ms_median: their median. */
  rows: { kernel: string; ms: number; ms_median: number; gflops: number; maxAbsDiff: number }[];
  /** The form the engine uses on this adapter. */
  engineForm: 'tiled' | 'direct';
  /** GFLOP/s of the engine's register-blocked NN kernel ÷ GFLOP/s of the plain vec4 kernel. */
  speedup: number;
}

/**
 * The matmul kernels on one M×K×N problem, each dispatched `inner` times per submit and timed
 * over `reps` submits: the register-blocked tiles (matmul_nn/nt/tn) against the plain vec4
 * kernel (matmul_nn_plain: one output per invocation, vec4 loads along K). All results are
 * checked against a float64 CPU product.
 */
export async function benchMatmul(M: number, K: number, N: number, reps: number, inner: number): Promise<MatmulBench> {
  const ctx = await GpuContext.create({ limits: 'adapter' });
  try {
    const rng = new Rng(7);
    const a = Float32Array.from({ length: M * K }, () => rng.normal());
    const b = Float32Array.from({ length: K * N }, () => rng.normal());
    const bA = ctx.upload('A', a);
    const bB = ctx.upload('B', b);
    const bAt = ctx.upload('At', transpose(a, M, K));
    const bBt = ctx.upload('Bt', transpose(b, K, N));
    const out = ctx.arena.storage('C', M * N);
    const o = ctx.ops;
    const defaultForm = o.matmulForm;
    const kernels: [string, (p: GPUComputePassEncoder) => void][] = [
      ['plain vec4 (1 output/invocation)', (p) => o.matmulPlain(p, out, bA, bBt, M, K, N)],
    ];
    for (const form of ['tiled', 'direct'] as const) {
      const f = (rec: (p: GPUComputePassEncoder) => void) => (p: GPUComputePassEncoder) => {
        o.matmulForm = form;
        rec(p);
      };
      kernels.push(
        [`nn ${form} (4x4 register block, vec4)`, f((p) => o.matmulForward(p, out, bA, bB, null, M, K, N))],
        [`nt ${form} (4x4 register block, vec4)`, f((p) => o.matmulNT(p, out, bA, bBt, M, K, N))],
        [`tn ${form} (4x4 register block, vec4)`, f((p) => o.matmulTN(p, out, bAt, bB, M, K, N))],
      );
    }
    const rows: MatmulBench['rows'] = [];
    // CPU reference (float64 sums) that every kernel's output is checked against
    const refOut = new Float64Array(M * N);
    for (let m = 0; m < M; m++) {
      for (let k = 0; k < K; k++) {
        const x = a[m * K + k];
        for (let n = 0; n < N; n++) refOut[m * N + n] += x * b[k * N + n];
      }
    }
    const poison = new Float32Array(M * N).fill(NaN);
    for (const [kernel, rec] of kernels) {
      ctx.device.queue.writeBuffer(out, 0, poison); // a kernel that writes nothing shows as NaN
      const [c] = await ctx.run(rec, [{ buffer: out, floats: M * N }]);
      let maxAbsDiff = 0;
      for (let i = 0; i < c.length; i++) {
        const d = Math.abs(c[i] - refOut[i]);
        maxAbsDiff = d <= maxAbsDiff ? maxAbsDiff : d; // NaN propagates
      }
      const times: number[] = [];
      for (let r = 0; r < reps; r++) {
        const t0 = performance.now();
        await ctx.run((p) => { for (let i = 0; i < inner; i++) rec(p); }, [{ buffer: out, floats: 4 }]);
        times.push((performance.now() - t0) / inner);
      }
      // the fastest repetition: least disturbed by other work on a shared machine
      const ms = Math.min(...times);
      rows.push({ kernel, ms, ms_median: median(times), gflops: (2 * M * K * N) / (ms / 1000) / 1e9, maxAbsDiff });
    }
    if (ctx.errors.length) throw new Error(`WebGPU errors: ${ctx.errors.join('; ')}`);
    const nnEngine = rows.find((r) => r.kernel.startsWith(`nn ${defaultForm}`))!;
    return { M, K, N, rows, engineForm: defaultForm, speedup: nnEngine.gflops / rows[0].gflops };
  } finally {
    ctx.destroy();
  }
}

function transpose(x: Float32Array, R: number, C: number): Float32Array {
  const y = new Float32Array(R * C);
  for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) y[c * R + r] = x[r * C + c];
  return y;
}

/** The named configurations, for the bench script. */
export async function benchConfigs(): Promise<typeof BENCH_CONFIGS> {
  return BENCH_CONFIGS;
}

export interface ReductionBench {
  N: number;
  C: number;
  V: number;
  /** ms per recording (fastest repetition), per kernel and form. */
  rows: { kernel: string; form: string; ms: number }[];
  /** The form the engine uses on this adapter. */
  engineForm: string;
}

/**
 * The row-reduction kernels in each form this device has (one row per invocation, one row per
 * workgroup with a workgroup-memory tree, subgroupAdd), on N rows: LayerNorm forward +
 * backward dx over C columns, and the fused log-softmax + gradient over V logits.
 */
export async function benchReductions(N: number, C: number, V: number, reps: number, inner: number): Promise<ReductionBench> {
  const ctx = await GpuContext.create({ limits: 'adapter' });
  try {
    const o = ctx.ops;
    const engineForm = o.reductionForm;
    const rng = new Rng(9);
    const randn = (n: number) => Float32Array.from({ length: n }, () => rng.normal());
    const [inp, gamma, beta, dout] = [ctx.upload('inp', randn(N * C)), ctx.upload('g', randn(C)), ctx.upload('b', randn(C)), ctx.upload('dout', randn(N * C))];
    const [out, mean, rstd, dinp, dg, db] = [N * C, N, N, N * C, C, C].map((n) => ctx.arena.storage('o', n));
    const logits = ctx.upload('logits', randn(N * V));
    const targets = ctx.upload('targets', Int32Array.from({ length: N }, () => rng.int(V)));
    const mask = ctx.upload('mask', new Float32Array(N).fill(1));
    const gl = ctx.upload('gl', new Float32Array(N).fill(-1 / N));
    const ge = ctx.upload('ge', new Float32Array(N));
    const [lp, ent, dl] = [N, N, N * V].map((n) => ctx.arena.storage('s', n));
    const forms = (['row', 'workgroup', 'subgroup'] as const).filter((f) => f !== 'subgroup' || ctx.kernels.has('layernorm_forward_sg'));
    const rows: ReductionBench['rows'] = [];
    const time = async (rec: (p: GPUComputePassEncoder) => void) => {
      await ctx.run(rec, [{ buffer: mean, floats: 4 }]);
      const xs: number[] = [];
      for (let r = 0; r < reps; r++) {
        const t0 = performance.now();
        await ctx.run((p) => { for (let i = 0; i < inner; i++) rec(p); }, [{ buffer: mean, floats: 4 }]);
        xs.push((performance.now() - t0) / inner);
      }
      return Math.min(...xs);
    };
    for (const form of forms) {
      o.reductionForm = form;
      rows.push({ kernel: `layernorm fwd + bwd: dx, dγ, dβ (N${N} C${C})`, form, ms: await time((p) => {
        o.layernormForward(p, out, mean, rstd, inp, gamma, beta, N, C);
        o.layernormBackward(p, dinp, dg, db, dout, inp, gamma, mean, rstd, N, C);
      }) });
      if (form !== 'subgroup') {
        rows.push({ kernel: `log-softmax + gradient, fused (N${N} V${V})`, form, ms: await time((p) => o.logsoftmaxFused(p, lp, ent, dl, logits, targets, mask, gl, ge, 1, N, V)) });
        rows.push({ kernel: `log-softmax then gradient, separate (N${N} V${V})`, form, ms: await time((p) => {
          o.logsoftmaxForward(p, lp, ent, logits, targets, mask, 1, N, V);
          o.logitsBackward(p, dl, logits, targets, gl, ge, 1, N, V);
        }) });
      }
    }
    if (ctx.errors.length) throw new Error(`WebGPU errors: ${ctx.errors.join('; ')}`);
    return { N, C, V, rows, engineForm };
  } finally {
    ctx.destroy();
  }
}

export interface AttentionBench {
  /** ms per recording (fastest repetition), per shape and form: forward, backward, both in one pass. */
  rows: { shape: string; rows: number; form: 'row' | 'tiled'; forward_ms: number; backward_ms: number; fwd_bwd_ms: number; dispatches: number; maxAbsDiff: number }[];
  /** The form the engine uses on this adapter. */
  engineForm: 'row' | 'tiled';
}

/**
 * Causal attention forward + backward in both forms (row: one query row per invocation, K and V
 * read from storage, backward in two dispatches; tiled: 64-row query tiles with K/V tiles through
 * workgroup memory, backward in one dispatch per head) at each [B, T, D, H] (the bench configs'
 * training shapes: B·H·T query rows). maxAbsDiff: max |tiled − row| over out, att and dqkv.
 */
export async function benchAttention(shapes: [number, number, number, number][], reps: number, inner: number): Promise<AttentionBench> {
  const ctx = await GpuContext.create({ limits: 'adapter' });
  try {
    const o = ctx.ops;
    const engineForm = o.attentionForm;
    const rng = new Rng(11);
    const rows: AttentionBench['rows'] = [];
    for (const [B, T, D, H] of shapes) {
      const qkv = ctx.upload('qkv', Float32Array.from({ length: B * T * 3 * D }, () => rng.normal()));
      const dout = ctx.upload('dout', Float32Array.from({ length: B * T * D }, () => rng.normal()));
      const [out, att, dpre, dqkv] = [B * T * D, B * H * T * T, B * H * T * T, B * T * 3 * D].map((n) => ctx.arena.storage('a', n));
      const time = async (rec: (p: GPUComputePassEncoder) => void) => {
        await ctx.run(rec, [{ buffer: out, floats: 4 }]);
        const xs: number[] = [];
        for (let r = 0; r < reps; r++) {
          const t0 = performance.now();
          await ctx.run((p) => { for (let i = 0; i < inner; i++) rec(p); }, [{ buffer: out, floats: 4 }]);
          xs.push((performance.now() - t0) / inner);
        }
        return Math.min(...xs);
      };
      const results: Float32Array[][] = [];
      for (const form of ['row', 'tiled'] as const) {
        o.attentionForm = form;
        const fwd = (p: GPUComputePassEncoder) => o.attentionForward(p, out, att, qkv, B, T, D, H);
        const bwd = (p: GPUComputePassEncoder) => o.attentionBackward(p, dqkv, dpre, dout, qkv, att, B, T, D, H);
        const d0 = o.dispatches;
        results.push(await ctx.run((p) => { fwd(p); bwd(p); }, [{ buffer: out, floats: B * T * D }, { buffer: att, floats: B * H * T * T }, { buffer: dqkv, floats: B * T * 3 * D }]));
        const dispatches = o.dispatches - d0;
        const forward_ms = await time(fwd);
        const backward_ms = await time(bwd);
        const fwd_bwd_ms = await time((p) => { fwd(p); bwd(p); });
        rows.push({ shape: `B${B} T${T} D${D} H${H}`, rows: B * H * T, form, forward_ms, backward_ms, fwd_bwd_ms, dispatches, maxAbsDiff: 0 });
      }
      let d = 0;
      for (let k = 0; k < 3; k++) for (let i = 0; i < results[0][k].length; i++) { const x = Math.abs(results[0][k][i] - results[1][k][i]); d = x <= d ? d : x; }
      rows.at(-1)!.maxAbsDiff = d;
      for (const b of [qkv, dout, out, att, dpre, dqkv]) ctx.arena.destroy(b);
    }
    o.attentionForm = engineForm;
    if (ctx.errors.length) throw new Error(`WebGPU errors: ${ctx.errors.join('; ')}`);
    return { rows, engineForm };
  } finally {
    ctx.destroy();
  }
}

export interface AutotuneBench {
  /** Per family: each form's time (ms, null: not reached within the budget) and the one chosen. */
  autotune: { family: string; candidates: { form: string; ms: number | null }[]; chosen: string; work: string }[];
  /** Whether the self-check passed (with the forms chosen). */
  check_ok: boolean;
  check_ms: number;
  /** The tune's timing (compiling not included), and the candidates' compiling before it. */
  tune_ms: number;
  compile_ms: number;
  budget_ms: number;
  /** Every family timed within the budget (false: the ones not timed kept their form; a later visit times them). */
  finished: boolean;
  /** The forms the engine runs after the check and the tune. */
  forms: Record<string, string>;
  /** The tuned combination, if it gave wrong numbers (the checked forms were kept). */
  tuned_failure: string | null;
}

/** The lab's start-up on this adapter: the self-check, then the autotune (no cache: it always times), for `rows` rollout rows of `config`. */
export async function benchAutotune(config: ModelConfig, rows: number, budgetMs?: number): Promise<AutotuneBench> {
  const { selfCheck } = await import('../selfCheck.ts');
  const be = await createWebGPUBackend(config, { seed: 1, limits: 'adapter' });
  try {
    const r = await selfCheck(be, { autotune: { rows, budgetMs } });
    const t = r.autotune;
    return {
      autotune: (t?.families ?? []).map((f) => ({ family: f.family, candidates: f.candidates, chosen: f.chosen, work: f.work })),
      check_ok: r.ok, check_ms: r.ms, tune_ms: t?.ms ?? 0, compile_ms: t?.compileMs ?? 0, budget_ms: t?.budgetMs ?? 0, finished: t?.finished ?? false, forms: { ...r.forms }, tuned_failure: r.tunedFailure?.what ?? null,
    };
  } finally {
    be.dispose();
  }
}
