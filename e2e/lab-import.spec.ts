import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, settled, test, type Page } from './fixtures.ts';

// Import a TRL run (issue 23, item 2): a TRL output folder (e2e/fixtures/trl/grpo-output: its
// trainer_state.json, a checkpoint's and three completion logs) chosen in the page appears on the
// lab's charts beside a browser run as "TRL run: grpo-output", with the run doctor's marks where
// its stop signals fire and the keys the lab does not know listed; a logged step goes through the
// step-through's first four phases; a corrupted file is refused in one sentence while the
// previous import and the lab's own run go on. Issue 29: a game score beside the browser run has
// short ticks on its own axis and x in % of each run's steps; a folder of 1051 files is thinned.

const FIX = join(import.meta.dirname, 'fixtures/trl');
async function steps(page: Page, n: number, from = 0) {
  for (let i = from + 1; i <= from + n; i++) {
    await page.getByRole('button', { name: /^Step/ }).click();
    await settled(page, (s, n) => s.stepsCompleted === n, i);
  }
}
/** A 500-step run whose reward is a game score from −9.66 to 10.9 (issue 29: its y axis printed "7158", "5264 / 8376"). */
const gameScore = () => JSON.stringify({ global_step: 500, log_history: Array.from({ length: 500 }, (_, i) => {
  const r = -9.66 + (20.56 * i) / 499 + (0.4 * Math.sin(i * 1.7) * Math.min(i, 499 - i)) / 250;
  return { step: i + 1, reward: r, reward_std: 3 + Math.cos(i) / 3, 'rewards/game_score/mean': r, entropy: 0.9 - i / 1000, 'completions/mean_length': 180 + (i % 7) };
}) });
const legend = (page: Page, chart: string) => page.getByTestId(`chart-${chart}`).locator('.recharts-legend-wrapper');

