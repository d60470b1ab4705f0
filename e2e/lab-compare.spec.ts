import { expect, test } from './fixtures.ts';

// The counterfactual update: before the update is applied, the same sampled batch under GRPO,
// Dr. GRPO, DAPO and GSPO from the same weights. The numbers differ where the chapter says they
// must, and the update the run then applies is its own objective's column.

const values = async (page: import('@playwright/test').Page, objective: string, column: string) =>
  (await page.locator(`[data-testid="compare-numbers"] td[data-objective="${objective}"][data-col="${column}"]`).evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value')))));

test('compare objectives on one batch: four columns that differ where the chapter says, and the run applies its own', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?backend=cpu&task=digitsum&difficulty=1&maxCompletionLength=14&promptsPerStep=8&numGenerations=8&formatReward=0');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await page.getByLabel('Step through one update').check();
  const phase = page.getByTestId('inspector-phase');
  await page.getByRole('button', { name: /Start: sample a rollout/ }).click();
  await expect(phase).toHaveAttribute('data-phase', 'prompts', { timeout: 60_000 });
  await page.locator('h1').click();
  for (const next of ['answers', 'verdicts', 'advantages']) {
    await page.keyboard.press('ArrowRight');
    await expect(phase).toHaveAttribute('data-phase', next, { timeout: 60_000 });
  }
  // a group whose wrong answers differ in length (the strip picks it)
  const groups = await page.evaluate(() => (window as any).__lab.store.getState().inspector.rollout.groups.map((g: any) => g.answers.map((a: any) => ({ correct: a.correct, n: a.tokens.length }))));
  const p = groups.findIndex((g: { correct: boolean; n: number }[]) => g.some((a) => a.correct) && new Set(g.filter((a) => !a.correct).map((a) => a.n)).size > 1);
  expect(p, 'a mixed group with wrong answers of two lengths').toBeGreaterThanOrEqual(0);
  await page.getByTestId('group-strip').getByRole('button', { name: new RegExp(`^P${p + 1} `) }).click();

  await page.getByRole('button', { name: 'Compare objectives on this batch' }).click();
  const numbers = page.getByTestId('compare-numbers');
  await expect(numbers).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.compare-formula')).toHaveCount(4);
  await expect(numbers.locator('th.obj-head')).toHaveText(['GRPO (this run)', 'Dr. GRPO', 'DAPO (token-mean)', 'GSPO (sequence ratio)']);

  const lengths = groups[p].map((a: { n: number }) => a.n);
  const wGrpo = await values(page, 'grpo', 'weight');
  const wDr = await values(page, 'dr_grpo', 'weight');
  const wDapo = await values(page, 'dapo', 'weight');
  // GRPO: B·w = 1/|o_i|, different across the group's answers; Dr. GRPO: one constant 1/L_max for every answer
  wGrpo.forEach((w, i) => expect(w * lengths[i]).toBeCloseTo(1, 5));
  expect(new Set(wGrpo.map((w) => w.toFixed(6))).size).toBeGreaterThan(1);
  wDr.forEach((w) => expect(w).toBeCloseTo(1 / 14, 6));
  expect(new Set(wDapo.map((w) => w.toFixed(9))).size).toBe(1);
  // advantages: Dr. GRPO's is r − mean, not divided by σ: it differs from GRPO's on a mixed group
  const aGrpo = await values(page, 'grpo', 'advantage');
  const aDr = await values(page, 'dr_grpo', 'advantage');
  expect(aDr).not.toEqual(aGrpo);
  expect(await values(page, 'gspo', 'advantage')).toEqual(aGrpo);
  // per-token push: GRPO pushes a long wrong answer less per token than a short one; Dr. GRPO the same
  const ratio = async (o: string) => Number(await page.locator(`td[data-objective="${o}"] [data-testid="wrong-push"]`).getAttribute('data-ratio'));
  expect(await ratio('grpo')).toBeLessThan(0.95);
  expect(await ratio('dr_grpo')).toBeCloseTo(1, 6);
  // four different updates
  const deltas = await Promise.all(['grpo', 'dr_grpo', 'dapo', 'gspo'].map((o) => values(page, o, 'delta')));
  for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) expect(deltas[i]).not.toEqual(deltas[j]);
  await page.getByTestId('compare').screenshot({ path: 'test-results/compare-1280.png' });
  console.log('step-through section with the comparison (px):', (await page.getByTestId('inspector').boundingBox())!.height);

  // the run goes on with its own objective: the applied update moves each answer as the GRPO column said
  await page.locator('h1').click();
  await page.keyboard.press('ArrowRight');
  await expect(phase).toHaveAttribute('data-phase', 'ratios', { timeout: 60_000 });
  const applied = await page.evaluate((p) => (window as any).__lab.store.getState().inspector.details[p].map((d: any) => d.logpAfter - d.logpBefore), p);
  applied.forEach((d: number, i: number) => expect(d).toBeCloseTo(deltas[0][i], 4));
  await expect(page.getByTestId('run-status')).toContainText('1 step');
});
