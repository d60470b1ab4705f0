/**
 * The CPU reference on several cores: data parallel over shards (one per worker), the batch split
 * by sequences.
 *
 *   coordinator (ParallelReferenceBackend, a ReferenceBackend)        shard k (ReplicaShard, in a worker)
 *     weights, AdamW state, π_ref, the objective                         a replica of the model
 *     forwardPass: rows [a_k, b_k) to shard k ─────────────────────────▶ forward on its rows
 *                 logprobs, entropy (π_ref's, exact KL) ◀────────────── (activations kept)
 *     the objective on the whole batch → dL/dlogp, dL/dH per token
 *     backwardPass: its rows' dL/dlogp, dL/dH ─────────────────────────▶ backward on its rows
 *                 Σ_k grads_k, k = 0, 1, … in this order ◀──────────── its gradient
 *     clip, AdamW, finite check (ReferenceBackend's own)
 *
 * Each shard's gradient is its rows' part of the single-thread backward, and they are added in
 * shard order: a run is the same for a given number of shards, and equal to the single-thread
 * reference within float tolerance (the order of the row sums differs). Sampling gives each
 * shard a slice of the rows (ReferenceBackend.sampleSlice): bit-identical to one thread.
 *
 * Shards are reached through an async interface: a worker in the page (src/worker/) or in
 * Node (scripts/bench.ts), or an object in this thread (the parity test). Nothing here knows
 * which; the weights go with each call (a copy per shard, small next to the step).
 */
import type { SampleRequest, SampleResult, TokenBatch } from '../backend.ts';
import type { ModelConfig } from '../config.ts';
import { ReferenceBackend, type ForwardTerms, type PassMode } from './backend.ts';

/** One shard of the data-parallel engine, as the coordinator sees it (every call async: a worker answers by message). */
export interface Shard {
  /** The forward of `part` (its rows of the batch) with these policy weights and, when it changed, π_ref; the activations stay for backward. */
  forward(part: TokenBatch, tau: number, mode: PassMode, policy: Float32Array, reference: Float32Array | null): Promise<ForwardTerms>;
  /** The gradient of the last forward's rows, from their dL/dlogp and dL/dH. */
  backward(gL: Float64Array, gE: Float64Array | null): Promise<Float32Array>;
  /** Rows [from, to) of sample(req) with these policy weights. */
  sample(req: SampleRequest, from: number, to: number, policy: Float32Array): Promise<SampleResult>;
}

/** Row ranges [a, b) of B rows over n shards: contiguous, as even as possible, the first ones one longer; none empty. */
export function splitRows(B: number, n: number): [number, number][] {
  const k = Math.max(1, Math.min(n, B));
  const out: [number, number][] = [];
  let a = 0;
  for (let i = 0; i < k; i++) {
    const b = a + Math.floor(B / k) + (i < B % k ? 1 : 0);
    out.push([a, b]);
    a = b;
  }
  return out;
}

/** Rows [a, b) of a batch (copies: they travel to a worker). */
function rowsOf(batch: TokenBatch, a: number, b: number): TokenBatch {
  const T = batch.T;
  return { B: b - a, T, inputs: batch.inputs.slice(a * T, b * T), targets: batch.targets.slice(a * T, b * T), mask: batch.mask.slice(a * T, b * T) };
}

