// The WGSL engine in Node through Dawn (the `webgpu` package), on the SwiftShader Vulkan driver
// that CI's chromium package installs: every kernel against its CPU reference op, and a short
// GRPO run whose update stays finite. (scripts/dawn-check.ts; the full form adds the policy-loss
// parity, the PyTorch goldens and a learning run: `scripts/device-check` runs it on a GPU.)
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('Dawn in Node', () => {
  it('runs the kernel parity suite and a GRPO run with no browser', () => {
    const r = spawnSync('npx', ['tsx', '--import', './scripts/wgsl-raw.mjs', 'scripts/dawn-check.ts', '--quick'], { encoding: 'utf8', timeout: 300_000 });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    console.log(`Dawn in Node: ${out.adapter}; ${out.kernels.rows} kernel rows, worst ${out.kernels.worstOverTolerance.toFixed(3)} of tolerance; GRPO ${out.grpo.steps} steps ${out.grpo.msPerStep.toFixed(0)} ms/step; ${JSON.stringify(out.seconds)} s`);
    expect(out.kernels.rows).toBeGreaterThan(200);
    expect(out.kernels.failed).toEqual([]);
    expect(out.grpo.finite).toBe(true);
    expect(out.grpo.steps).toBe(3);
  }, 320_000);

  it('npm run train -- --backend dawn: a GRPO run on the WGSL engine in Node, JSONL as on the CPU', () => {
    const r = spawnSync('npx', ['tsx', '--import', './scripts/wgsl-raw.mjs', 'scripts/train.ts', '--task', 'reverse', '--difficulty', '2', '--steps', '2', '--seed', '3', '--promptsPerStep', '2', '--num_generations', '4', '--eval-size', '4', '--no-pass-at-k', '--backend', 'dawn'], { encoding: 'utf8', timeout: 180_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^dawn: \S+/m); // the adapter it ran on
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'step').map((l) => l.finite)).toEqual([true, true]);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', steps: 2, backend: 'webgpu' });
  }, 200_000);
});
