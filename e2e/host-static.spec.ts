import { chromium } from '@playwright/test';
import { expect, settled, test, type Page } from './fixtures.ts';
import { findBrowser } from '../scripts/find-browser.mjs';
import { LESSONS } from '../src/rl/lessons.ts';
import { buildAndServe, NO_SW_PATH, SUB_PATH, V2_MARK, type StaticSite } from './host-static.ts';

// The production build as a class meets it (e2e/host-static.ts): one `vite build`, served as plain
// static files under a sub-path. It runs from there; after one visit it opens, loads lesson 1 and
// steps with no network (the service worker's precache); a redeployed version is announced once and
// the reload keeps the user's data; a failed registration or a checkpoint missing offline is one
// sentence and the lab runs. CPU reference engine (?backend=cpu): these tests are about hosting.

test.describe.configure({ mode: 'serial' });
test.setTimeout(150_000);

let site: StaticSite;
test.beforeAll(async () => {
  test.setTimeout(300_000);
  site = await buildAndServe(process.cwd());
  console.log(`host-static: vite build took ${site.buildSeconds.toFixed(1)} s`);
});
test.afterAll(async () => { await site?.close(); });

const ready = (page: Page) => settled(page, undefined, undefined, 90_000);
const step = async (page: Page) => {
  await page.getByRole('button', { name: /^Step/ }).click();
  await settled(page, (s) => s.stepsCompleted === 1, undefined, 90_000);
};
/** The service worker has installed (precache complete) and is active. */
const offlineReady = (page: Page) => expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state), { timeout: 30_000 }).toBe('activated');

test('the build runs from a sub-path as plain static files: every request stays under it, and a step runs', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const outside: string[] = [];
  page.on('request', (r) => { const u = r.url(); if (!u.startsWith('data:') && !u.startsWith(`${site.url}${SUB_PATH}`)) outside.push(u); });
  await page.goto(`${site.url}${SUB_PATH}?backend=cpu&task=reverse`);
  await ready(page);
  await expect(page.getByTestId('engine-line')).toContainText('Base checkpoint reverse-d2.ckpt');
  await step(page);
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
});

test('offline after the first visit: a reload with no network opens the lab, loads lesson 1 and steps; a checkpoint missing offline is one sentence', async ({ page, context }) => {
  const lesson = LESSONS[0];
  await page.goto(`${site.url}${SUB_PATH}?backend=cpu&lesson=${lesson.id}`);
  await ready(page);
  await offlineReady(page);
  await context.setOffline(true);
  site.down = true; // and the host is gone too, whatever reaches it
  try {
    await page.reload();
    await ready(page);
    await expect(page.getByTestId('lesson-text')).toContainText(lesson.title);
    await expect(page.getByTestId('engine-line')).toContainText('Base checkpoint');
    await step(page);
    expect(await page.evaluate(() => (window as any).__lab.cpuWorkers()), 'the CPU engine\'s worker script came from the precache').toBeGreaterThan(0);
    await page.screenshot({ path: 'test-results/host-offline.png' });
    // the checkpoint's cache entry lost (a half-filled cache): the page says so and starts from a fresh init
    await page.evaluate(async () => {
      for (const name of await caches.keys()) {
        const c = await caches.open(name);
        for (const r of await c.keys()) if (r.url.includes('/checkpoints/')) await c.delete(r);
      }
    });
    // the lesson's other variant: a reload of this page would resume its saved run (weights from this browser, no checkpoint read)
    await page.goto(`${site.url}${SUB_PATH}?backend=cpu&lesson=${lesson.id}&variant=1`);
    await ready(page);
    await expect(page.getByTestId('engine-line')).toContainText('could not be loaded');
    await expect(page.getByTestId('engine-line')).toContainText('fresh random init');
    await step(page);
  } finally {
    site.down = false;
    await context.setOffline(false);
  }
});

