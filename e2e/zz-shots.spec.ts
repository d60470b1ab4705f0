import { expect, test } from './fixtures.ts';
import { getLesson } from '../src/rl/lessons.ts';
for (const [id, seed] of [['scratchpad', 4], ['reward-hacking', 3]] as const) {
  test(`shot ${id}`, async ({ page }) => {
    test.setTimeout(600_000);
    const claim = getLesson(id)!.variants[0].claim;
    await page.goto(`/?lesson=${id}&seed=${seed}`);
    await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 120_000 });
    await page.getByRole('button', { name: /Play/ }).click();
    await page.waitForFunction((n) => (window as any).__lab.store.getState().stepsCompleted >= n, claim.steps, { timeout: 500_000 });
    await page.getByRole('button', { name: /Pause/ }).click();
    await page.waitForFunction(() => (window as any).__lab.store.getState().status === 'paused', null, { timeout: 60_000 });
    console.log(id, await page.getByTestId('engine-line').textContent(), '|', await page.getByTestId('lesson-verdict').textContent());
    await page.screenshot({ path: `test-results/verdict-${id}-1280x800.png` });
  });
}
