import { expect, test } from './fixtures.ts';

// Lesson 5's matched-tokens chart on a live CPU run: the trained policy at T + Q·L̄ with its
// held-out pass@1, best-of-N on the base at Q·N·L̄₀ with pass@N — every number the run's own
// evaluations (read back from the store and recomputed here), and the previous run (GRPO) beside
// the current one (RFT). P = 8 (not a lesson knob) keeps GRPO's steps short; the RFT button
// restarts from the lesson's settings (P = 32), on the same seed and base.

type Ev = { step: number; pass_at_k: Record<string, number>; mean_length: number };
type St = { step: number; num_tokens: number };
const expected = (steps: St[], evals: Ev[], Q: number, name: string) => {
  const T = (s: number) => Math.max(0, ...steps.filter((m) => m.step < s).map((m) => m.num_tokens));
  return evals.map((e) => [`${name}, step ${e.step}`, Math.round(T(e.step) + Q * e.mean_length).toLocaleString('en'), e.pass_at_k['1'].toFixed(3)]);
};
const bestOfN = (base: Ev, Q: number) => Object.entries(base.pass_at_k).map(([n, p]) => [`best-of-${n} on the base`, Math.round(Q * Number(n) * base.mean_length).toLocaleString('en'), p.toFixed(3)]);

test('matched tokens: GRPO then RFT as they train, best-of-N on the base, at the tokens of Q questions', async ({ page }) => {
  await page.goto('/?backend=cpu&lesson=grpo-vs-best-of-n&promptsPerStep=8');
  const status = page.getByTestId('run-status');
  const chart = page.getByTestId('chart-tokens');
  const table = chart.getByTestId('tokens-table');
  const rows = () => table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  const state = () => page.evaluate(() => { const s = (window as any).__lab.store.getState(); return { steps: s.steps, evals: s.evals, runs: s.runs }; });
  const play = async (evals: number) => {
    await page.getByRole('button', { name: /Play/ }).click();
    await page.waitForFunction((n) => (window as any).__lab.store.getState().evals.length >= n, evals, { timeout: 60_000 });
    await page.getByRole('button', { name: /Pause/ }).click();
    await expect(status).toContainText('paused', { timeout: 30_000 });
  };

  await expect(status).toContainText('paused · 0 steps', { timeout: 60_000 });
  await expect(chart).toHaveClass(/highlight/); // lesson 5 points at it
  await play(2); // the evaluation after step 5 (evalEvery = 5)
  const grpo = await state();
  const base = grpo.evals[0] as Ev;
  expect(base.step).toBe(0);
  expect(Object.keys(base.pass_at_k)).toEqual(['1', '2', '4', '8']);
  expect(await rows()).toEqual([...expected(grpo.steps, grpo.evals, 1000, 'GRPO (this run)'), ...bestOfN(base, 1000)]);
  // drawn: one mark per evaluation for GRPO, one per N for best-of-N, and a legend naming both
  const marks = chart.locator('.recharts-scatter');
  await expect(marks).toHaveCount(2);
  await expect(marks.nth(0).locator('.recharts-scatter-symbol')).toHaveCount(grpo.evals.length);
  await expect(marks.nth(1).locator('.recharts-scatter-symbol')).toHaveCount(4);
  await expect(chart.locator('.recharts-legend-wrapper')).toContainText('GRPO, this run: held-out pass@1 (sampled)');
  await expect(chart.locator('.recharts-legend-wrapper')).toContainText('best-of-N on the base: held-out pass@N (sampled)');

  // Q moves every point by its own rule: best-of-N ×10 exactly, the trained points by Q·L̄ only
  await chart.getByTestId('tokens-questions').selectOption('10000');
  expect(await rows()).toEqual([...expected(grpo.steps, grpo.evals, 10_000, 'GRPO (this run)'), ...bestOfN(base, 10_000)]);
  await chart.getByTestId('tokens-questions').selectOption('1000');

  // RFT from the same base: the GRPO run stays on the chart, a sibling variant named by lesson and variant
  await page.getByRole('button', { name: 'Rejection-sampling fine-tuning' }).click();
  await expect(status).toContainText('paused · 0 steps', { timeout: 60_000 });
  await play(2);
  const rft = await state();
  const prev = rft.runs[0];
  expect(prev.evals.every((e: Ev) => e.mean_length > 0 && Number.isFinite(e.pass_at_k?.['1'])), 'the previous run keeps pass@1 and the answers\' length').toBe(true);
  expect(rft.evals[0].pass_at_k).toEqual(base.pass_at_k); // the same base, the same held-out samples
  expect(await rows()).toEqual([
    ...expected(rft.steps, rft.evals, 1000, 'RFT (this run)'),
    ...expected(prev.steps, prev.evals, 1000, prev.name),
    ...bestOfN(rft.evals[0], 1000),
  ]);
  await expect(marks).toHaveCount(3);
  await expect(chart.locator('.recharts-legend-wrapper')).toContainText('5 · GRPO: held-out pass@1 (sampled)');
  expect(prev.name).toBe('5 · GRPO');
  await chart.scrollIntoViewIfNeeded();
  await chart.screenshot({ path: 'test-results/tokens-1280.png' });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await chart.scrollIntoViewIfNeeded();
  await chart.screenshot({ path: 'test-results/tokens-1920.png' });
});
