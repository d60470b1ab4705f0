// The WGSL engine in Node through Dawn (the `webgpu` package), on the SwiftShader Vulkan driver
// that CI's chromium package installs: scripts/device-check (what a lent GPU runs) in its quick
// form from the packed bundle — every kernel against its CPU reference op, a short GRPO run, a
// GRPO step's GPU traffic — and `npm run train -- --backend dawn`. The full form of the check
// adds the policy-loss parity, the PyTorch goldens, a 40-step learning run and the bench.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { installDawn, SWIFTSHADER_ICD, type DawnMachine } from './dawn.ts';

// Dawn without its bounds clamps and workgroup zeroing, as the browser tests run it (playwright.config.ts):
// faster on SwiftShader, the same numbers, and only stricter
const env = { ...process.env, RLVR_DAWN_FEATURES: 'disable_robustness,disable_workgroup_init' };

describe('Dawn in Node', () => {
  it('scripts/device-check --quick, from the packed bundle: kernel parity, a GRPO run and its GPU traffic, with no browser', () => {
    // the packed check is for Linux GPU machines (bash, Vulkan); elsewhere the same check runs from source (Dawn on Metal / Direct3D)
    const linux = process.platform === 'linux';
    if (linux) {
      const pack = spawnSync('node', ['scripts/device-pack.mjs', '--no-node'], { encoding: 'utf8', timeout: 60_000 });
      expect(pack.status, pack.stderr).toBe(0);
    }
    const r = linux
      ? spawnSync('scripts/device-check', ['--quick'], { encoding: 'utf8', timeout: 300_000, env })
      : spawnSync('npx', ['tsx', '--import', './scripts/wgsl-raw.mjs', 'scripts/device-main.ts', '--quick'], { encoding: 'utf8', timeout: 300_000, env });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    console.log(`device-check --quick: ${out.adapter.dawn}; ${out.check.kernels.rows} kernel rows, worst ${out.check.kernels.worstOverTolerance.toFixed(3)} of tolerance; GRPO traffic ${JSON.stringify(out.bench.grpo_step.by_mu)}; ${out.seconds.toFixed(0)} s`);
    expect(out.check.ok).toBe(true);
    expect(out.check.form).toMatch(/^smoke test/); // --quick says what it is not
    expect(out.check.kernels.rows).toBeGreaterThan(200);
    expect(out.check.kernels.failed).toEqual([]);
    expect(out.check.grpo.finite).toBe(true);
    // the lab's start-up: the self-check passed, each family's forms timed (within the budget) and a timed one chosen
    console.log(`autotune (${out.autotune_run.tune_ms.toFixed(0)} of ${out.autotune_run.budget_ms} ms): ${out.autotune.map((f: { family: string; chosen: string; candidates: { form: string; ms: number | null }[] }) => `${f.family} ${f.chosen} [${f.candidates.map((c) => `${c.form} ${c.ms?.toFixed(1) ?? '-'}`).join(', ')}]`).join('; ')}`);
    expect(out.autotune_run.check_ok).toBe(true);
    expect(out.autotune.map((f: { family: string }) => f.family)).toEqual(['matmul', 'reduction', 'attention', 'decode']);
    for (const f of out.autotune) expect(f.candidates.map((c: { form: string }) => c.form), f.family).toContain(f.chosen);
    expect(out.autotune[0].candidates[0].ms).toBeGreaterThan(0);
    expect(out.autotune_run.forms).toEqual(Object.fromEntries(out.autotune.map((f: { family: string; chosen: string }) => [f.family, f.chosen])));
    // a GRPO step stays on the GPU at any µ: one submit and one readback for the rollout, one of each for the update
    for (const row of out.bench.grpo_step.by_mu) expect({ submits: row.submits, readbacks: row.readbacks }, `µ = ${row.mu}`).toEqual({ submits: 2, readbacks: 2 });
    expect(out.bench.grpo_step.by_mu.map((x: { mu: number }) => x.mu)).toEqual([1, 2]);
    // issue 32's dispatch budget at µ = 2 (392 before the fused decode block: a decode position was 7L + 4 dispatches, now L + 1)
    const mu2 = out.bench.grpo_step.by_mu[1];
    expect(mu2.dispatches, JSON.stringify(mu2)).toBeLessThanOrEqual(250);
    expect(mu2.rollout_dispatches + mu2.update_dispatches + (mu2.evaluation_in_step ? mu2.evaluation_dispatches : 0)).toBe(mu2.dispatches);
  }, 320_000);

  it('npm run train -- --backend dawn: a GRPO run on the WGSL engine in Node, JSONL as on the CPU', () => {
    const r = spawnSync('npx', ['tsx', '--import', './scripts/wgsl-raw.mjs', 'scripts/train.ts', '--task', 'reverse', '--difficulty', '2', '--steps', '2', '--seed', '3', '--promptsPerStep', '2', '--num_generations', '4', '--eval-size', '4', '--no-pass-at-k', '--backend', 'dawn'], { encoding: 'utf8', timeout: 180_000, env });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^dawn: \S+/m); // the adapter it ran on
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'step').map((l) => l.finite)).toEqual([true, true]);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', steps: 2, backend: 'webgpu' });
  }, 200_000);
});

