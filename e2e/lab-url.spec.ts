import { expect, newRun, settled, test, type Page } from './fixtures.ts';
import { SETTINGS } from '../src/rl/settings.ts';

// Shareable runs. Backend: the CPU reference (?backend=cpu): same seed + same backend = same run.

const settingsOf = (page: Page) => page.evaluate(() => (window as any).__lab.store.getState().settings);
/** The first steps' metrics without wall-clock timings. */
async function firstSteps(page: Page, n: number) {
  for (let i = 0; i < n; i++) {
    await page.getByRole('button', { name: /^Step/ }).click();
    await page.waitForFunction((k) => (window as any).__lab.store.getState().stepsCompleted >= k, i + 1);
  }
  return page.evaluate(() => (window as any).__lab.store.getState().steps.map(({ rollout_ms: _a, verify_ms: _b, update_ms: _c, ...m }: any) => m));
}

test('a link copied from the address bar restores every setting and gives identical first steps', async ({ page, context }) => {
  await page.goto('/?backend=cpu&numGenerations=4&promptsPerStep=3&evalEvery=50');
  await settled(page);
  // Change settings the way a user does: sliders by keyboard, a select, a toggle.
  const G = page.getByLabel('Group size G');
  await G.focus();
  await G.press('ArrowRight');
  const beta = page.getByLabel('KL coefficient β');
  await beta.focus();
  await beta.press('ArrowRight');
  await beta.press('ArrowRight');
  await page.getByLabel('Advantage estimator').selectOption('dr_grpo');
  await page.getByLabel('Dynamic sampling', { exact: true }).check();
  await page.getByLabel('Sampling temperature τ').focus();
  await page.keyboard.press('ArrowLeft');
  const link = page.url();
  console.log('link:', link);
  const s1 = await settingsOf(page);
  expect(s1).toMatchObject({ numGenerations: 5, beta: 0.01, advantage: 'dr_grpo', dynamicSampling: true, temperature: 0.95 });

  const page2 = await context.newPage();
  await page2.goto(link);
  await settled(page2);
  const s2 = await settingsOf(page2);
  expect(s2).toEqual(s1);
  // Every control shows the restored value.
  for (const spec of SETTINGS) {
    const el = page2.locator(`#ctl-${spec.key}`);
    if (spec.kind === 'bool') expect(await el.isChecked(), spec.key).toBe(s1[spec.key]);
    else if (spec.kind === 'enum') await expect(el, spec.key).toHaveValue(String(s1[spec.key]));
    else if (spec.kind === 'int' && spec.max - spec.min > 200) await expect(el, spec.key).toHaveValue(String(s1[spec.key])); // a wide range is a number box (the seed, the training pool)
    else {
      // The control shows the number (small ones as 7.0e-4): it must read back as the restored value.
      const shown = Number(await page2.getByTestId(`value-${spec.key}`).textContent());
      expect(Math.abs(shown - s1[spec.key]), spec.key).toBeLessThanOrEqual(1e-6 + 0.05 * Math.abs(s1[spec.key]));
    }
  }
  await expect(page2.getByTestId('url-notices')).toHaveCount(0);

  // Both pages reset to the base, then run the same three steps (the reset's own run: "paused · 0 steps" before it too).
  await page.bringToFront(); // a tab in the background has its timers slowed to one a second: its steps took seconds each
  await newRun(page, () => page.getByRole('button', { name: /Reset/ }).click());
  const m1 = await firstSteps(page, 3);
  await page2.bringToFront();
  const m2 = await firstSteps(page2, 3);
  console.table(m1.map((m: any, i: number) => ({ step: m.step, reward_a: m.reward, reward_b: m2[i].reward, entropy_a: m.entropy, entropy_b: m2[i].entropy, kl_a: m.kl, kl_b: m2[i].kl })));
  expect(m2).toEqual(m1);
});

test('a malformed address never breaks the page and names what it ignored', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); void d.dismiss(); });
  await page.goto('/?backend=cpu&numGenerations=abc&beta=7&epsilon=-3&promptsPerStep=2.5&zzz=1&task=%3Cscript%3Ealert(1)%3C/script%3E&lesson=nope&dynamicSampling=maybe&hide=beta,bogus&classroom=yes&%%');
  const notices = page.getByTestId('url-notices');
  await expect(notices).toBeVisible();
  const text = (await notices.textContent()) ?? '';
  console.log(text);
  for (const name of ['numGenerations', 'beta', 'epsilon', 'promptsPerStep', 'zzz', 'task', 'nope', 'dynamicSampling', 'bogus', 'classroom']) expect(text, name).toContain(name);
  await settled(page);
  const s = await settingsOf(page);
  expect(s).toMatchObject({ numGenerations: 8, beta: 1, epsilon: 0, promptsPerStep: 3, task: 'reverse', dynamicSampling: false });
  await expect(page.getByTestId('value-beta')).toHaveText('1');
  // The page still trains.
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 1);
  await page.screenshot({ path: 'test-results/lab-malformed-url.png' });
  expect(errors).toEqual([]);
});

test('a lesson and its variants keep the seed the teacher chose (the same held-out prompts for every variant)', async ({ page }) => {
  await page.goto('/?backend=cpu&lesson=mixed-groups&seed=3');
  await settled(page);
  expect((await settingsOf(page)).seed).toBe(3);
  // the variant's settings land with its new run's load (after the old run stops): wait for them, not for a status the old run also shows
  await page.getByRole('button', { name: 'G = 16', exact: true }).click();
  await settled(page, (s) => s.lessonVariant === 2 && s.settings.numGenerations === 16);
  expect((await settingsOf(page)).seed).toBe(3);
  expect(page.url()).toContain('seed=3');
  await page.getByTestId('lesson-length-bias').click();
  // its settings land when its run starts loading (lossType 'grpo' is the default: no evidence); the seed is read there, its run need not be measured
  await expect.poll(() => page.evaluate(() => (window as any).__lab.store.getState().lessonId), { timeout: 60_000 }).toBe('length-bias');
  expect(await settingsOf(page)).toMatchObject({ seed: 3, lossType: 'grpo' });
  expect(page.url()).toContain('seed=3');
});

test('Step pressed at once after Reset (twice) steps the new run, never the old one; the old run is archived once', async ({ page }) => {
  await page.goto('/?backend=cpu&numGenerations=4&promptsPerStep=3&evalEvery=50');
  await settled(page);
  const [first] = await firstSteps(page, 1);
  // Reset and Step in the same task: the Step must wait for the reset's new run (same seed: the same first step)
  await page.evaluate(() => {
    const buttons = [...document.querySelectorAll('button')];
    const reset = buttons.find((b) => /Reset/.test(b.textContent ?? ''))!;
    reset.click();
    reset.click(); // a second reset waits for the first: the old run is archived once (runs.length 1 below)
    buttons.find((b) => /^Step/.test(b.textContent ?? ''))!.click();
  });
  // the new run's step: archived old run, a live origin again (the reset's load sets it; archiving clears it), one step recorded
  // (the old run also reads "1 step, paused" for a moment after it is archived and before the load clears it)
  await page.waitForFunction(() => { const s = (window as any).__lab.store.getState(); return s.runs.length === 1 && s.liveOrigin !== null && s.stepsCompleted === 1 && s.steps.length === 1 && s.status === 'paused'; }, null, { timeout: 60_000 });
  const steps = await page.evaluate(() => (window as any).__lab.store.getState().steps.map(({ rollout_ms: _a, verify_ms: _b, update_ms: _c, ...m }: any) => m));
  expect(steps).toEqual([first]);
});
