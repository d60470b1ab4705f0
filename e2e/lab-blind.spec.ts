import { expect, settled, test, type Page } from './fixtures.ts';
import { lessonQuestion } from '../src/class/question.ts';
import { LESSONS } from '../src/rl/lessons.ts';

// Blind until the class predicts (issue 48): on every lesson that asks a question, before the
// student predicts, nothing on the page states the outcome — none of the phrases its explanation
// uses to state it (Lesson.reveals: titles, variant names, chart captions, the explanations panel).
// After the prediction the explanation shows them (the phrases are real: the test can fail).

const asked = LESSONS.filter((l) => lessonQuestion(l));
/** Each phrase found, with the words around it (where it leaked). */
const found = (text: string, phrases: readonly string[]) => phrases.flatMap((p) => {
  const i = text.toLowerCase().indexOf(p.toLowerCase());
  return i < 0 ? [] : [`"${p}" in …${text.slice(Math.max(0, i - 60), i + p.length + 30).replace(/\s+/g, ' ')}…`];
});
/** All the page's text, shown or folded away (a closed "Why?" is one click from the student): the blind check is on every word in it. */
const bodyText = (page: Page) => page.evaluate(() => document.body.textContent ?? '');

test('every lesson with a question, blind: no phrase that states its outcome on the page or the projector (every chart); after the teacher\'s R the explanation says them', async ({ page }) => {
  test.setTimeout(600_000);
  await page.goto('/?backend=cpu');
  await settled(page);
  const table: { lesson: string; blindLeaks: string[]; afterSkip: number }[] = [];
  for (const l of asked) {
    await page.getByTestId(`lesson-${l.id}`).click();
    // the card and the charts as they open (no need to wait for the step-0 evaluation: what is blind is the text)
    await page.waitForFunction((id) => (window as any).__lab.store.getState().lessonId === id, l.id);
    await expect(page.getByTestId('lesson-text').getByRole('heading', { level: 2 })).toHaveText(l.title);
    await expect(page.getByTestId('lesson-text')).toHaveAttribute('data-blind', 'true');
    await expect(page.getByTestId('explanations')).toHaveAttribute('data-blind', 'true');
    const leaks = found(await bodyText(page), l.reveals!);
    // the projector, blind too: every chart of the lesson, its caption the chart's question, the lesson's question asked
    await page.getByTestId('presenter-open').click();
    const view = page.getByTestId('presenter');
    await expect(view).toHaveAttribute('data-blind', l.id);
    await expect(page.getByTestId('presenter-question')).toContainText(lessonQuestion(l)!.text);
    let onProjector: string[] = [];
    for (let i = 0; ; i++) {
      const item = await page.getByTestId('presenter-item').textContent();
      onProjector = [...onProjector, ...found(await view.innerText(), l.reveals!).map((x) => `${item}: ${x}`)];
      if (!/^chart (\d+) of \1:/.test(item ?? '') && i < 12) { await page.keyboard.press('ArrowRight'); await expect(page.getByTestId('presenter-item')).not.toHaveText(item!); } else break;
    }
    // the teacher's key: the class has predicted; the lesson's captions (its explanation) show, and the page is no longer blind
    await page.keyboard.press('r');
    await expect(view).not.toHaveAttribute('data-blind', /.+/);
    await expect(page.getByTestId('presenter-question')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(view).toHaveCount(0);
    await expect(page.getByTestId('lesson-text')).toHaveAttribute('data-blind', 'false');
    const after = found(await bodyText(page), l.reveals!).length;
    table.push({ lesson: l.id, blindLeaks: [...leaks, ...onProjector], afterSkip: after });
  }
  console.table(table);
  for (const r of table) {
    expect(r.blindLeaks, `${r.lesson} blind`).toEqual([]);
    expect(r.afterSkip, `${r.lesson} after the prediction`).toBeGreaterThan(0);
  }
});
