/**
 * Runs engine code in headless Chromium (the real WebGPU path, the same modules as the page):
 * starts Vite on a free port (no HMR, no file watching), opens the blank harness page — or
 * `opts.path`, e.g. the lab itself — and hands the page to `fn`.
 * Used by `npm run train -- --backend webgpu`, `npm run bench` and `npm run soak`.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { createServer } from 'vite';
import { findBrowser } from './find-browser.mjs';

/** Vite on a free port and headless Chromium with WebGPU, handed to `fn` with the server's origin; both closed after. */
export async function withBrowser<T>(fn: (browser: Browser, origin: string) => Promise<T>): Promise<T> {
  process.env.RLVR_TEST_SERVER = '1'; // an edit elsewhere never reloads the page mid-run
  const executablePath = findBrowser();
  if (!executablePath) throw new Error('No Chromium or Chrome found: install one (e.g. "apt-get install -y chromium") or set CHROMIUM_PATH.');
  const server = await createServer({ logLevel: 'error', server: { port: 0, host: '127.0.0.1' } });
  await server.listen();
  const address = server.httpServer?.address();
  const port = typeof address === 'object' && address ? address.port : 5173;
  try {
    const browser = await chromium.launch({
      executablePath,
      args: ['--enable-unsafe-webgpu', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
        // RLVR_DAWN_FEATURES: Dawn toggles, as for --backend dawn (scripts/dawn.ts); unset, the browser's defaults
        ...(process.env.RLVR_DAWN_FEATURES ? [`--enable-dawn-features=${process.env.RLVR_DAWN_FEATURES}`] : [])],
    });
    try {
      return await fn(browser, `http://127.0.0.1:${port}`);
    } finally {
      await browser.close();
    }
  } finally {
    await server.close();
  }
}

export async function withBrowserPage<T>(fn: (page: Page) => Promise<T>, opts: { path?: string } = {}): Promise<T> {
  return withBrowser(async (browser, origin) => {
    const page = await browser.newPage();
    page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`));
    if (opts.path) await page.goto(`${origin}${opts.path}`);
    else {
      await page.goto(`${origin}/e2e/harness.html`);
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    }
    return await fn(page);
  });
}