// Which Vulkan driver Dawn ends up on (issue 47): a fresh Debian with Mesa's Vulkan drivers has a
// loader of its own, so no restart, but its lavapipe gives Dawn no adapter; the lab then asks again
// with Chromium's SwiftShader. Simulated: a Dawn whose adapter request answers according to the
// VK_ICD_FILENAMES it sees at `create` (as the real loader reads it at each instance).
describe('installDawn: the Vulkan driver it falls back to', () => {
  const swiftshader = { vendor: 'google', architecture: 'swiftshader', description: 'SwiftShader Device (Subzero)' };
  /** A machine whose drivers answer by name: `works` lists the VK_ICD_FILENAMES values that give an adapter ('' = unset). */
  const machine = (works: string[], o: Partial<DawnMachine> = {}) => {
    const env: Record<string, string | undefined> = { ...o.env };
    const seen: (string | undefined)[] = [];
    const m: Partial<DawnMachine> = {
      platform: 'linux', systemLoader: () => true, swiftShader: () => true, ...o, env,
      load: async () => ({
        globals: {},
        create: () => {
          const icd = env.VK_ICD_FILENAMES; // read at create, as the loader reads it at vkCreateInstance
          seen.push(icd);
          return { requestAdapter: async () => (works.includes(icd ?? '') ? { info: icd === SWIFTSHADER_ICD ? swiftshader : { vendor: 'nvidia', architecture: 'ampere', description: 'GPU' } } : null) } as unknown as GPU;
        },
      }),
    };
    return { m, env, seen };
  };
  const navigator = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  afterEach(() => {
    if (navigator) Object.defineProperty(globalThis, 'navigator', navigator);
    else delete (globalThis as { navigator?: unknown }).navigator;
  });

  it("the machine's own driver works: Dawn runs on it, asked once", async () => {
    const { m, seen } = machine(['']);
    expect(await installDawn(m)).toBe('nvidia ampere GPU');
    expect(seen).toEqual([undefined]);
  });

  it("a loader with no driver Dawn takes (Mesa's lavapipe): asked again with SwiftShader, which answers, and the description says so", async () => {
    const { m, env, seen } = machine([SWIFTSHADER_ICD]);
    const described = await installDawn(m);
    expect(seen).toEqual([undefined, SWIFTSHADER_ICD]);
    expect(described).toMatch(/^google swiftshader SwiftShader Device \(Subzero\) \(Chromium's SwiftShader: this machine's Vulkan drivers \(VK_ICD_FILENAMES unset\) gave Dawn no adapter\)$/);
    expect(env.VK_ICD_FILENAMES).toBe(SWIFTSHADER_ICD); // the process's later instances stay on it
    expect((globalThis as { navigator?: { gpu?: unknown } }).navigator?.gpu).toBeDefined();
  });

  it('neither works: one sentence naming both tries and what to check', async () => {
    const { m, seen } = machine([]);
    const e = await installDawn(m).then(() => null, (x: Error) => x);
    expect(seen).toEqual([undefined, SWIFTSHADER_ICD]);
    expect(e?.message).toBe(`--backend dawn: Dawn found no Vulkan adapter, neither with this machine's Vulkan drivers (VK_ICD_FILENAMES unset) nor with Chromium's SwiftShader (VK_ICD_FILENAMES=${SWIFTSHADER_ICD}); check the GPU's Vulkan driver with vulkaninfo, and that Debian's chromium is installed whole (\`apt-get install --reinstall chromium\`)`);
  });

  it("no adapter and no chromium: says the fallback is not installed and how to get it", async () => {
    const { m, seen } = machine([], { swiftShader: () => false });
    await expect(installDawn(m)).rejects.toThrow(/no Vulkan adapter with this machine's Vulkan drivers \(VK_ICD_FILENAMES unset\), and Chromium's SwiftShader, the fallback, is not installed .*apt-get install chromium/);
    expect(seen).toEqual([undefined]);
  });

  it('drivers someone chose (VK_ICD_FILENAMES set) are not overridden: no second try, and the message names them', async () => {
    const { m, seen } = machine([SWIFTSHADER_ICD], { env: { VK_ICD_FILENAMES: '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json' } });
    await expect(installDawn(m)).rejects.toThrow(/no Vulkan adapter with VK_ICD_FILENAMES=\/usr\/share\/vulkan\/icd\.d\/lvp_icd\.x86_64\.json; .*unset the variable/);
    expect(seen).toEqual(['/usr/share/vulkan/icd.d/lvp_icd.x86_64.json']);
  });

  it('no loader and no SwiftShader: says so before loading Dawn', async () => {
    const { m, seen } = machine([''], { systemLoader: () => false, swiftShader: () => false });
    await expect(installDawn(m)).rejects.toThrow(/no Vulkan driver: this machine has neither a Vulkan loader/);
    expect(seen).toEqual([]);
  });
});
