import { expect, test, type Page } from './fixtures.ts';
import { stubViteClient, watchErrors } from './reliability-page.ts';

// Persistence: the run (settings, metric history, latest checkpoint with AdamW state, π_ref,
// trainer counters and prompt stream) is saved in IndexedDB after every step and on pause; a reload
// outside the lessons offers, in words, to resume it exactly where it was (a lesson's page resumes
// its own run by itself: lab-nothing-lost.spec.ts). Storage that refuses (quota) is reported, not thrown.
// Backend: the CPU reference (deterministic, so the resumed step can be compared exactly).

// evalEvery = 5: the save the reload finds (the first at step 5 or later) falls on a step that ends with an evaluation
const URL = '/?backend=cpu&numGenerations=5&promptsPerStep=3&evalEvery=5&beta=0.02&seed=7';
const state = (page: Page, f: string) => page.evaluate(`(() => { const s = window.__lab.store.getState(); return ${f}; })()`);
const noTimes = ({ rollout_ms: _a, verify_ms: _b, update_ms: _c, ...m }: Record<string, unknown>) => m;

test('a reload mid-run offers the saved run and resumes it with identical settings, history and next step', async ({ page }) => {
  const errors = watchErrors(page);
  await stubViteClient(page);
  await page.goto(URL);
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await expect(page.getByTestId('resume-offer')).toHaveCount(0); // nothing saved yet
  // The first save at step 5 or later holds all further saves the moment it lands (a store
  // listener runs inside the write that records it): the run goes on, and the reload finds
  // exactly this save.
  await page.evaluate(() => {
    const lab = (window as any).__lab;
    const stop = lab.store.subscribe((s: any) => {
      if (!(s.lastSave?.step >= 5)) return;
      lab.holdSaves();
      (window as any).__heldAt = s.lastSave.step;
      stop();
    });
  });
  await page.getByRole('button', { name: /Play/ }).click();
  // Wait for the step after the save (what the uninterrupted run does next), and take the run as the page shows it.
  const saved = (await (await page.waitForFunction(() => {
    const at = (window as any).__heldAt;
    const s = (window as any).__lab.store.getState();
    const next = at !== undefined && s.steps.find((m: any) => m.step === at);
    return next && { at, settings: s.settings, steps: s.steps.filter((m: any) => m.step < at), evals: s.evals.filter((e: any) => e.step <= at), next, running: s.status };
  }, null, { timeout: 120_000 })).jsonValue()) as any;
  expect(saved.running).toBe('running'); // the reload comes mid-run
  const url = page.url();
  await page.reload();

  const offer = page.getByTestId('resume-offer');
  await expect(offer).toBeVisible({ timeout: 60_000 });
  console.log('resume prompt:', await offer.textContent());
  await expect(offer).toContainText(new RegExp(`^Your run outside the lessons \\(Reverse a word, difficulty 2, 5 answers per prompt, a model of \\d+ layers \\d+ wide\\) was saved in this browser at step ${saved.at} \\(at \\d\\d:\\d\\d\\)\\.`));
  expect(await offer.textContent()).not.toMatch(/G=|D=|L=/); // words, not field names
  await offer.getByRole('button', { name: 'Resume it' }).click();
  await expect(page.getByTestId('run-status')).toContainText(`paused · ${saved.at} steps`, { timeout: 60_000 });
  const back = (await state(page, '({ settings: s.settings, steps: s.steps, evals: s.evals })')) as any;
  expect(back.settings).toEqual(saved.settings);
  expect(back.steps).toEqual(saved.steps);
  expect(back.evals).toEqual(saved.evals);
  expect(back.evals.at(-1).step).toBe(saved.at); // the saved step's own evaluation is in the save
  expect(page.url()).toBe(url);
  await expect(page.getByTestId('engine-line')).toContainText(`Resumed the run saved in this browser at step ${saved.at}`);

  // The next step is the one the uninterrupted run took: same weights, AdamW state, π_ref and prompts.
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction((n) => (window as any).__lab.store.getState().steps.length > n, back.steps.length, { timeout: 60_000 });
  const next = (await state(page, 's.steps.at(-1)')) as Record<string, unknown>;
  console.table([{ run: 'uninterrupted', ...pick(saved.next) }, { run: 'resumed', ...pick(next) }]);
  expect(noTimes(next)).toEqual(noTimes(saved.next));
  expect(errors).toEqual([]);
});

test('"Start fresh" forgets the saved run; a damaged record is named, not thrown', async ({ page }) => {
  const errors = watchErrors(page);
  await stubViteClient(page);
  await page.goto(URL);
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await page.getByRole('button', { name: /^Step/ }).click(); // a step, then paused: saved
  await page.waitForFunction(() => (window as any).__lab.store.getState().lastSave?.step === 1, null, { timeout: 60_000 });
  await page.reload();
  await page.getByTestId('resume-offer').getByRole('button', { name: 'Start fresh' }).click();
  await expect(page.getByTestId('resume-offer')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await expect(page.getByTestId('resume-offer')).toHaveCount(0);

  // Damage the stored record (a later lab version, or a bad disk): the page says why it cannot resume.
  await page.evaluate(() => new Promise<void>((resolve, reject) => {
    const req = indexedDB.open('rlvr-lab'); // its current version (the runs list added a store)
    req.onsuccess = () => {
      const tx = req.result.transaction('runs', 'readwrite');
      tx.objectStore('runs').put({ format: 'rlvr-lab-run', version: 99 }, 'latest');
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    };
    req.onerror = () => reject(req.error);
  }));
  await page.reload();
  const fault = page.getByTestId('fault-resume');
  await expect(fault).toBeVisible({ timeout: 60_000 });
  console.log('damaged record:', await fault.textContent());
  await expect(fault).toContainText('it was saved in format version 99; this lab reads version 1');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  expect(errors).toEqual([]);
});

test('storage over quota: the save failure is reported in words and training goes on', async ({ page, context }) => {
  const errors = watchErrors(page);
  await stubViteClient(page);
  const cdp = await context.newCDPSession(page);
  await page.goto(URL);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new globalThis.URL(page.url()).origin, quotaSize: 16 * 1024 });
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await page.getByRole('button', { name: /^Step/ }).click();
  const fault = page.getByTestId('fault-storage');
  await expect(fault).toBeVisible({ timeout: 60_000 });
  const text = (await fault.textContent()) ?? '';
  console.log('quota:', text);
  expect(text).toContain('storage for this site is full (quota exceeded)');
  expect(text).toContain('Training goes on');
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().steps.length === 2, null, { timeout: 60_000 });
  expect(await state(page, 's.error')).toBeNull();
  expect(await state(page, 's.lastSave')).toBeNull();
  expect(errors).toEqual([]);
});

function pick(m: any) {
  return { step: m.step, reward: m.reward, entropy: m.entropy, kl: m.kl, grad_norm: m.grad_norm, frac_mixed: m.frac_mixed };
}