test('a new deployment is announced once; Reload switches to it (another tab mid-run too, after saving its last step) and the user\'s data stays', async ({ page }) => {
  await page.goto(`${site.url}${SUB_PATH}?backend=cpu`);
  await ready(page);
  await offlineReady(page);
  await page.reload(); // the second visit: the page now comes from the worker's cache
  await ready(page);
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await page.evaluate(async () => {
    localStorage.setItem('rlvr-host-test', 'kept');
    await new Promise<void>((ok, no) => {
      const req = indexedDB.open('rlvr-host-test', 1);
      req.onupgradeneeded = () => req.result.createObjectStore('s');
      req.onsuccess = () => { const t = req.result.transaction('s', 'readwrite'); t.objectStore('s').put('my run', 'k'); t.oncomplete = () => { req.result.close(); ok(); }; };
      req.onerror = () => no(req.error);
    });
  });
  site.version = 2;
  await page.reload(); // the browser looks for a new worker on each visit, and the cached old version opens meanwhile
  await ready(page);
  const notice = page.getByTestId('offline-notice');
  await expect(notice).toContainText('A new version of the lab is available', { timeout: 60_000 });
  await expect(notice).toHaveCount(1);
  expect(await page.locator('meta[name="rlvr-test-version"]').count()).toBe(0); // still the old version's files
  await page.screenshot({ path: 'test-results/host-update.png', clip: { x: 0, y: 0, width: 1280, height: 200 } });
  // a second tab of the lab, mid-run: the new worker takes it over too, and it reloads only after
  // the step in progress, with the run saved (at the end of the step in progress: autosave's save of it may not have landed)
  const tab = await page.context().newPage();
  await tab.goto(`${site.url}${SUB_PATH}?backend=cpu&numGenerations=2&promptsPerStep=1&evalEvery=50`);
  await ready(tab);
  await tab.evaluate(() => addEventListener('pagehide', () => { const s = (window as any).__lab.store.getState(); sessionStorage.setItem('at-reload', JSON.stringify({ steps: s.stepsCompleted, status: s.status })); }));
  await tab.getByRole('button', { name: /Play/ }).click();
  await tab.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 1, null, { timeout: 60_000 });
  const tabReloaded = tab.waitForEvent('load', { timeout: 60_000 });
  await Promise.all([page.waitForEvent('load'), notice.getByRole('button', { name: 'Reload' }).click()]);
  await tabReloaded;
  const atReload = JSON.parse((await tab.evaluate(() => sessionStorage.getItem('at-reload'))) ?? 'null');
  console.log('the second tab at its reload:', atReload);
  expect(atReload).toMatchObject({ status: 'paused' }); // stopped at a step's end, not reloaded mid-step
  await expect(tab.getByTestId('resume-offer')).toContainText(`was saved in this browser at step ${atReload.steps} (`, { timeout: 60_000 }); // every step it took is offered back
  expect(await tab.content()).toContain(V2_MARK.slice(0, 30));
  await tab.close();
  await ready(page);
  expect(await page.content()).toContain(V2_MARK.slice(0, 30));
  await expect(notice).toHaveCount(0);
  const kept = await page.evaluate(async () => ({
    local: localStorage.getItem('rlvr-host-test'),
    idb: await new Promise((ok) => {
      const req = indexedDB.open('rlvr-host-test', 1);
      req.onsuccess = () => { const g = req.result.transaction('s').objectStore('s').get('k'); g.onsuccess = () => ok(g.result); };
      req.onerror = () => ok(null);
    }),
    caches: await caches.keys(),
  }));
  expect(kept.local).toBe('kept');
  expect(kept.idb).toBe('my run');
  expect(kept.caches.every((c) => c.startsWith('workbox-'))).toBe(true); // the worker's caches are its own
  site.version = 1;
});

test('storage too small for the precache (a quota error): one sentence, and the lab runs', async ({ page, context }) => {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: site.url, quotaSize: 200_000 }); // under the checkpoints alone
  await page.goto(`${site.url}${SUB_PATH}?backend=cpu`);
  await ready(page);
  await expect(page.getByTestId('offline-notice')).toContainText('could not be stored', { timeout: 60_000 });
  await step(page);
});

test('a failed service worker registration is one sentence; the lab runs', async ({ page }) => {
  await page.goto(`${site.url}${NO_SW_PATH}?backend=cpu`);
  await ready(page);
  await expect(page.getByTestId('offline-notice')).toContainText('Offline use is not available in this browser');
  await step(page);
});

test('served over plain http from another machine (no HTTPS): one sentence says why there is no offline use, and the lab runs', async () => {
  // lab.test resolves to this machine: an http:// origin that is not localhost, so not a secure context
  const browser = await chromium.launch({ executablePath: findBrowser() ?? undefined, args: ['--no-sandbox', '--host-resolver-rules=MAP lab.test 127.0.0.1'] });
  try {
    const page = await browser.newPage();
    await page.goto(`${site.url.replace('127.0.0.1', 'lab.test')}${SUB_PATH}`);
    await ready(page);
    await expect(page.getByTestId('offline-notice')).toContainText('not served over HTTPS');
    await expect(page.getByTestId('cpu-badge')).toBeVisible();
    await step(page);
  } finally {
    await browser.close();
  }
});
