import { expect, test } from './fixtures.ts';

// One update you can teach from: with the lab's default batch (P = 32 prompts, G = 8 answers)
// every phase of the step-through fits in about three screens at 1280×800 (the section at most
// 2,400 px tall), one group is shown in full and picked from a strip of every group, a token
// opens its objective term by term, and the update's headline counts cover every group.

test('step-through at P = 32, G = 8: one group in focus, every phase within 2,400 px, a token\'s terms on click', async ({ page }) => {
  await page.goto('/?backend=cpu&promptsPerStep=32&numGenerations=8&numIterations=2');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await page.getByLabel('Step through one update').check();
  const section = page.getByTestId('inspector');
  const phase = page.getByTestId('inspector-phase');
  await page.getByRole('button', { name: /Start: sample a rollout/ }).click();
  await expect(phase).toHaveAttribute('data-phase', 'prompts', { timeout: 60_000 });
  const heights: Record<string, number> = {};
  heights.prompts = (await section.boundingBox())!.height;
  await page.locator('h1').click();
  const strip = page.getByTestId('group-strip');
  for (const next of ['answers', 'verdicts', 'advantages', 'ratios', 'update']) {
    await page.keyboard.press('ArrowRight');
    await expect(phase).toHaveAttribute('data-phase', next, { timeout: 60_000 });
    heights[next] = (await section.boundingBox())!.height;
    // each phase shows only what it has computed: no pass counts while the answers are shown, no A ≠ 0 colour before the advantages
    if (next === 'answers') await expect(strip.getByRole('button').first()).toHaveText(/^P1$/);
    if (next === 'verdicts') await expect(strip.getByRole('button').first()).toHaveText(/^P1 \d\/8$/);
    if (next === 'answers' || next === 'verdicts') await expect(strip.locator('.mixed')).toHaveCount(0);
  }
  console.log('step-through section height by phase (px):', JSON.stringify(heights));
  for (const [ph, h] of Object.entries(heights)) expect(h, ph).toBeLessThanOrEqual(2400);

  // the strip: one button per group, with its pass count; the update phase adds each group's mean Δ log π
  await expect(strip.getByRole('button')).toHaveCount(32);
  await expect(strip.getByRole('button').first()).toHaveText(/^P1 \d\/8 [+-]/);
  await expect(strip).toContainText("the signed number is the group's mean Δ log π"); // said on the page, not only in a title
  // the step opened on the first group that teaches (its rewards differ)
  const teaching = await page.evaluate(() => (window as any).__lab.store.getState().inspector.rollout.groups.findIndex((g: any) => g.answers.some((a: any) => a.reward !== g.answers[0].reward)));
  expect(teaching).toBeGreaterThanOrEqual(0);
  await expect(strip.locator('[aria-pressed="true"]')).toHaveText(new RegExp(`^P${teaching + 1} `));
  await expect(strip.locator('[aria-pressed="true"]')).toHaveClass(/mixed/);
  await expect(page.getByTestId('update-summary')).toContainText(/more likely: \d+ of \d+/);
  await expect(page.getByText(/shared weights/)).toBeVisible();
  // both counts: this batch's gradient alone and AdamW's applied step, each the store's own numbers
  const counts = await page.evaluate(() => {
    const ins = (window as any).__lab.store.getState().inspector;
    const all = ins.details.flat().map((d: any, k: number) => ({ d, A: ins.rollout.groups.flatMap((g: any) => g.answers)[k].advantage }));
    const pos = all.filter((x: any) => x.A > 0);
    return { n: pos.length, alone: pos.filter((x: any) => x.d.logpGradientAlone > x.d.logpBefore).length, applied: pos.filter((x: any) => x.d.logpAfter > x.d.logpBefore).length, cosine: ins.stepGeometry.cosine };
  });
  console.log('update phase, A > 0 made more likely:', JSON.stringify(counts));
  await expect(page.getByTestId('up-gradient')).toHaveText(`${counts.alone} of ${counts.n}`);
  await expect(page.getByTestId('up-applied')).toHaveText(`${counts.applied} of ${counts.n}`);
  await expect(page.getByTestId('update-summary')).toContainText("by this batch's gradient alone");
  await expect(page.getByTestId('update-why')).toContainText(`made ${counts.alone} of the ${counts.n} answers with A > 0 more likely`);
  await expect(page.getByTestId('update-why')).toContainText(`cosine ${counts.cosine.toFixed(2)} with this batch's gradient`);
  // GRPO's promise beside the counts: the surrogate J = Σ w·A·Δ log π after each step, the store's own numbers
  const J = await page.evaluate(() => (window as any).__lab.store.getState().inspector.stepGeometry.objective);
  console.log('update phase, J = Σ w·A·Δ log π:', JSON.stringify(J));
  const signed = (x: number) => `${x > 0 ? '+' : ''}${Number(x.toPrecision(3))}`;
  const promise = page.getByTestId('objective-promise');
  await expect(promise).toBeVisible();
  await expect(page.getByTestId('promise-applied-sum')).toContainText(signed(J.applied));
  await expect(page.getByTestId('promise-alone-sum')).toContainText(signed(J.gradientAlone));
  await expect(page.getByTestId('promise-short-sum')).toContainText(signed(J.gradientShort));
  await expect(page.getByTestId('promise-short')).toContainText(signed(J.predictedShort)); // β = 0: the first-order prediction is shown
  expect(J.gradientShort).toBeGreaterThan(0); // the promise, kept in aggregate at a short step
  await expect(page.getByTestId('promise-alone-up')).toHaveText(`${counts.alone} of ${counts.n}`);
  await expect(page.getByTestId('promise-why')).toContainText('GRPO promises only this sum, and only to first order');
  await promise.screenshot({ path: 'test-results/step-through-promise.png' });
  // focus another group: the phase shows that prompt
  await strip.getByRole('button', { name: /^P7 / }).click();
  await expect(phase.locator('.group-prompt').first()).toContainText('Prompt 7:');
  // back to the ratios phase: the ratios after the update (they moved), a token opens its objective term by term, rounded as its row
  await page.locator('h1').click();
  await page.keyboard.press('ArrowLeft');
  await expect(phase).toHaveAttribute('data-phase', 'ratios');
  await expect(strip.getByRole('button').first()).toHaveText(/^P1 \d\/8$/); // the update's Δ log π is not on the chips of an earlier phase
  const moved = await page.evaluate(() => (window as any).__lab.store.getState().inspector.details.flat().flatMap((d: any) => d.ratioAfter).filter((r: number) => Math.abs(r - 1) > 1e-3).length);
  expect(moved).toBeGreaterThan(0);
  const row = phase.locator('.heat-line').first();
  await row.locator('.tok[role="button"]').first().click();
  const terms = page.getByTestId('token-terms');
  await expect(terms).toContainText(`${await row.locator('.num').first().textContent()}.`); // "A = −1." beside a row that says A = −1
  await expect(terms).toContainText(/At the start of the update ρ = 1 .*After the update ρ = [\d.]+/);
  await expect(terms).toContainText(/dL\/d log π = /);
  await page.locator('h1').click();
  // back to the answers: the chips as that phase had them
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(phase).toHaveAttribute('data-phase', 'answers');
  await expect(strip.getByRole('button').first()).toHaveText(/^P1$/);
  await page.screenshot({ path: 'test-results/step-through-focus.png' });
});

