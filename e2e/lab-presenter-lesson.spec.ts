import AxeBuilder from '@axe-core/playwright';
import { expect, settled, test, type Page } from './fixtures.ts';
import { getLesson } from '../src/rl/lessons.ts';
import { TOUR } from '../src/store/tour.ts';

// The presenter stays in the lesson (issue 48, item 3). Lesson 1 played to its verdict in the
// presenter view: → walks its charts into the step-through of the lesson's own run and ← comes
// back, the lesson still the lesson (→ past the last chart used to start a new run outside any
// lesson — "no lesson (lesson 1's run keeps its verdict at step 40, under Runs)" — which ← did not
// undo and Space then trained). The class tour opens from the presenter (T, in its footer), and C,
// listed under the tour too, opens the class results there. CPU reference, lesson 1's own knobs.

const store = (page: Page) => page.evaluate(() => (window as any).__lab.store.getState());
test.setTimeout(420_000); // lesson 1 to its verdict: about a minute on a busy 2-core machine

test('lesson 1 at its verdict: → through its charts into the step-through of its own run, ← back with the lesson kept, Space trains it; T the class tour, C the class results under it', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  const lesson = getLesson('mixed-groups')!;
  const n = lesson.charts.length;
  const at = lesson.variants[0].claim.steps;
  await page.goto('/?backend=cpu&lesson=mixed-groups&present=1');
  const view = page.getByRole('dialog', { name: 'Presenter view' });
  const heading = page.getByTestId('presenter-heading');
  const item = page.getByTestId('presenter-item');
  const caption = page.getByTestId('presenter-caption');
  const verdict = view.getByTestId('presenter-verdict');
  const footer = view.locator('footer.presenter-keys');
  await expect(view).toBeVisible();
  await settled(page);
  await expect(heading).toHaveText(lesson.title);

  // Space plays lesson 1 to its verdict (Play stops there), judged once
  await page.keyboard.press(' ');
  await settled(page, (s, k) => s.stepsCompleted >= k && s.verdict !== null, at, 360_000);
  await expect(verdict).toHaveAttribute('data-step', String(at));
  await expect(verdict).toHaveAttribute('data-state', /^(holds|fails|unclear)$/);
  const judged = (await verdict.getAttribute('data-state'))!;

  // → through the lesson's charts
  for (let i = 2; i <= n; i++) {
    await page.keyboard.press('ArrowRight');
    await expect(item).toHaveText(new RegExp(`^chart ${i} of ${n}: `));
  }
  // → onto the step-through: the run is at its verdict, the title says what the next → does, nothing is computed or left
  await page.keyboard.press('ArrowRight');
  await expect(item).toHaveText(`step-through of one update: not started (the run is at its verdict, step ${at})`);
  await expect(caption).toContainText(`→ steps through update ${at + 1} of this same run, past its verdict: the verdict stays as judged`);
  await expect(heading).toHaveText(lesson.title);
  expect(await store(page)).toMatchObject({ lessonId: lesson.id, stepMode: false, stepsCompleted: at, leftLesson: null });

  // ← back: the lesson's last chart, the lesson still selected, its verdict under the chart
  await page.keyboard.press('ArrowLeft');
  await expect(item).toHaveText(new RegExp(`^chart ${n} of ${n}: `));
  await expect(heading).toHaveText(lesson.title);
  await expect(verdict).toHaveAttribute('data-state', judged);

  // → → : the step-through of the lesson's own run, past its verdict (not a new run outside the lesson)
  await page.keyboard.press('ArrowRight');
  await expect(item).toHaveText(/^step-through of one update: not started \(the run is at its verdict/);
  await page.keyboard.press('ArrowRight');
  await expect(item).toHaveText('step-through: phase 1 of 6 — prompts', { timeout: 60_000 });
  await expect(view.getByTestId('inspector-phase')).toHaveAttribute('data-phase', 'prompts');
  await page.keyboard.press('ArrowRight');
  await expect(item).toHaveText('step-through: phase 2 of 6 — answers', { timeout: 60_000 });
  await expect(heading).toHaveText(lesson.title);
  let s = await store(page);
  expect([s.lessonId, s.liveOrigin?.lessonId, s.leftLesson, s.stepsCompleted]).toEqual([lesson.id, lesson.id, null, at]);
  expect(s.verdict).toMatchObject({ lessonId: lesson.id, step: at, continued: true });

  // ← ← : back to the lesson's charts, the lesson still the lesson, its verdict as judged
  await page.keyboard.press('ArrowLeft');
  await expect(item).toHaveText('step-through: phase 1 of 6 — prompts');
  await page.keyboard.press('ArrowLeft');
  await expect(item).toHaveText(new RegExp(`^chart ${n} of ${n}: `));
  await expect(heading).toHaveText(lesson.title);
  await expect(verdict).toHaveAttribute('data-step', String(at));
  await expect(verdict).toHaveAttribute('data-state', judged);

  // Space trains the lesson's own run on, past its verdict
  await page.keyboard.press(' ');
  await page.waitForFunction((k) => (window as any).__lab.store.getState().stepsCompleted > k, at, { timeout: 120_000 });
  await page.keyboard.press(' ');
  await settled(page);
  s = await store(page);
  expect([s.lessonId, s.liveOrigin?.lessonId, s.leftLesson, s.verdict?.step]).toEqual([lesson.id, lesson.id, null, at]);
  await expect(heading).toHaveText(lesson.title);

  // the class tour from the presenter: T, listed in the footer (and C beside it)
  await expect(footer).toContainText('T class tour');
  await expect(footer).toContainText('C class results');
  await page.keyboard.press('t');
  const card = view.getByTestId('tour-card');
  await expect(card).toBeVisible();
  await expect(page.getByTestId('tour-count')).toHaveText(`Class tour · stop 1 of ${TOUR.length}`);
  await expect(caption).toHaveCount(0); // the card in the caption's place
  await expect(footer).toContainText('T or Esc leave the tour');
  await expect(footer).toContainText('C class results'); // listed under the tour: it works there
  await expect(heading).toHaveText(lesson.title);
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).include('[data-testid="presenter"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(' ')).slice(0, 3).join(' | ')}`)).toEqual([]);
  await page.keyboard.press('ArrowRight'); // → is the tour's
  await expect(page.getByTestId('tour-count')).toHaveText(`Class tour · stop 2 of ${TOUR.length}`);

  // C under the tour: the class results, Esc back to the item with the tour still at its stop
  const itemBefore = await item.textContent();
  await page.keyboard.press('c');
  await expect(heading).toHaveText('Class results');
  await page.keyboard.press('Escape');
  await expect(heading).toHaveText(lesson.title);
  await expect(item).toHaveText(itemBefore!);
  await expect(page.getByTestId('tour-count')).toHaveText(`Class tour · stop 2 of ${TOUR.length}`);

  // T again leaves the tour: the caption back, the lesson kept; Esc then leaves the view
  await page.keyboard.press('t');
  await expect(card).toHaveCount(0);
  await expect(caption).toBeVisible();
  await expect(footer).toContainText('T class tour');
  await expect(view).toBeFocused();
  expect((await store(page)).lessonId).toBe(lesson.id);
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
});
