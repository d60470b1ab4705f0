/**
 * The WGSL engine in Node, no browser: Dawn's Node binding (the `webgpu` npm package) provides
 * navigator.gpu, and the engine (src/gpu) runs unchanged on it.
 *
 * Dawn needs a Vulkan driver. On a machine with a GPU that is the vendor's (NVIDIA's ICD); on
 * these CI machines it is the SwiftShader Vulkan driver that Debian's `chromium` package ships
 * in its own library folder: VK_ICD_FILENAMES points the loader at its JSON, and LD_LIBRARY_PATH
 * lets Dawn find the `libvulkan.so.1` beside it. LD_LIBRARY_PATH is read when a process starts,
 * so `withDawnEnv` restarts the script once with both set when the machine has no loader of its own.
 * A machine with a loader of its own may still have no driver that Dawn takes (a fresh Debian with
 * Mesa's Vulkan drivers: lavapipe is too old for Dawn): `installDawn` then asks once more with
 * VK_ICD_FILENAMES at SwiftShader, in the same process (the loader finds the driver library from
 * the JSON's own folder, so no LD_LIBRARY_PATH is needed there).
 *
 * Run scripts that use it through `tsx --import ./scripts/wgsl-raw.mjs` (the shaders' `?raw` imports).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Where Debian's chromium keeps SwiftShader's Vulkan driver and a Vulkan loader. */
const CHROMIUM_LIB = '/usr/lib/chromium';
export const SWIFTSHADER_ICD = `${CHROMIUM_LIB}/vk_swiftshader_icd.json`;

function systemVulkanLoader(): boolean {
  const r = spawnSync('ldconfig', ['-p'], { encoding: 'utf8' });
  return r.status === 0 && /libvulkan\.so\.1\b/.test(r.stdout);
}

/** What the Dawn set-up reads from the machine; the tests give their own (scripts/dawn.test.ts). */
export interface DawnMachine {
  platform: NodeJS.Platform;
  /**
   * The environment the Vulkan loader reads: process.env, whose changes reach the native getenv,
   * and the loader scans its drivers again at each instance (each `create`), so setting
   * VK_ICD_FILENAMES between two `create`s switches the driver within one process.
   */
  env: Record<string, string | undefined>;
  /** Whether the machine has a Vulkan loader (libvulkan.so.1) of its own. */
  systemLoader: () => boolean;
  /** Whether Chromium's SwiftShader Vulkan driver is installed (SWIFTSHADER_ICD). */
  swiftShader: () => boolean;
  /** The `webgpu` package (Dawn): loading it reads no Vulkan setting yet. */
  load: () => Promise<{ create: (options: string[]) => GPU; globals: object }>;
}

function thisMachine(): DawnMachine {
  return { platform: process.platform, env: process.env, systemLoader: systemVulkanLoader, swiftShader: () => existsSync(SWIFTSHADER_ICD), load: () => import('webgpu') };
}

/**
 * Make sure this process can reach a Vulkan driver: if it has no loader of its own and
 * Chromium's SwiftShader is here, run this same script again with the environment that finds
 * it (returns only in the process that should go on; the parent exits with the child's status).
 * A machine with a loader of its own but no driver that Dawn takes (Mesa's lavapipe on Debian 12)
 * needs no restart: installDawn falls back to SwiftShader in-process.
 */