test('a TRL run beside a browser run: overlay, doctor marks, unknown keys, a logged step; a corrupted file is one sentence', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?backend=cpu&promptsPerStep=4');
  await settled(page);
  // a browser run of a few steps to draw beside the imported one (three, however long they take here)
  await page.getByRole('button', { name: /Play/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 3, null, { timeout: 120_000 });
  await page.getByRole('button', { name: /Pause/ }).click();
  await expect(page.getByTestId('run-status')).toContainText('paused');
  const done = Number(/paused · (\d+) step/.exec((await page.getByTestId('run-status').textContent()) ?? '')?.[1]);
  expect(done).toBeGreaterThan(2);

  // the output folder, as a student would choose it
  await page.getByTestId('import-trl-folder').setInputFiles(join(FIX, 'grpo-output'));
  await expect(page.getByTestId('trl-run-label')).toHaveText('TRL run: grpo-output', { timeout: 30_000 }); // the parquet reader's chunk loads on the first completion log
  await expect(page.getByTestId('trl-run')).toContainText('100 logged steps (2–200), 10 evaluations, 3 completion logs');
  await expect(legend(page, 'reward')).toContainText('reward, TRL run: grpo-output');
  await expect(legend(page, 'reward')).toContainText('reward_std, TRL run: grpo-output');
  await expect(legend(page, 'reward')).toContainText('held-out eval_rewards/accuracy_reward/mean, TRL run: grpo-output');
  await expect(legend(page, 'reward')).toContainText('held-out accuracy (greedy)'); // the browser run's lines stay
  await expect(legend(page, 'groups')).toContainText('mixed = 1 − frac_reward_zero_std (pass/fail rewards), TRL run: grpo-output');
  await expect(legend(page, 'length')).toContainText('completions/clipped_ratio (right axis), TRL run: grpo-output');
  await expect(legend(page, 'kl')).toContainText('clip_ratio/region_mean, TRL run: grpo-output');
  // the doctor: on the list, on the chart it concerns (its sentence and a mark where it first fires)
  await expect(page.getByTestId('doctor-finding-entropy-collapse')).toContainText('entropy collapses from step 90');
  await expect(page.getByTestId('doctor-finding-mixed-groups-vanishing')).toContainText('mixed groups disappear from step 132');
  await expect(page.getByTestId('doctor-findings').locator('li')).toHaveCount(2);
  await expect(page.getByTestId('chart-entropy').getByTestId('doctor-entropy-collapse')).toContainText('entropy fell from 0.765 to 0.185');
  await expect(page.getByTestId('chart-groups').getByTestId('doctor-mixed-groups-vanishing')).toContainText('(1 − frac_reward_zero_std, valid for pass/fail rewards)');
  await expect(page.getByTestId('chart-entropy').locator('.doctor-mark')).toHaveCount(1);
  await expect(page.getByTestId('chart-groups').locator('.doctor-mark')).toHaveCount(1);
  await expect(page.getByTestId('chart-entropy').getByRole('application')).toContainText('⚑ entropy collapses');
  await expect(page.getByTestId('trl-unknown-inline')).toContainText('sampling/importance_sampling_ratio/mean, sampling/sampling_logp_difference/mean');
  await expect(page.getByTestId('trl-run')).toContainText('the longest of 2 trainer_state.json files');

  await page.mouse.move(0, 790);
  const shot = async (testId: string, path: string) => {
    await page.getByTestId(testId).evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 8));
    await page.screenshot({ path });
  };
  await shot('import-run', '/tmp/issue23-import-1.png');
  await shot('chart-reward', '/tmp/issue23-import-2.png');
  await shot('chart-entropy', '/tmp/issue23-import-3.png');

  // x axis in tokens (num_tokens)
  await page.getByTestId('x-axis').selectOption('tokens');
  await expect(page.getByTestId('chart-entropy').locator('.recharts-label').first()).toContainText('tokens');
  await shot('chart-reward', '/tmp/issue23-import-4.png');
  await page.getByTestId('x-axis').selectOption('step');

  // a logged step through the first four phases
  await page.getByTestId('trl-step-through').locator('summary').click();
  await page.getByTestId('trl-step-select').selectOption({ label: '100 (completions_00100.parquet)' });
  await expect(page.getByTestId('trl-phase-prompts').locator('li')).toHaveCount(16);
  await page.getByRole('button', { name: '4. Advantages' }).click();
  await expect(page.getByTestId('trl-phase-advantages').locator('tbody tr')).toHaveCount(8);
  await expect(page.getByTestId('trl-step-through')).toContainText('The logged advantages match TRL’s formula');
  await expect(page.getByTestId('trl-phase-advantages').locator('caption')).toContainText('Prompt 5 of 16'); // the first group that teaches (prompts 1–4 are all-pass)
  await shot('trl-step-through', '/tmp/issue23-import-5.png');

  // a corrupted file: one sentence; the previous import stays, the lab's run goes on
  await page.getByTestId('import-trl').setInputFiles({ name: 'trainer_state.json', mimeType: 'application/json', buffer: Buffer.from('{"log_history": [{"step": 1, "reward": 0.5},') });
  await expect(page.getByTestId('trl-import-error')).toHaveText("trainer_state.json was not imported: it is not valid JSON (cut short or damaged?); the lab's own run is unchanged.");
  await expect(page.getByTestId('trl-run-label')).toHaveText('TRL run: grpo-output');
  await page.getByTestId('import-trl').setInputFiles({ name: 'completions_00020.parquet', mimeType: 'application/octet-stream', buffer: Buffer.from('PAR1 not really PAR1') });
  await expect(page.getByTestId('trl-import-error')).toContainText('completions_00020.parquet was not imported: ');
  await steps(page, 1, done); // the lab's run goes on
  await expect(page.getByTestId('chart-reward')).toHaveAttribute('data-points', /^\d+$/);

  // issue 29: a 500-step game score beside the browser run: short ticks, the score on its own axis, x in % of each run's steps
  await page.getByTestId('import-trl').setInputFiles({ name: 'trainer_state.json', mimeType: 'application/json', buffer: Buffer.from(gameScore()) });
  await expect(page.getByTestId('trl-run')).toContainText('500 logged steps (1–500)');
  await expect(page.getByTestId('trl-run')).toContainText('no accuracy read');
  await expect(page.getByTestId('trl-accuracy-note')).toContainText('rewards/game_score/mean runs from −9.66 to 10.9');
  const reward = page.getByTestId('chart-reward');
  await expect(legend(page, 'reward')).toContainText('reward (right axis), TRL run: trainer_state.json');
  await expect(reward.locator('.recharts-label').first()).toHaveText("% of each run's steps");
  const ticks = await reward.locator('.recharts-cartesian-axis-tick-value').allTextContents();
  expect(ticks.length).toBeGreaterThan(8);
  for (const t of ticks) {
    expect(t, `tick ${t}`).toMatch(/^−?[0-9.]+[kMB]?$/);
    expect(t.replace(/[^0-9]/g, '').replace(/^0+/, '').length, `tick ${t}`).toBeLessThanOrEqual(3);
  }
  expect(ticks).toEqual(expect.arrayContaining(['0', '100', '0.5', '−6', '12']));
  // the browser run's reward line (its first line) spans most of the plot, not a sliver at x = 0
  const grid = (await reward.locator('.recharts-cartesian-grid').boundingBox())!;
  const lab = (await reward.locator('.recharts-line').first().boundingBox())!;
  expect(lab.width).toBeGreaterThan(0.6 * grid.width);
  // the tooltip reads both runs at the same share of their steps
  await page.mouse.move(grid.x + grid.width * 0.55, grid.y + grid.height / 2);
  await expect(reward.getByTestId('chart-tip')).toContainText("% of each run's steps");
  await expect(reward.getByTestId('chart-tip')).toContainText('reward: ');
  await expect(reward.getByTestId('chart-tip')).toContainText('reward (right axis), TRL run: trainer_state.json: ');
  await page.mouse.move(0, 790);
  await shot('chart-reward', '/tmp/issue29-import-game-score.png');

  // issue 29: a folder of more than 1000 files (train_grpo.py --steps 500 writes a completion log a step) is thinned, as npm run doctor thins it
  const dir = mkdtempSync(join(tmpdir(), 'grpo-many-'));
  try {
    copyFileSync(join(FIX, 'grpo-output/trainer_state.json'), join(dir, 'trainer_state.json'));
    mkdirSync(join(dir, 'completions'));
    for (let s = 1; s <= 450; s++) copyFileSync(join(FIX, 'grpo-output/completions/completions_00020.parquet'), join(dir, `completions/completions_${String(s).padStart(5, '0')}.parquet`));
    mkdirSync(join(dir, 'runs'));
    for (let i = 0; i < 600; i++) writeFileSync(join(dir, `runs/events.${i}`), 'x');
    await page.getByTestId('import-trl-folder').setInputFiles(dir);
    await expect(page.getByTestId('trl-run')).toContainText('Of 1051 files, read 1 log and 151 of 450 completion logs (every 3rd, and the last); skipped 600 files the lab does not read', { timeout: 30_000 }); // 151 logs decoded
    await expect(page.getByTestId('trl-run')).toContainText('100 logged steps (2–200), 10 evaluations, 151 completion logs');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
