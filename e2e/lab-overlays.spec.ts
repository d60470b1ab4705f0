import { expect, settled, test, type Page } from './fixtures.ts';

// Only comparable runs are overlaid (src/store/overlays.ts). Lesson 7 and lesson 1 share the task
// (add), difficulty, base checkpoint and seed, so only the lesson tells them apart: lesson 7's run
// must not be drawn on lesson 1's charts; lesson 1's first variant must be drawn beside its second,
// named "1 · G = 2"; a pinned run is drawn beside anything. And the held-out figure at step 0 is
// one number: the engine line, the status line and the chart's first point.

const lab = (page: Page, f: string) => page.evaluate(`(() => { const s = window.__lab.store.getState(); return ${f}; })()`);
async function steps(page: Page, n: number) {
  for (let i = 1; i <= n; i++) {
    await page.getByRole('button', { name: /^Step/ }).click();
    await settled(page, (s, n) => s.stepsCompleted === n, i);
  }
}
const legends = (page: Page) => page.locator('.charts .recharts-legend-wrapper').allTextContents();

test('another lesson\'s run is not overlaid; a sibling variant is, as "1 · G = 2"; a pinned run is; one held-out figure at step 0', async ({ page }) => {
  await page.goto('/?backend=cpu&lesson=kl-estimators&promptsPerStep=4');
  await settled(page);

  // one number for one thing: the engine line quotes the step-0 evaluation the status line and the chart show
  const e0 = await lab(page, 's.evals[0]') as { step: number; heldout_accuracy: number; pass_at_k: Record<string, number>; per_prompt?: { greedy: number[] } };
  expect([e0.step, e0.per_prompt?.greedy.length]).toEqual([0, 256]);
  const greedy = `held-out accuracy (greedy) ${e0.heldout_accuracy.toFixed(2)}`;
  // a lesson's step 0 reads its whole held-out set (rl/contract.ts: 256 prompts), and the line says so
  await expect(page.getByTestId('engine-line')).toContainText(`At step 0, on this run's 256 held-out prompts: ${greedy}, held-out pass@1 (sampled) ${e0.pass_at_k['1'].toFixed(2)}.`);
  await expect(page.getByTestId('run-status')).toContainText(greedy);
  expect(await page.getByTestId('engine-line').textContent()).not.toMatch(/held-out accuracy \d/); // no other figure (the checkpoint's own, from another held-out set)
  console.log('engine line:', await page.getByTestId('engine-line').textContent());
  console.log('status line:', await page.getByTestId('run-status').textContent());

  // lesson A (7) a few steps, then lesson B (1): nothing of A on B's charts
  await steps(page, 2);
  await page.getByTestId('lesson-mixed-groups').click();
  await settled(page, (s) => s.lessonId === 'mixed-groups' && s.stepsCompleted === 0);
  const a = await lab(page, 's.runs[0]') as { id: number; name: string };
  expect(a.name).toBe('7 · k3');
  await steps(page, 1);
  expect((await legends(page)).join(' | ')).not.toContain('7 ·');
  await expect(page.getByTestId('chart-reward').locator('.recharts-legend-wrapper')).toContainText('held-out accuracy (greedy)');
  await expect(page.getByTestId('chart-reward').locator('.recharts-line')).toHaveCount(3); // the live run's three lines, no overlay
  await expect(page.getByTestId('overlay-select')).toBeDisabled(); // no run of lesson 1 yet
  await expect(page.getByTestId(`recent-run-${a.id}`)).toContainText('not overlaid');
  await expect(page.getByTestId('lesson-contrast')).toHaveCount(0); // lesson 7's run is no sibling of lesson 1's

  // B's second variant: its first is overlaid, by lesson number and variant label
  await page.getByRole('button', { name: 'G = 8', exact: true }).click();
  await settled(page, (s) => s.lessonVariant === 1 && s.stepsCompleted === 0);
  await steps(page, 1);
  const b = await lab(page, 's.runs[0]') as { id: number; name: string };
  expect(b.name).toBe('1 · G = 2');
  // the card reads its contrast against the sibling only between frozen verdicts: not after one step of each
  await expect(page.getByTestId('lesson-contrast')).toHaveCount(0);
  await expect(page.getByTestId('chart-reward').locator('.recharts-legend-wrapper')).toContainText('reward, 1 · G = 2');
  await expect(page.getByTestId('chart-reward').locator('.recharts-legend-wrapper')).toContainText('held-out accuracy (greedy), 1 · G = 2');
  await expect(page.getByTestId('chart-groups').locator('.recharts-legend-wrapper')).toContainText('mixed, 1 · G = 2');
  await expect(page.getByTestId('chart-reward').locator('.recharts-line')).toHaveCount(5);
  expect((await legends(page)).join(' | ')).not.toContain('7 ·');
  await expect(page.getByTestId('overlay-select').locator('option')).toHaveText(['none', /^1 · G = 2: Run \d+/]);

  // a pinned run is drawn beside any run, on purpose
  await page.getByRole('button', { name: `Pin ${a.name} (run ${a.id})` }).click();
  await expect(page.getByTestId('chart-entropy').locator('.recharts-legend-wrapper')).toContainText(`entropy, ${a.name}`);
  await expect(page.getByTestId('chart-entropy').locator('.recharts-legend-wrapper')).toContainText('entropy, 1 · G = 2');
  await page.getByTestId('chart-reward').scrollIntoViewIfNeeded();
  await page.getByTestId('chart-reward').screenshot({ path: 'test-results/overlays-reward.png' });
  await page.getByRole('region', { name: 'Runs and sharing' }).screenshot({ path: 'test-results/overlays-runs-panel.png' });
  await page.getByRole('button', { name: `Unpin ${a.name} (run ${a.id})` }).click();
  await expect(page.getByTestId('chart-entropy').locator('.recharts-legend-wrapper')).not.toContainText(a.name);
});
