import { expect, test } from './fixtures.ts';
import { getLesson } from '../src/rl/lessons.ts';

// A lesson is a claim with a check, judged live: the card states the claim, says "pending" until
// the claim's steps, then gives the verdict with this run's own numbers. Lesson 7 (KL estimators)
// on the CPU reference (fast here); its claim holds on every seed the lessons table runs.

test('the lesson card shows the claim and its live verdict with the run\'s own numbers', async ({ page }) => {
  const lesson = getLesson('kl-estimators')!;
  const claim = lesson.variants[0].claim;
  await page.goto('/?backend=cpu&lesson=kl-estimators&seed=3');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  const verdict = page.getByTestId('lesson-verdict');
  await expect(verdict).toContainText(claim.text);
  await expect(verdict).toHaveAttribute('data-state', 'pending');
  await expect(verdict).toContainText(`the verdict comes at step ${claim.steps}`);
  await page.getByRole('button', { name: /Play/ }).click();
  await page.waitForFunction((n) => (window as any).__lab.store.getState().stepsCompleted >= n, claim.steps, { timeout: 120_000 });
  await page.getByRole('button', { name: /Pause/ }).click();
  await expect(verdict).toHaveAttribute('data-state', 'holds', { timeout: 30_000 });
  // the sentence quotes this run's numbers: the estimator and the exact KL of its last steps
  const s = await page.evaluate(() => (window as any).__lab.store.getState().steps);
  const last3 = s.slice(-3);
  const k3 = last3.reduce((a: number, m: { kl: number }) => a + m.kl, 0) / last3.length;
  await expect(verdict).toContainText(`In this run: k3 ${k3.toFixed(2)} vs exact`);
  await expect(verdict).toContainText('✓');
  await page.getByTestId('lesson-text').screenshot({ path: 'test-results/lesson-verdict-kl.png' });
});
