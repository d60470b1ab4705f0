import { expect, test, type Page } from './fixtures.ts';
import { LESSONS } from '../src/rl/lessons.ts';

// A new user's tour of the lab. Backend: the CPU reference (?backend=cpu) with a micro batch on the add-d1 base
// (P = 4 prompts × G = 4), because WebGPU on SwiftShader is slower than the reference here.

const CHARTS = ['reward', 'groups', 'advantages', 'theory', 'entropy', 'length', 'kl', 'passk'];
const state = (page: Page, f: string) => page.evaluate(`(() => { const s = window.__lab.store.getState(); return ${f}; })()`);
const points = (page: Page, id: string) => page.getByTestId(`chart-${id}`).getAttribute('data-points').then(Number);

test('tour: keyboard controls, 20 steps with every chart, one update phase by phase, every lesson, screenshots', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/?backend=cpu&task=add&numGenerations=4&promptsPerStep=4&evalEvery=5');
  await expect(page.getByTestId('webgpu-status')).toBeVisible();
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await expect(page.getByTestId('engine-line')).toContainText('CPU reference');

  // G, β and ε by keyboard, found by their labels (words + symbol).
  const G = page.getByLabel('Group size G');
  await G.focus();
  await G.press('ArrowRight');
  await G.press('ArrowRight');
  await expect(page.getByTestId('value-numGenerations')).toHaveText('6');
  const beta = page.getByLabel('KL coefficient β');
  await beta.focus();
  for (let i = 0; i < 4; i++) await beta.press('ArrowRight');
  await expect(page.getByTestId('value-beta')).toHaveText('0.02');
  const eps = page.getByLabel('Clip range ε', { exact: true });
  await eps.focus();
  await eps.press('ArrowLeft');
  await expect(page.getByTestId('value-epsilon')).toHaveText('0.19');
  // a 0 that is not a quantity says what it means (the settings table's `zero`), and only at 0
  await expect(page.getByTestId('zero-trainPool')).toHaveText('0 = all: the whole training split');
  await page.getByLabel('Training pool').fill('16');
  await expect(page.getByTestId('zero-trainPool')).toHaveCount(0);
  expect(await state(page, 's.settings.trainPool')).toBe(16);
  await page.getByLabel('Training pool').fill('0');
  await expect(page.getByTestId('zero-trainPool')).toBeVisible();
  // The tooltip (shown on hover and on focus) names the formula and TRL's name.
  await G.hover();
  const tip = page.getByTestId('control-numGenerations').getByRole('tooltip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('num_generations');
  await expect(tip).toContainText('1 − p^G − (1 − p)^G');
  await page.screenshot({ path: 'test-results/lab-tooltip.png', clip: { x: 0, y: 0, width: 640, height: 800 } });
  expect(await state(page, 's.settings.numGenerations')).toBe(6);
  expect(page.url()).toContain('numGenerations=6');
  expect(page.url()).toContain('beta=0.02');

  for (const id of CHARTS) expect(await points(page, id), id).toBe(id === 'reward' || id === 'passk' ? 1 : 0); // step-0 evaluation only

  // Play 20 steps (space bar), then pause.
  await page.locator('h1').click();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 20, null, { timeout: 180_000 });
  await page.keyboard.press('Space');
  await page.waitForFunction(() => (window as any).__lab.store.getState().status === 'paused');
  const table: Record<string, number> = {};
  for (const id of CHARTS) {
    table[id] = await points(page, id);
    expect(table[id], id).toBeGreaterThan(id === 'reward' || id === 'passk' ? 1 : 0);
    // lines, scatter symbols, bars and verdict marks (a zero advantage draws no bar, but its mark)
    // (a card out of sight draws in its own turn once the run stops: drawTurns.ts; wait for it)
    const marks = page.locator(['.recharts-line path', '.recharts-symbols', '.recharts-bar-rectangle', '.verdict-mark'].map((sel) => `[data-testid="chart-${id}"] ${sel}`).join(', '));
    await expect.poll(() => marks.count(), { message: `${id} draws` }).toBeGreaterThan(0);
  }
  console.log('points per chart after 20 steps:', JSON.stringify(table));
  // This tiny batch (P = 4, G = 6) makes noisy steps: every stop signal the detector raised on the run is on its chart
  const fired = await state(page, 's.signals.map((x) => x.id)') as string[];
  console.log('stop signals after 20 steps:', fired.join(', ') || 'none');
  for (const id of fired) await expect(page.getByTestId(`signal-${id}`).first()).toBeVisible();
  await page.getByTestId('chart-reward').screenshot({ path: 'test-results/lab-signal.png' });
  const last = await state(page, 's.lastRollout.G');
  expect(last).toBe(6);
  await page.screenshot({ path: 'test-results/lab-1280x800.png' });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: 'test-results/lab-1920x1080.png' });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Step through one update: every phase, forward by button and → key, back by ← key.
  await page.getByLabel('Step through one update').check();
  const phase = page.getByTestId('inspector-phase');
  await page.getByRole('button', { name: /Start: sample a rollout/ }).click();
  await expect(phase).toHaveAttribute('data-phase', 'prompts');
  await expect(phase.locator('.prompt-text').first()).toBeVisible();
  await page.locator('h1').click();
  for (const next of ['answers', 'verdicts', 'advantages', 'ratios', 'update']) {
    await page.keyboard.press('ArrowRight');
    await expect(phase).toHaveAttribute('data-phase', next, { timeout: 30_000 });
    if (next === 'verdicts') await expect(phase.locator('.verdict').first()).toBeVisible();
    if (next === 'advantages') await expect(phase.locator('.katex').first()).toBeVisible();
    if (next === 'ratios') await expect(phase.locator('.tok').first()).toBeVisible();
  }
  // the summary counts the answers the gradient pushed; a batch with no A ≠ 0 is said in words, not as "0 of 0"
  const pushed = await page.evaluate(() => (window as any).__lab.store.getState().inspector.rollout.groups.flatMap((g: any) => g.answers).filter((a: any) => a.advantage !== 0).length);
  await expect(page.getByTestId('update-summary')).toContainText(pushed ? /more likely: \d+ of \d+/ : /^No answer in this batch has A ≠ 0/);
  console.log('step-through:', await page.getByTestId('update-summary').textContent());
  await page.screenshot({ path: 'test-results/lab-inspector-update.png', fullPage: false });
  await page.keyboard.press('ArrowLeft');
  await expect(phase).toHaveAttribute('data-phase', 'ratios');
  await page.keyboard.press('ArrowLeft');
  await expect(phase).toHaveAttribute('data-phase', 'advantages');
  await page.getByTestId('inspector').screenshot({ path: 'test-results/lab-inspector-advantages.png' });
  expect(await state(page, 's.stepsCompleted')).toBeGreaterThanOrEqual(21); // the stepped update is a real step
  await page.getByLabel('Step through one update').uncheck();

  // Every lesson, one click each: knobs set, text shown, run reset to the base.
  const lessons = LESSONS.map((l) => ({ id: l.id, title: l.title, settings: { ...l.settings, ...l.variants[0].settings, task: l.base.task } }));
  expect(lessons.length).toBeGreaterThanOrEqual(7);
  for (const l of lessons) {
    await page.getByTestId(`lesson-${l.id}`).click();
    await expect(page.getByTestId('lesson-text')).toContainText(l.title);
    await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
    const s = await state(page, 's.settings');
    for (const [k, v] of Object.entries(l.settings)) expect((s as any)[k], `${l.id}: ${k}`).toBe(v);
    expect(page.url()).toContain(`lesson=${l.id}`);
    // The thinking chart exists only for tasks with a scratchpad; lesson 6 is about it: one step draws it.
    if (l.id === 'scratchpad') {
      await page.locator('h1').click();
      await page.keyboard.press('ArrowRight');
      await expect(page.getByTestId('run-status')).toContainText('paused · 1 step', { timeout: 60_000 });
      expect(await points(page, 'thinking')).toBe(1);
      // The control variant restarts from its own base; the run just made is overlaid on the charts.
      await page.getByRole('button', { name: /Whole digit sum/ }).click();
      await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
      expect(await state(page, 's.settings.task')).toBe('digitsum');
      await page.locator('h1').click();
      await page.keyboard.press('ArrowRight');
      await expect(page.getByTestId('run-status')).toContainText('paused · 1 step', { timeout: 60_000 });
      // The overlay is the run just ended: lesson 6's first variant, one step (its thinking share is on the chart),
      // named by lesson and variant (its sibling on another task: that contrast is the lesson, src/store/overlays.ts).
      const prev = await state(page, 's.runs[0]') as { id: number; name: string; settings: { task: string }; steps: unknown[] };
      expect(prev.settings.task).toBe('modsum');
      expect(prev.steps.length).toBe(1);
      expect(await state(page, 's.overlayRunId')).toBe(prev.id);
      expect(prev.name).toBe('6 · last digit'); // the variant's short name (its label is longer)
      await expect(page.getByTestId('chart-thinking')).toContainText(`share thinking, ${prev.name}`);
      await expect(page.getByTestId('chart-entropy')).toContainText(`entropy, ${prev.name}`);
      await page.getByTestId('chart-thinking').screenshot({ path: 'test-results/lab-thinking.png' });
    } else if (l.settings.task === 'add') await expect(page.getByTestId('chart-thinking')).toHaveCount(0);
  }
  await page.screenshot({ path: 'test-results/lab-lesson.png' });
  expect(errors).toEqual([]);
});
