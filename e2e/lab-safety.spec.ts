import { expect, test, type Page } from './fixtures.ts';

// Model output as text, and a page that stays responsive while training.
// Backend: the CPU reference (?backend=cpu); its steps are synchronous work on the main thread,
// the hardest case for responsiveness (the loop yields between phases and between steps).

const get = (page: Page, f: string) => page.evaluate(`(() => { const s = window.__lab.store.getState(); return ${f}; })()`);

test('model output containing HTML or script is shown as text', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  await page.goto('/?backend=cpu');
  await expect(page.getByTestId('run-status')).toContainText('paused', { timeout: 60_000 });
  const evil = '<img src=x onerror=alert(1)>';
  // Inject a crafted rollout through the store (the test hook), as if the model had written it.
  await page.evaluate((evil) => {
    const answer = (text: string, correct: boolean) => ({ text, reason: `wrong: expected cba, got ${text}`, correct, formatOk: false, reward: 0, advantage: 0, finished: true, tokens: [...text] });
    (window as any).__lab.store.setState({
      stepMode: true,
      inspector: {
        phase: 2, computed: 3, busy: false, details: null, settings: null,
        rollout: { step: 0, G: 2, groups: [{ prompt: 'r:abc=', answers: [answer(evil, false), answer('<script>alert(2)</script>', false)] }] },
      },
    });
  }, evil);
  const phase = page.getByTestId('inspector-phase');
  await expect(phase).toHaveAttribute('data-phase', 'verdicts');
  await expect(phase.getByTestId('answer-text').first()).toHaveText(evil);
  await expect(phase.getByText(`wrong: expected cba, got ${evil}`)).toBeVisible();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await phase.locator('script').count()).toBe(0);
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
});

test('pause pressed mid-step takes effect before the next step; controls stay usable during a run', async ({ page }) => {
  // A larger batch so a step lasts long enough to press pause inside it.
  await page.goto('/?backend=cpu&numGenerations=6&promptsPerStep=12&evalEvery=200');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await page.getByRole('button', { name: /Play/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 1, null, { timeout: 60_000 });

  // Controls during the run: G by keyboard; the value shows at once and a later rollout uses it.
  const G = page.getByLabel('Group size G');
  await G.focus();
  const t0 = Date.now();
  await G.press('ArrowRight');
  await expect(page.getByTestId('value-numGenerations')).toHaveText('7');
  const latency = Date.now() - t0;
  await page.waitForFunction(() => (window as any).__lab.store.getState().lastRollout?.G === 7, null, { timeout: 60_000 });

  // Pause while a step is in progress.
  let midStep = false;
  for (let attempt = 0; attempt < 5 && !midStep; attempt++) {
    if (attempt > 0) await page.getByRole('button', { name: /Play/ }).click();
    await page.waitForFunction(() => (window as any).__lab.store.getState().inStep, null, { timeout: 60_000 });
    // what the transport says between the press and the pause (the step in progress finishes first);
    // watched from the press on (a capturing click listener runs before the page's own handler), so a
    // status line that moves on mid-step before the press is not taken for the answer to it
    await page.evaluate(() => {
      const seen: string[] = ((window as any).__transport = []);
      const read = () => { const t = `${document.querySelector('.transport button.primary')?.textContent} | ${document.querySelector('[data-testid="run-status"]')?.textContent}`; if (seen.at(-1) !== t) seen.push(t); };
      window.addEventListener('click', () => {
        new MutationObserver(read).observe(document.querySelector('.transport')!, { subtree: true, childList: true, characterData: true });
      }, { capture: true, once: true });
    });
    await page.getByRole('button', { name: /Pause/ }).click();
    await page.waitForFunction(() => (window as any).__lab.store.getState().status === 'paused', null, { timeout: 60_000 });
    midStep = (await get(page, 's.pausedAt.midStep')) as boolean;
  }
  expect(midStep).toBe(true);
  const pausedAt = (await get(page, 's.pausedAt.stepsStarted')) as number;
  // pressed mid-step: the button and the status say a pause is coming until the step ends, then "paused"
  const said = (await page.evaluate(() => (window as any).__transport)) as string[];
  console.log(`the transport after Pause: ${said.join(' → ')}`);
  expect(said[0]).toMatch(new RegExp(`^❚❚ Pausing… \\| pausing after the step in progress · ${pausedAt - 1} steps?`));
  expect(said.at(-1)).toMatch(new RegExp(`^▶ Play \\| paused · ${pausedAt} steps?`));
  await page.waitForTimeout(2000);
  const started = (await get(page, 's.stepsStarted')) as number;
  const completed = (await get(page, 's.stepsCompleted')) as number;
  console.log(`slider latency during the run ${latency} ms; pause pressed during step ${pausedAt}; steps started ${started}, completed ${completed}`);
  expect(started).toBe(pausedAt); // no step started after pause was pressed
  expect(completed).toBe(started); // the step in progress finished cleanly
  await expect(page.getByTestId('run-status')).toContainText(`paused · ${completed} steps`);
});
