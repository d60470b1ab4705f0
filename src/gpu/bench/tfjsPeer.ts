/**
 * The bench's peer: the same canonical model (src/model/config.ts) written with TensorFlow.js
 * ops on its WebGPU backend, trained and sampled the way a TF.js user would write it. Bench
 * only (a dev dependency): nothing outside src/gpu/bench imports this file.
 *
 *   train step   forward, mean cross-entropy over all B·T positions, tf.variableGrads,
 *                global-norm clip at 1, Adam with the lab's ADAMW_CONSTANTS (β 0.9/0.999, eps
 *                1e-8, no weight decay — the engine's bench uses DEFAULT_ADAMW, so the update is
 *                the same), and one readback of the loss to finish the step
 *   sample       token by token, R rows from BOS for T−1 tokens at temperature 1: each new
 *                token recomputes the forward over the whole prefix (TF.js has no KV cache),
 *                samples with the Gumbel-max trick on the GPU, and reads back once at the end
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { ADAMW_CONSTANTS } from '../../model/backend.ts';
import type { ModelConfig } from '../../model/config.ts';
import { BOS } from '../../tasks/tokenizer.ts';
import { median, randomBatch } from './engineBench.ts';

export async function initPeer(): Promise<string> {
  await tf.setBackend('webgpu');
  await tf.ready();
  return tf.getBackend();
}

class TfGpt {
  readonly w: Record<string, tf.Variable> = {};
  private readonly causal: tf.Tensor2D;

  constructor(readonly c: ModelConfig, seed: number) {
    const { vocabSize: V, seqLen: T, dModel: D, nLayers: L } = c;
    let s = seed;
    const normal = (name: string, shape: number[]) => (this.w[name] = tf.variable(tf.randomNormal(shape, 0, 0.02, 'float32', s++), true, name));
    const fill = (name: string, shape: number[], v: number) => (this.w[name] = tf.variable(tf.fill(shape, v), true, name));
    normal('wte', [V, D]);
    normal('wpe', [T, D]);
    for (let l = 0; l < L; l++) {
      fill(`h${l}.ln1.g`, [D], 1); fill(`h${l}.ln1.b`, [D], 0);
      normal(`h${l}.qkv.w`, [D, 3 * D]); fill(`h${l}.qkv.b`, [3 * D], 0);
      normal(`h${l}.proj.w`, [D, D]); fill(`h${l}.proj.b`, [D], 0);
      fill(`h${l}.ln2.g`, [D], 1); fill(`h${l}.ln2.b`, [D], 0);
      normal(`h${l}.fc.w`, [D, 4 * D]); fill(`h${l}.fc.b`, [4 * D], 0);
      normal(`h${l}.fc2.w`, [4 * D, D]); fill(`h${l}.fc2.b`, [D], 0);
    }
    fill('lnf.g', [D], 1); fill('lnf.b', [D], 0);
    normal('lm_head', [D, V]);
    // additive causal mask: 0 on and below the diagonal, -1e9 above
    this.causal = tf.tidy(() => tf.mul(tf.sub(1, tf.linalg.bandPart(tf.ones([T, T]), -1, 0)), -1e9) as tf.Tensor2D);
  }

  private ln(x: tf.Tensor2D, g: string, b: string): tf.Tensor2D {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, 1e-5))), this.w[g]), this.w[b]);
  }

  /** Logits [B·T, V] of token ids [B, T]. */
  forward(inputs: tf.Tensor2D): tf.Tensor2D {
    const { dModel: D, nHeads: H, nLayers: L } = this.c;
    const [B, T] = inputs.shape;
    const hs = D / H;
    const N = B * T;
    const w = this.w;
    let x = tf.reshape(tf.add(tf.gather(w.wte, inputs), tf.slice(w.wpe, [0, 0], [T, D])), [N, D]) as tf.Tensor2D;
    const mask = tf.slice(this.causal, [0, 0], [T, T]);
    for (let l = 0; l < L; l++) {
      const h = `h${l}.`;
      const qkv = tf.add(tf.matMul(this.ln(x, h + 'ln1.g', h + 'ln1.b'), w[h + 'qkv.w']), w[h + 'qkv.b']);
      const heads = tf.transpose(tf.reshape(qkv, [B, T, 3, H, hs]), [2, 0, 3, 1, 4]); // [3,B,H,T,hs]
      const [q, k, v] = tf.unstack(heads) as tf.Tensor4D[];
      const att = tf.softmax(tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(hs)), mask));
      const y = tf.reshape(tf.transpose(tf.matMul(att, v), [0, 2, 1, 3]), [N, D]);
      x = tf.add(x, tf.add(tf.matMul(y, w[h + 'proj.w']), w[h + 'proj.b']));
      const f = tf.add(tf.matMul(this.ln(x, h + 'ln2.g', h + 'ln2.b'), w[h + 'fc.w']), w[h + 'fc.b']);
      const g = tf.mul(tf.mul(0.5, f), tf.add(1, tf.tanh(tf.mul(0.7978845608028654, tf.add(f, tf.mul(0.044715, tf.pow(f, 3)))))));
      x = tf.add(x, tf.add(tf.matMul(g, w[h + 'fc2.w']), w[h + 'fc2.b']));
    }
    return tf.matMul(this.ln(x, 'lnf.g', 'lnf.b'), w.lm_head);
  }

  dispose(): void {
    for (const v of Object.values(this.w)) v.dispose();
    this.causal.dispose();
  }
}

