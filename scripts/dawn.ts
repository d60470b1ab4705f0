/**
 * The WGSL engine in Node, no browser: Dawn's Node binding (the `webgpu` npm package) provides
 * navigator.gpu, and the engine (src/gpu) runs unchanged on it.
 *
 * Dawn needs a Vulkan driver. On a machine with a GPU that is the vendor's (NVIDIA's ICD); on
 * these CI machines it is the SwiftShader Vulkan driver that Debian's `chromium` package ships
 * in its own library folder: VK_ICD_FILENAMES points the loader at its JSON, and LD_LIBRARY_PATH
 * lets Dawn find the `libvulkan.so.1` beside it. LD_LIBRARY_PATH is read when a process starts,
 * so `withDawnEnv` restarts the script once with both set when the machine has no loader of its own.
 *
 * Run scripts that use it through `tsx --import ./scripts/wgsl-raw.mjs` (the shaders' `?raw` imports).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Where Debian's chromium keeps SwiftShader's Vulkan driver and a Vulkan loader. */
const CHROMIUM_LIB = '/usr/lib/chromium';
const SWIFTSHADER_ICD = `${CHROMIUM_LIB}/vk_swiftshader_icd.json`;

function systemVulkanLoader(): boolean {
  const r = spawnSync('ldconfig', ['-p'], { encoding: 'utf8' });
  return r.status === 0 && /libvulkan\.so\.1\b/.test(r.stdout);
}

/**
 * Make sure this process can reach a Vulkan driver: if it has no loader of its own and
 * Chromium's SwiftShader is here, run this same script again with the environment that finds
 * it (returns only in the process that should go on; the parent exits with the child's status).
 */
export function withDawnEnv(): void {
  if (process.platform !== 'linux' || process.env.RLVR_DAWN_ENV === '1' || systemVulkanLoader() || !existsSync(SWIFTSHADER_ICD)) return;
  const env = { ...process.env, RLVR_DAWN_ENV: '1', VK_ICD_FILENAMES: process.env.VK_ICD_FILENAMES ?? SWIFTSHADER_ICD, LD_LIBRARY_PATH: [CHROMIUM_LIB, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':') };
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { env, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

/** What this machine lacks for Dawn, in one sentence (null: nothing known to be missing). */
export function dawnMissing(): string | null {
  // Dawn uses Metal on macOS and Direct3D 12 on Windows: only Linux needs a Vulkan driver
  if (process.platform !== 'linux' || systemVulkanLoader() || process.env.RLVR_DAWN_ENV === '1') return null;
  if (existsSync(SWIFTSHADER_ICD)) return null;
  return `no Vulkan driver: this machine has neither a Vulkan loader (libvulkan.so.1) with a GPU driver nor Chromium's SwiftShader (${SWIFTSHADER_ICD}); install the GPU's Vulkan driver or \`apt-get install chromium\``;
}

/** navigator.gpu from Dawn; returns the adapter's description, or throws one sentence saying what is missing. */
export async function installDawn(): Promise<string> {
  const missing = dawnMissing();
  if (missing) throw new Error(`--backend dawn: ${missing}`);
  const { create, globals } = await import('webgpu');
  Object.assign(globalThis, globals);
  // RLVR_DAWN_FEATURES (e.g. "disable_robustness,disable_workgroup_init", what the tests on SwiftShader
  // use, as the browser tests do: playwright.config.ts) switches Dawn toggles on; unset, Dawn's defaults
  const features = process.env.RLVR_DAWN_FEATURES;
  const gpu = create(features ? [`enable-dawn-features=${features}`] : []);
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error(`--backend dawn: Dawn found no Vulkan adapter (VK_ICD_FILENAMES=${process.env.VK_ICD_FILENAMES ?? 'unset'}); check the GPU's Vulkan driver with vulkaninfo`);
  Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true });
  return `${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}`.trim();
}