test('a batch where no answer has A ≠ 0 is said in words: the gradient pushed nothing', async ({ page }) => {
  // a fresh random init on a task without a shipped base, no format reward: every answer fails, every A = 0
  await page.goto('/?backend=cpu&task=countdown&formatReward=0&promptsPerStep=4&numGenerations=4');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await page.getByLabel('Step through one update').check();
  await page.getByRole('button', { name: /Start: sample a rollout/ }).click();
  const phase = page.getByTestId('inspector-phase');
  await expect(phase).toHaveAttribute('data-phase', 'prompts', { timeout: 60_000 });
  await page.locator('h1').click();
  for (const next of ['answers', 'verdicts', 'advantages', 'ratios', 'update']) {
    await page.keyboard.press('ArrowRight');
    await expect(phase).toHaveAttribute('data-phase', next, { timeout: 60_000 });
  }
  const pushed = await page.evaluate(() => (window as any).__lab.store.getState().inspector.rollout.groups.flatMap((g: any) => g.answers).filter((a: any) => a.advantage !== 0).length);
  expect(pushed).toBe(0);
  await expect(page.getByTestId('update-summary')).toContainText('No answer in this batch has A ≠ 0 (every group\'s rewards are equal), so the policy gradient pushed nothing');
  await expect(page.getByTestId('update-summary')).not.toContainText('0 of 0');
});