function concat<A extends Float32Array | Float64Array>(parts: A[], make: (n: number) => A): A {
  const out = make(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** The arrays inside a shard's answer, for a worker to transfer rather than copy. */
export function buffersOf(x: ForwardTerms | Float32Array | SampleResult): ArrayBuffer[] {
  const arrays = x instanceof Float32Array ? [x] : 'tokens' in x ? [...x.tokens, ...x.logprobs] : [x.logprobs, x.entropy, x.refLogprobs, x.klRows];
  return arrays.filter((a) => a !== null).map((a) => a.buffer as ArrayBuffer);
}

/** A shard's work, on a replica of the model (in a worker: src/worker/cpuShard.worker.ts; in a test: this thread). */
export class ReplicaShard implements Shard {
  private readonly replica: ReferenceBackend;
  constructor(config: ModelConfig) {
    this.replica = ReferenceBackend.create(config, 0);
  }
  async forward(part: TokenBatch, tau: number, mode: PassMode, policy: Float32Array, reference: Float32Array | null): Promise<ForwardTerms> {
    if (reference) {
      await this.replica.setWeights(reference);
      await this.replica.snapshotReference();
    }
    await this.replica.setWeights(policy);
    return this.replica.forwardRows(part, tau, mode);
  }
  async backward(gL: Float64Array, gE: Float64Array | null): Promise<Float32Array> {
    const m = this.replica.model;
    m.zeroGrad();
    m.backward(gL, gE);
    return Float32Array.from(m.grads.subarray(0, this.replica.layout.total));
  }
  async sample(req: SampleRequest, from: number, to: number, policy: Float32Array): Promise<SampleResult> {
    await this.replica.setWeights(policy);
    return this.replica.sampleSlice(req, from, to);
  }
}

/**
 * The Backend on shards: ReferenceBackend's update, objective and optimizer here, the forward,
 * backward and sampling split over the shards by rows.
 */
export class ParallelReferenceBackend extends ReferenceBackend {
  /** The last forwardPass's row ranges, for its backward. */
  private ranges: [number, number][] = [];
  private rowT = 0;
  /** π_ref as each shard last received it (it is sent again only after a new snapshot). */
  private refSent: (Float32Array | null)[];
  private refNow: Float32Array | null = null;

  constructor(config: ModelConfig, weights: Float32Array, readonly shards: Shard[]) {
    super(config, weights);
    if (!shards.length) throw new Error('ParallelReferenceBackend: no shards');
    this.refSent = shards.map(() => null);
  }

  override async snapshotReference(): Promise<void> {
    await super.snapshotReference();
    this.refNow = Float32Array.from(this.model.params);
  }

  private policy(): Float32Array {
    return Float32Array.from(this.model.params);
  }

  protected override async forwardPass(batch: TokenBatch, tau: number, mode: PassMode): Promise<ForwardTerms> {
    if (mode !== 'policy' && !this.refNow) throw new Error('no reference policy: call snapshotReference() before asking for π_ref');
    this.ranges = splitRows(batch.B, this.shards.length);
    this.rowT = batch.T;
    const parts = await Promise.all(this.ranges.map(([a, b], k) => {
      const ref = mode !== 'policy' && this.refSent[k] !== this.refNow ? this.refNow : null;
      if (ref) this.refSent[k] = ref;
      return this.shards[k].forward(rowsOf(batch, a, b), tau, mode, this.policy(), ref && Float32Array.from(ref));
    }));
    const f32 = (n: number) => new Float32Array(n);
    return {
      logprobs: concat(parts.map((p) => p.logprobs), f32),
      entropy: concat(parts.map((p) => p.entropy), f32),
      refLogprobs: mode === 'both' ? concat(parts.map((p) => p.refLogprobs!), f32) : null,
      klRows: mode === 'both' ? concat(parts.map((p) => p.klRows!), (n) => new Float64Array(n)) : null,
    };
  }

  protected override async backwardPass(gL: ArrayLike<number>, gE: ArrayLike<number> | null): Promise<void> {
    const T = this.rowT;
    const slice = (g: ArrayLike<number>, a: number, b: number) => Float64Array.from({ length: (b - a) * T }, (_, i) => g[a * T + i]);
    const grads = await Promise.all(this.ranges.map(([a, b], k) => this.shards[k].backward(slice(gL, a, b), gE && slice(gE, a, b))));
    // summed in shard order, whatever order the answers came in: the same run for the same number of shards
    const g = this.model.grads;
    g.set(grads[0]);
    for (let k = 1; k < grads.length; k++) {
      const x = grads[k];
      for (let i = 0; i < x.length; i++) g[i] += x[i];
    }
  }

  override async sample(req: SampleRequest): Promise<SampleResult> {
    const ranges = splitRows(req.prompts.length * req.numGenerations, this.shards.length);
    const parts = await Promise.all(ranges.map(([a, b], k) => this.shards[k].sample(req, a, b, this.policy())));
    return { tokens: parts.flatMap((p) => p.tokens), logprobs: parts.flatMap((p) => p.logprobs), finished: parts.flatMap((p) => p.finished) };
  }
}