export function withDawnEnv(): void {
  if (process.platform !== 'linux' || process.env.RLVR_DAWN_ENV === '1' || systemVulkanLoader() || !existsSync(SWIFTSHADER_ICD)) return;
  const env = { ...process.env, RLVR_DAWN_ENV: '1', VK_ICD_FILENAMES: process.env.VK_ICD_FILENAMES ?? SWIFTSHADER_ICD, LD_LIBRARY_PATH: [CHROMIUM_LIB, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':') };
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { env, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

/** What this machine lacks for Dawn, in one sentence (null: nothing known to be missing). */
export function dawnMissing(machine: Partial<DawnMachine> = {}): string | null {
  const m = { ...thisMachine(), ...machine };
  // Dawn uses Metal on macOS and Direct3D 12 on Windows: only Linux needs a Vulkan driver
  if (m.platform !== 'linux' || m.env.RLVR_DAWN_ENV === '1' || m.systemLoader()) return null;
  if (m.swiftShader()) return null;
  return `no Vulkan driver: this machine has neither a Vulkan loader (libvulkan.so.1) with a GPU driver nor Chromium's SwiftShader (${SWIFTSHADER_ICD}); install the GPU's Vulkan driver or \`apt-get install chromium\``;
}

/** The Vulkan drivers the loader is told to use, as a message names them. */
function driversNamed(env: DawnMachine['env']): string {
  if (env.VK_DRIVER_FILES) return `VK_DRIVER_FILES=${env.VK_DRIVER_FILES}`;
  return env.VK_ICD_FILENAMES ? `VK_ICD_FILENAMES=${env.VK_ICD_FILENAMES}` : "this machine's Vulkan drivers (VK_ICD_FILENAMES unset)";
}

/**
 * navigator.gpu from Dawn; returns the adapter's description, or throws one sentence saying what
 * is missing. On Linux, when the machine's own Vulkan drivers give Dawn no adapter (a fresh Debian
 * with Mesa's Vulkan drivers: its lavapipe is too old for Dawn) and nobody chose the drivers
 * (VK_ICD_FILENAMES / VK_DRIVER_FILES unset), it asks again with Chromium's SwiftShader.
 */
export async function installDawn(machine: Partial<DawnMachine> = {}): Promise<string> {
  const m = { ...thisMachine(), ...machine };
  const missing = dawnMissing(m);
  if (missing) throw new Error(`--backend dawn: ${missing}`);
  const { create, globals } = await m.load();
  Object.assign(globalThis, globals);
  // RLVR_DAWN_FEATURES (e.g. "disable_robustness,disable_workgroup_init", what the tests on SwiftShader
  // use, as the browser tests do: playwright.config.ts) switches Dawn toggles on; unset, Dawn's defaults
  const features = m.env.RLVR_DAWN_FEATURES;
  const options = features ? [`enable-dawn-features=${features}`] : [];
  const first = driversNamed(m.env);
  let gpu = create(options);
  let adapter = await gpu.requestAdapter();
  let fallback = '';
  if (!adapter && m.platform !== 'linux') throw new Error(`--backend dawn: Dawn found no adapter (it uses ${m.platform === 'darwin' ? 'Metal' : m.platform === 'win32' ? 'Direct3D 12' : 'the GPU\'s native API'} here); check the GPU's driver`);
  const chosen = !!(m.env.VK_ICD_FILENAMES || m.env.VK_DRIVER_FILES); // by the user, or by withDawnEnv's restart
  if (!adapter && chosen) {
    const advice = m.env.VK_ICD_FILENAMES === SWIFTSHADER_ICD && !m.env.VK_DRIVER_FILES ? 'check that Debian\'s chromium is installed whole (`apt-get install --reinstall chromium`)' : 'check that driver with vulkaninfo, or unset the variable to let the lab try this machine\'s drivers and then Chromium\'s SwiftShader';
    throw new Error(`--backend dawn: Dawn found no Vulkan adapter with ${first}; ${advice}`);
  }
  if (!adapter && !m.swiftShader()) {
    throw new Error(`--backend dawn: Dawn found no Vulkan adapter with ${first}, and Chromium's SwiftShader, the fallback, is not installed (${SWIFTSHADER_ICD}); check the GPU's Vulkan driver with vulkaninfo, or \`apt-get install chromium\``);
  }
  if (!adapter) {
    m.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD; // the next instance's loader reads it (and the rest of this process's instances)
    gpu = create(options);
    adapter = await gpu.requestAdapter();
    if (!adapter) throw new Error(`--backend dawn: Dawn found no Vulkan adapter, neither with ${first} nor with Chromium's SwiftShader (VK_ICD_FILENAMES=${SWIFTSHADER_ICD}); check the GPU's Vulkan driver with vulkaninfo, and that Debian's chromium is installed whole (\`apt-get install --reinstall chromium\`)`);
    fallback = ` (Chromium's SwiftShader: ${first} gave Dawn no adapter)`;
  }
  Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true });
  return `${`${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}`.trim()}${fallback}`;
}
