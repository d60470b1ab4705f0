/**
 * The metrics buffer's contract (src/gpu/metricSlots.ts), checked without a GPU: the WGSL
 * addresses slots only by the generated constants, every constant it uses is in the table and
 * reaches the compiled source with the table's value, the TypeScript reads no slot by number,
 * and the policy slots are in the order of the objective's TypeScript twin.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { policyObjective } from '../model/objective.ts';
import type { PolicyLossSettings } from '../model/backend.ts';
import { SHADER_SOURCES, type ShaderFile } from './kernels.ts';
import { declaresMetrics, M, METRIC_FLOATS, METRIC_SLOTS, metricSlotsWgsl, POLICY_METRIC_NAMES, POLICY_METRIC_SLOTS } from './metricSlots.ts';

const shaderDir = fileURLToPath(new URL('../../shaders/', import.meta.url));
const gpuDir = fileURLToPath(new URL('./', import.meta.url));
const shaders = readdirSync(shaderDir).filter((f) => f.endsWith('.wgsl')).map((f) => ({ file: f.replace(/\.wgsl$/, '') as ShaderFile, text: readFileSync(shaderDir + f, 'utf8') }));

/** Code without // line comments and /* block comments *\/ (WGSL and TS alike; prose may say "metrics[0]"). */
const stripComments = (s: string) => s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

const slots = Object.values(METRIC_SLOTS);
const byWgsl = new Map<string, (typeof slots)[number]>(slots.map((s) => [s.wgsl, s]));

describe('metric slots: the table', () => {
  it('gives every slot of the buffer exactly one entry, with distinct constants and names', () => {
    expect(slots.map((s) => s.slot).sort((a, b) => a - b)).toEqual(Array.from({ length: METRIC_FLOATS }, (_, i) => i));
    expect(new Set(slots.map((s) => s.wgsl)).size).toBe(slots.length);
    const names = slots.flatMap((s) => ('metric' in s ? [s.metric] : []));
    expect(new Set(names).size).toBe(names.length);
    for (const [k, s] of Object.entries(METRIC_SLOTS)) {
      expect(s.wgsl, k).toBe(`M_${k}`);
      expect(M[k as keyof typeof M]).toBe(s.slot);
    }
  });

  it('generates one WGSL constant per slot', () => {
    const wgsl = metricSlotsWgsl();
    for (const s of slots) expect(wgsl).toContain(`const ${s.wgsl}: u32 = ${s.slot}u;`);
  });

  it('has the policy slots contiguous, in the order of policyObjective (the TypeScript twin) metrics', () => {
    const first = POLICY_METRIC_SLOTS[0].slot;
    expect(POLICY_METRIC_SLOTS.map((s) => s.slot)).toEqual(POLICY_METRIC_SLOTS.map((_, i) => first + i));
    const s: PolicyLossSettings = { epsilon: 0.2, epsilonHigh: 0.2, beta: 0, klEstimator: 'k3', lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0, maxCompletionLength: 2, temperature: 1 };
    const r = policyObjective({ B: 1, T: 2, logprobs: [-1, -2], entropy: [1, 1], mask: [1, 1], oldLogprobs: null, refLogprobs: null, advantages: [1] }, s);
    expect([...POLICY_METRIC_NAMES]).toEqual(Object.keys(r.metrics));
  });
});

describe('metric slots: the WGSL', () => {
  it('finds the shaders', () => {
    expect(shaders.map((s) => s.file)).toEqual(expect.arrayContaining(['adamw', 'gradnorm', 'kl', 'logsoftmax', 'policy_loss']));
  });

  for (const { file, text } of shaders) {
    const code = stripComments(text);
    it(`${file}.wgsl indexes metrics only by a table constant, and gets every constant it uses`, () => {
      const numeric = [...code.matchAll(/\bmetrics\s*\[\s*([^\]]*)\]/g)].map((m) => m[1].trim()).filter((ix) => !/^M_[A-Z0-9_]+$/.test(ix));
      expect(numeric, `${file}.wgsl: metrics[…] must be indexed by an M_ constant of src/gpu/metricSlots.ts`).toEqual([]);
      const used = [...new Set([...code.matchAll(/\bM_[A-Z0-9_]+\b/g)].map((m) => m[0]))];
      expect(used.filter((c) => !byWgsl.has(c)), `${file}.wgsl uses constants that are not in the table`).toEqual([]);
      if (used.length) expect(declaresMetrics(text), `${file}.wgsl uses M_ constants but declares no metrics binding`).toBe(true);
      // the compiled source defines each one it uses, with the table's value, and defines none itself
      for (const c of used) {
        expect(code).not.toMatch(new RegExp(`const\\s+${c}\\b`));
        expect(SHADER_SOURCES[file]).toContain(`const ${c}: u32 = ${byWgsl.get(c)!.slot}u;`);
      }
    });
  }

  it('policy_loss.wgsl writes each policy metric to the slot the table names for it', () => {
    const text = shaders.find((s) => s.file === 'policy_loss')!.text;
    // `metrics[M_CLIP_LOW] = …; // clip_ratio/low_mean`: the comment names the metric written
    const writes = [...text.matchAll(/metrics\[(M_[A-Z0-9_]+)\]\s*=[^;]*;\s*\/\/\s*(\S+)/g)].map((m) => [m[1], m[2]]);
    expect(writes).toEqual(POLICY_METRIC_SLOTS.map((s) => [s.wgsl, s.metric]));
  });
});

describe('metric slots: the TypeScript', () => {
  it('src/gpu reads and writes no slot of the metrics readback by number', () => {
    const files = readdirSync(gpuDir, { recursive: true }).map(String).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const offenders: string[] = [];
    for (const f of files) {
      const code = stripComments(readFileSync(gpuDir + f, 'utf8'));
      for (const m of code.matchAll(/\b(met|metrics)\s*\[\s*(\d+[^\]]*)\]/g)) offenders.push(`${f}: ${m[0]}`);
    }
    expect(offenders).toEqual([]);
  });
});
