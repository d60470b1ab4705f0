import { defineConfig } from '@playwright/test';
import { findBrowser } from './scripts/find-browser.mjs';

/** Browser tests: headless Chromium with WebGPU (SwiftShader where there is no GPU). PW_PORT moves the test server (two runs side by side). */
const port = Number(process.env.PW_PORT ?? 5199);
export default defineConfig({
  testDir: 'e2e',
  timeout: 240_000,
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
  webServer: {
    command: `RLVR_TEST_SERVER=1 npx vite --port ${port} --strictPort`,
    url: `http://localhost:${port}`,
    reuseExistingServer: false, // a server left running from an edit ago could serve stale modules
    timeout: 60_000,
  },
});
