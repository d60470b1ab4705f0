import { expect, settled, test } from './fixtures.ts';
import { LESSONS, getLesson } from '../src/rl/lessons.ts';

// The lesson card and the settings panel as a teacher meets them (1280×800, CPU reference): a
// first open says where to start; a focused slider's formula covers no other control and lets
// the pointer through; lesson texts show `code` as code; notices name settings by their labels;
// the card says at which step the verdict comes and, once the run's speed is measured, how long
// that is. Screenshots go to test-results/.

test.setTimeout(120_000);
type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('first open: a line says where to start (lesson 1); it opens the lesson, and once dismissed it stays away', async ({ page }) => {
  await page.goto('/?backend=cpu');
  await settled(page);
  const start = page.getByTestId('start-here');
  await expect(start).toBeVisible();
  await expect(start).toContainText('Start with lesson 1');
  await page.screenshot({ path: 'test-results/start-here.png', clip: { x: 0, y: 0, width: 1280, height: 260 } });
  await start.getByRole('button', { name: 'Open lesson 1' }).click();
  await expect(page.getByTestId('lesson-text')).toContainText(LESSONS[0].title);
  await expect(start).toHaveCount(0); // a lesson is chosen: nothing to point at
  await page.getByRole('button', { name: 'Leave lesson' }).click();
  await expect(start).toBeVisible();
  await start.getByRole('button', { name: 'Dismiss where to start' }).click();
  await expect(start).toHaveCount(0);
  await page.reload();
  await settled(page);
  await expect(page.getByRole('region', { name: 'Lessons' })).toBeVisible();
  await expect(start).toHaveCount(0);
});

test('a focused slider\'s formula covers no other control and takes no pointer: β is reachable right after ε', async ({ page }) => {
  await page.goto('/?backend=cpu');
  await settled(page);
  const eps = page.getByLabel('Clip range ε', { exact: true });
  await eps.focus();
  await eps.press('ArrowRight'); // by keyboard: the formula shows while ε has the focus
  await expect(page.getByTestId('value-epsilon')).toHaveText('0.21');
  const beta = page.getByLabel('KL coefficient β');
  await beta.scrollIntoViewIfNeeded(); // as a person would, before reaching for it
  const tip = page.getByTestId('control-epsilon').getByRole('tooltip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('epsilon');
  expect(await tip.evaluate((el) => getComputedStyle(el).pointerEvents)).toBe('none');
  const t = (await tip.boundingBox())!;
  const covered = await page.locator('.control, .transport').evaluateAll((els, t) => els.filter((el) => {
    if (el.getAttribute('data-testid') === 'control-epsilon') return false;
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.left < t.x + t.width && t.x < r.right && r.top < t.y + t.height && t.y < r.bottom;
  }).map((el) => el.getAttribute('data-testid') ?? el.className), t);
  expect(covered).toEqual([]);
  await page.screenshot({ path: 'test-results/tooltip-beside.png' });
  // the pointer goes straight to β, the control just below ε_high
  const b = (await beta.boundingBox())!;
  expect(overlaps(t, b)).toBe(false);
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  await expect(beta).toBeFocused();
  await expect(page.getByTestId('value-beta')).not.toHaveText('0');
});

test('the record on fresh seeds shows only after the prediction; a notice names settings by their labels', async ({ page }) => {
  await page.goto('/?backend=cpu&lesson=mixed-groups');
  await settled(page);
  await expect(page.getByTestId('lesson-record')).toHaveCount(0); // blind until the prediction: no record
  await page.getByTestId('predict-question').getByRole('button', { name: 'Skip' }).click();
  // the lesson's pre-registered record (lessonRecords.json), in the lesson's words: no command, no field name
  const record = page.getByTestId('lesson-record');
  await expect(record).toContainText('Recorded once on 10 fresh seeds (1001–1010; CPU reference');
  await expect(record).toContainText('G = 16: holds on');
  expect(await page.getByTestId('lesson-text').textContent()).not.toMatch(/npm run|`|_start|_end/);
  const G = page.getByLabel('Group size G');
  await G.focus();
  await G.press('ArrowRight'); // the variant sets G = 2
  const verdict = page.getByTestId('lesson-verdict');
  await expect(verdict).toHaveAttribute('data-state', 'changed');
  await expect(verdict).toContainText('Group size G is 3 (the variant sets 2)');
  await expect(verdict).not.toContainText('numGenerations');
});

test('the lesson card says at which step the verdict comes, and how long that is at the run\'s measured speed', async ({ page }) => {
  // lesson 1 at G = 2: its verdict comes at step 30, far beyond the few steps played here
  const claim = getLesson('mixed-groups')!.variants[0].claim;
  await page.goto('/?backend=cpu&lesson=mixed-groups');
  await settled(page);
  const verdict = page.getByTestId('lesson-verdict');
  await expect(verdict).toContainText(`Play runs to step ${claim.steps} and stops for the verdict.`);
  await expect(page.getByTestId('lesson-timing')).toHaveCount(0); // no speed measured yet: the step only
  await expect(verdict).not.toContainText('steps/s');
  await page.getByLabel('Speed').selectOption({ label: 'Normal' }); // 250 ms between steps: at most 4 steps/s
  await page.getByRole('button', { name: /Play/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 3, null, { timeout: 60_000 });
  await expect(page.getByTestId('lesson-timing')).toBeVisible(); // while it plays; it stays through the pause
  await page.getByRole('button', { name: /Pause/ }).click();
  await expect(page.getByTestId('run-status')).toContainText('paused', { timeout: 30_000 });
  const done: number = await page.evaluate(() => (window as any).__lab.store.getState().stepsCompleted);
  expect(done).toBeLessThan(claim.steps); // still before the verdict: the card gives the time left
  const timing = page.getByTestId('lesson-timing');
  await expect(timing).toBeVisible();
  const m = /about (\d+) (s|min) more at ([\d.]+) steps\/s/.exec((await timing.textContent()) ?? '');
  expect(m, await timing.textContent() ?? '').not.toBeNull();
  const rate = Number(m![3]), seconds = Number(m![1]) * (m![2] === 'min' ? 60 : 1);
  expect(rate).toBeGreaterThan(0);
  expect(rate).toBeLessThanOrEqual(4.5);
  expect(Math.abs(seconds - (claim.steps - done) / rate)).toBeLessThanOrEqual(Math.max(1.5, 0.2 * seconds));
  await page.getByTestId('lesson-text').screenshot({ path: 'test-results/lesson-timing.png' });
});