export interface PeerTrainBench {
  backend: string;
  step_ms: number[];
  step_ms_median: number;
  step_ms_min: number;
  loss0: number;
  loss1: number;
}

/** `reps` timed training steps (after one warm-up) of the TF.js model on the bench's B×T batch. */
export async function peerTrainStep(config: ModelConfig, B: number, T: number, reps: number): Promise<PeerTrainBench> {
  const backend = await initPeer();
  const model = new TfGpt(config, 1);
  const opt = tf.train.adam(1e-3, ADAMW_CONSTANTS.beta1, ADAMW_CONSTANTS.beta2, ADAMW_CONSTANTS.eps);
  const b = randomBatch(2, B, T, config.vocabSize);
  const inputs = tf.tensor2d(b.inputs, [B, T], 'int32');
  const targets = tf.oneHot(tf.tensor1d(b.targets, 'int32'), config.vocabSize);
  const vars = Object.values(model.w);
  const step = async () => {
    const { value, grads } = tf.variableGrads(() => {
      const logp = tf.logSoftmax(model.forward(inputs));
      return tf.neg(tf.mean(tf.sum(tf.mul(targets, logp), -1))) as tf.Scalar;
    }, vars);
    const scaled = tf.tidy(() => {
      const norm = tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g)))));
      const scale = tf.minimum(1, tf.div(1, tf.add(norm, 1e-12)));
      const out: Record<string, tf.Tensor> = {};
      for (const [k, g] of Object.entries(grads)) out[k] = tf.mul(g, scale);
      return out;
    });
    opt.applyGradients(scaled as unknown as Parameters<typeof opt.applyGradients>[0]);
    tf.dispose([grads, scaled]);
    const loss = (await value.data())[0];
    value.dispose();
    return loss;
  };
  try {
    const loss0 = await step();
    const times: number[] = [];
    let loss1 = loss0;
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      loss1 = await step();
      times.push(performance.now() - t0);
    }
    return { backend, step_ms: times, step_ms_median: median(times), step_ms_min: Math.min(...times), loss0, loss1 };
  } finally {
    opt.dispose();
    model.dispose();
    tf.dispose([inputs, targets]);
  }
}

export interface PeerSampleBench {
  rows: number;
  newTokens: number;
  sample_ms: number[];
  sample_ms_median: number;
  sample_ms_min: number;
}

/**
 * `reps` timed token-by-token generations of R rows × (T−1) new tokens, after one warm-up
 * generation of `warmRows` rows over the same lengths (TF.js compiles its shaders on first use;
 * its WebGPU programs take shapes as uniforms, so a one-row warm-up compiles what R rows use
 * while costing 1/R of a timed run).
 */
export async function peerSample(config: ModelConfig, R: number, reps: number, warmRows = 1): Promise<PeerSampleBench> {
  await initPeer();
  const model = new TfGpt(config, 1);
  const newTokens = config.seqLen - 1;
  const generate = async (seed: number, R: number) => {
    let tokens = tf.fill([R, 1], BOS, 'int32') as tf.Tensor2D;
    for (let i = 0; i < newTokens; i++) {
      const next = tf.tidy(() => {
        const t = tokens.shape[1];
        const logits = tf.slice(tf.reshape(model.forward(tokens), [R, t, config.vocabSize]), [0, t - 1, 0], [R, 1, config.vocabSize]).reshape([R, config.vocabSize]);
        const u = tf.randomUniform([R, config.vocabSize], 1e-7, 1, 'float32', seed * 1000 + i);
        const gumbel = tf.neg(tf.log(tf.neg(tf.log(u))));
        return tf.concat([tokens, tf.expandDims(tf.cast(tf.argMax(tf.add(logits, gumbel), -1), 'int32'), 1)], 1) as tf.Tensor2D;
      });
      tokens.dispose();
      tokens = next;
    }
    await tokens.data();
    tokens.dispose();
  };
  try {
    await generate(0, warmRows);
    const times: number[] = [];
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      await generate(1 + i, R);
      times.push(performance.now() - t0);
    }
    return { rows: R, newTokens, sample_ms: times, sample_ms_median: median(times), sample_ms_min: Math.min(...times) };
  } finally {
    model.dispose();
  }
}
