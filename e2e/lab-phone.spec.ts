import { expect, settled, test, type Page } from './fixtures.ts';
import { getLesson } from '../src/rl/lessons.ts';

// The lab on a phone (390×844): nothing wider than the screen, the transport (Play/Pause/Step)
// before the import card and stuck at the top however far one scrolls, the lesson card folds away, the lesson's charts come
// first, and a focused control's formula opens under it without covering the next one.
// CPU reference engine: fast here. Screenshots go to test-results/.

test.use({ viewport: { width: 390, height: 844 } });
test.setTimeout(120_000);

const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
/** Whether the element is inside the viewport and is what a tap at its centre reaches (nothing covers it). */
const reachable = (page: Page, testId: string) => page.getByTestId(testId).evaluate((el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth && !!hit && el.contains(hit);
});

test('at 390×844 nothing overflows, Play stays at the top while scrolling, the lesson card folds, the lesson\'s charts come first', async ({ page }) => {
  const lesson = getLesson('entropy-collapse')!;
  await page.goto('/?backend=cpu');
  await settled(page);
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);

  // Play comes before the import card (which follows the charts, as on a wide screen)
  const top = async (testId: string) => page.getByTestId(testId).evaluate((el) => el.getBoundingClientRect().top + scrollY);
  const playTop = await page.getByRole('button', { name: /Play/ }).evaluate((el) => el.getBoundingClientRect().top + scrollY);
  expect(playTop).toBeLessThan(await top('import-run'));
  expect(await top('chart-reward')).toBeLessThan(await top('import-run'));

  await page.goto(`/?backend=cpu&lesson=${lesson.id}&promptsPerStep=4&numGenerations=4`); // small batches (the claim is still judged: the lesson sets neither)
  await settled(page);
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/phone-top.png' });

  // the lesson's charts first, in its order (the page's order is reward, groups, …)
  const order = await page.locator('.chart-card').evaluateAll((cards) => cards
    .map((c) => ({ id: c.getAttribute('data-testid')!.replace('chart-', ''), y: c.getBoundingClientRect().top }))
    .sort((a, b) => a.y - b.y).map((c) => c.id));
  expect(order.slice(0, lesson.charts.length)).toEqual(lesson.charts);

  // scrolled to the bottom (past the settings, the runs and the explanations), Play is still on screen and uncovered
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForFunction(() => window.scrollY > 3000);
  const play = page.getByRole('button', { name: /Play/ });
  await expect(play).toBeInViewport();
  expect(await play.evaluate((el) => { const r = el.getBoundingClientRect(); return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); })).toBe(true);
  await page.screenshot({ path: 'test-results/phone-bottom.png' });
  // and it works from there: one step
  await page.getByRole('button', { name: /^Step/ }).click();
  await expect(page.getByTestId('run-status')).toContainText('1 step', { timeout: 60_000 });
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);

  // the lesson card folds to one line (its title) and opens again
  await page.evaluate(() => window.scrollTo(0, 0));
  const fold = page.getByTestId('lessons-fold');
  const card = page.getByRole('region', { name: 'Lessons' });
  const tall = (await card.boundingBox())!.height;
  await expect(fold).toHaveAttribute('aria-expanded', 'true');
  await fold.click();
  await expect(fold).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('lesson-text')).toHaveCount(0);
  await expect(page.getByTestId(`lesson-${lesson.id}`)).toHaveCount(0);
  await expect(page.getByTestId('lesson-folded')).toHaveText(lesson.title);
  const folded = (await card.boundingBox())!.height;
  expect(folded).toBeLessThan(90);
  expect(folded).toBeLessThan(tall / 3); // the card is short (issue 48.4: the explanation under "Why?"); folded, its title only
  await page.screenshot({ path: 'test-results/phone-folded.png' });
  await fold.click();
  await expect(page.getByTestId('lesson-text')).toBeVisible();

  // a focused control's formula opens under it: the next control stays uncovered and reachable
  const eps = page.getByLabel('Clip range ε', { exact: true });
  await eps.focus();
  await eps.press('ArrowRight');
  const tip = page.getByTestId('control-epsilon').getByRole('tooltip');
  await expect(tip).toBeVisible();
  await page.getByTestId('control-epsilonHigh').scrollIntoViewIfNeeded();
  const t = (await tip.boundingBox())!, next = (await page.getByTestId('control-epsilonHigh').boundingBox())!;
  expect(t.y + t.height).toBeLessThanOrEqual(next.y + 0.5);
  expect(t.x + t.width).toBeLessThanOrEqual(390);
  expect(await reachable(page, 'control-epsilonHigh')).toBe(true);
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);

  // one update stepped through to its last phase (wide tables of answers): still no sideways scrolling
  await page.getByLabel('Step through one update').check();
  for (let i = 1; i <= 6; i++) {
    await page.getByRole('button', { name: /^Step|^Next phase/ }).first().click();
    await page.waitForFunction((n) => { const ins = (window as any).__lab.store.getState().inspector; return ins && !ins.busy && ins.phase === n - 1; }, i, { timeout: 60_000 });
  }
  await expect(page.getByTestId('inspector').locator('table.answers').first()).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
  await page.getByTestId('inspector').screenshot({ path: 'test-results/phone-step-through.png' });
});
