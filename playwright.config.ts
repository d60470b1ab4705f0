import { defineConfig } from '@playwright/test';
import { findBrowser } from './scripts/find-browser.mjs';

/** Browser tests: headless Chromium with WebGPU (SwiftShader where there is no GPU). PW_PORT moves the test servers (PW_PORT and the next port: two runs side by side). */
const port = Number(process.env.PW_PORT ?? 5199);
/** Specs that load the engine's own modules from the dev server (e2e/harness.html, import('/src/…')), and the one that builds its own site. */
const ENGINE_SPECS = [/gpu-.*\.spec\.ts/, /grpo-webgpu\.spec\.ts/, /engine-handover\.spec\.ts/, /host-static\.spec\.ts/];
/** Where the lab's production build for the browser tests goes (ignored by git with node_modules): one per port, so two runs side by side (PW_PORT) never build over each other's site. */
const BUILD_DIR = `node_modules/.rlvr-e2e-build-${port}`;
export default defineConfig({
  testDir: 'e2e',
  timeout: 240_000,
  // An expectation waits for what it expects; these bounds are hang guards, not speed checks (a
  // spec's own `timeout:` is for what takes longer: a run, an evaluation). Playwright's 5 s default
  // and the specs' own 1-10 s are short for a loaded 2-core machine (two CPU-bound processes
  // beside the suite make the page several times slower).
  // A test that measures speed says so with its own clock (cpu-workers.spec.ts: the page's performance.now()).
  expect: { timeout: 30_000, toPass: { timeout: 30_000 } },
  fullyParallel: false,
  // two test files at a time (CI has 2 cores): most of a test is one renderer thread waiting on
  // its own work, so a second worker takes the suite from about 12.7 to 7.9 minutes on a loaded
  // 2-core machine; the tests within a file run in order. PW_WORKERS=1 runs one at a time.
  workers: Number(process.env.PW_WORKERS ?? 2),
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    baseURL: `http://localhost:${port}`,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: findBrowser() ?? undefined,
      args: ['--enable-unsafe-webgpu', '--no-sandbox', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run',
        // Dawn compiles the WGSL without its bounds clamps and without zeroing workgroup memory:
        // on SwiftShader a step takes 36 % less time and a context's pipelines half as long to
        // compile, with the same numbers. Only stricter: a kernel that read or wrote out of
        // bounds, or read workgroup memory before writing it, gets garbage here instead of the
        // clamped access or the zeros that users' browsers give it, and its test fails.
        '--enable-dawn-features=disable_robustness,disable_workgroup_init'],
    },
  },
  projects: [
    // the engine's specs import its TypeScript modules into e2e/harness.html or the page: the dev server
    { name: 'engine', testMatch: ENGINE_SPECS, use: { baseURL: `http://localhost:${port}` } },
    // the lab as a class opens it: the production build (a page loads in 6 files, not 158 modules),
    // without its service worker (host-static.spec.ts checks that one on a build of its own)
    { name: 'lab', testIgnore: ENGINE_SPECS, use: { baseURL: `http://localhost:${port + 1}` } },
  ],
  webServer: [
    {
      command: `RLVR_TEST_SERVER=1 npx vite --port ${port} --strictPort`,
      url: `http://localhost:${port}`,
      reuseExistingServer: false, // a server left running from an edit ago could serve stale modules
      timeout: 60_000,
    },
    {
      command: `VITE_RLVR_E2E_BUILD=1 npx vite build --outDir ${BUILD_DIR} --emptyOutDir --logLevel error && npx vite preview --outDir ${BUILD_DIR} --port ${port + 1} --strictPort`,
      url: `http://localhost:${port + 1}`,
      reuseExistingServer: false, // built from this tree at every run
      timeout: 180_000,
    },
  ],
});
