import { expect, settled, test, type Page } from './fixtures.ts';
import { decodeResult, encodeResult } from '../src/class/code.ts';
import { sample } from '../src/class/testSample.ts';
import { getLesson } from '../src/rl/lessons.ts';

// Issue 48 item 6, "nothing lost", as a student meets it (CPU reference, production build).
// Lesson 1 at G = 2 with the lesson's own settings (P = 16, G = 2: a micro batch would not be the
// variant, and its verdict would not be judged, so nothing could be shared): a reload mid-run
// loses no completed step (autosave saves after each) and comes back without a button; Play runs
// on to the verdict step; a reload there brings the verdict, the prediction and one sentence
// naming the run back, with no click; after G = 8 starts, the G = 2 run is shared from the runs
// list with the code its card gave. And the class pool says "reading…" from a paste until the
// pool is computed, never "0 runs pooled." meanwhile. Screenshots go to $SHOTS48 (default test-results/shots48).

const SHOTS = process.env.SHOTS48 ?? 'test-results/shots48';
const LESSON = getLesson('mixed-groups')!;
const N = LESSON.variants[0].claim.steps;
type Any = any;
const store = (page: Page): Promise<Any> => page.evaluate(() => (window as Any).__lab.store.getState());

test('lesson 1: a reload mid-run and at the verdict comes back without a button; the earlier run is shared from the runs list with its card\'s code', async ({ page }) => {
  test.setTimeout(600_000);
  await page.goto(`/?backend=cpu&lesson=${LESSON.id}&variant=0`);
  await settled(page);
  await page.getByTestId('predict-2').click(); // "lower": the code carries it
  const cameBack = page.getByTestId('came-back');
  await expect(cameBack).toHaveCount(0); // nothing to come back to yet

  // a reload mid-run: the run is saved after every step, so every completed step comes back
  await page.getByRole('button', { name: /Play/ }).click();
  const savedAt = await (await page.waitForFunction(() => {
    const s = (window as Any).__lab.store.getState();
    // saved as far as it ran, at a step no periodic save every 5 steps would have saved
    return s.status === 'running' && s.stepsCompleted >= 3 && s.stepsCompleted % 5 !== 0 && s.lastSave?.step === s.stepsCompleted && s.stepsCompleted;
  }, null, { timeout: 180_000, polling: 20 })).jsonValue() as number;
  await page.reload();
  await settled(page, (s, n) => s.stepsCompleted >= n, savedAt);
  const back = await store(page);
  console.log(`reloaded mid-run with ${savedAt} steps saved; back at ${back.stepsCompleted}`);
  expect([back.lessonId, back.lessonVariant, back.resumeOffer]).toEqual([LESSON.id, 0, null]);
  await expect(page.getByTestId('resume-offer')).toHaveCount(0); // nothing to press
  await expect(cameBack).toHaveText(`Your lesson 1 run is back: G = 2 paused at step ${back.stepsCompleted}.`);
  await expect(page.getByTestId('prediction')).toContainText('you predicted lower');

  // on to the verdict step: Play stops there by itself
  const t0 = Date.now();
  await page.getByRole('button', { name: /Play/ }).click();
  await settled(page, (s, n) => s.stepsCompleted === n && s.verdict !== null, N, 480_000);
  console.log(`lesson 1, G = 2, steps ${back.stepsCompleted}–${N} on the CPU reference: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  await expect(cameBack).toHaveCount(0); // said of the run as it came back: gone with the next step
  const verdict = page.getByTestId('lesson-verdict');
  await expect(verdict).toHaveAttribute('data-step', String(N));
  const sentence = (await page.getByTestId('lesson-verdict-sentence').textContent())!;
  const state = await verdict.getAttribute('data-state');
  await page.getByTestId('share-result').click();
  const cardCode = await page.getByTestId('share-code').inputValue();

  // a reload at the verdict: the verdict is there without a click
  await page.evaluate(() => (window as Any).__lab.savesSettled());
  await page.reload();
  await settled(page, (s, n) => s.stepsCompleted === n && s.verdict !== null, N);
  await expect(page.getByTestId('resume-offer')).toHaveCount(0);
  await expect(page.getByTestId('lesson-verdict-sentence')).toHaveText(sentence);
  await expect(verdict).toHaveAttribute('data-step', String(N));
  await expect(cameBack).toHaveText(`Your lesson 1 run is back: G = 2 judged at step ${N}.`);
  await expect(page.getByTestId('prediction')).toContainText('you predicted lower');
  await page.getByTestId('share-result').click();
  await expect(page.getByTestId('share-code')).toHaveValue(cardCode);
  await cameBack.screenshot({ path: `${SHOTS}/came-back.png` });
  await page.getByTestId('lesson-text').screenshot({ path: `${SHOTS}/reload-at-verdict.png` });

  // G = 8 starts: G = 2 goes to the runs list, and is shared from there with the code its card gave
  await page.getByRole('button', { name: LESSON.variants[1].label }).click();
  await settled(page, (s) => s.lessonVariant === 1 && s.runs.length === 1);
  const id = (await store(page)).runs[0].id as number;
  const share = page.getByTestId(`recent-run-share-${id}`);
  await expect(share).toBeVisible();
  await share.click();
  const listCode = await page.getByTestId(`recent-run-${id}-code`).inputValue();
  expect(listCode).toBe(cardCode);
  const d = decodeResult(listCode);
  expect(d.ok, d.ok ? '' : d.why).toBe(true);
  if (d.ok) expect([d.result.lessonId, d.result.variant, d.result.seed, d.result.steps, d.result.prediction, d.result.verdict]).toEqual([LESSON.id, 0, 1, N, 2, state]);
  await page.getByTestId(`recent-run-${id}`).screenshot({ path: `${SHOTS}/runs-list-share.png` });

  // and after a reload (G = 8 not run yet: nothing saved of it), the runs list and its code are back, said in one sentence
  await page.evaluate(() => (window as Any).__lab.savesSettled());
  await page.reload();
  await settled(page, (s) => s.runs.length === 1);
  await expect(cameBack).toHaveText(`Your lesson 1 run is back: G = 2 judged at step ${N}.`);
  const kept = (await store(page)).runs[0].id as number;
  await page.getByTestId(`recent-run-share-${kept}`).click();
  await expect(page.getByTestId(`recent-run-${kept}-code`)).toHaveValue(cardCode);
});

test('the class pool says "reading…" from the paste until the pool is computed, never "0 runs pooled." meanwhile', async ({ page }) => {
  const codes = Array.from({ length: 21 }, (_, i) => encodeResult(sample({ seed: 100 + i, variant: i % 2, claim: i % 2 ? 0.06 : -0.08, held: i % 3 !== 0 })));
  await page.goto('/?backend=cpu');
  const results = page.getByTestId('class-results');
  await results.locator('summary').click();
  // every text the summary line shows, from the paste on
  await page.evaluate(() => {
    const seen: string[] = ((window as Any).__summaries = []);
    const note = () => { const t = document.querySelector('[data-testid="class-summary"]')?.textContent ?? null; if (t !== null && t !== seen.at(-1)) seen.push(t); };
    new MutationObserver(note).observe(document.querySelector('[data-testid="class-results"]')!, { subtree: true, childList: true, characterData: true });
  });
  await results.getByLabel('Paste results').fill(codes.join('\n'));
  await expect(page.getByTestId('class-summary')).toHaveText('21 runs pooled.');
  const seen = await page.evaluate(() => (window as Any).__summaries as string[]);
  console.log('the summary line, from the paste on:', seen);
  expect(seen[0]).toBe('Pasted text: reading…');
  expect(seen.at(-1)).toBe('21 runs pooled.');
  expect(seen.filter((t) => /^0 runs pooled/.test(t))).toEqual([]);
  await expect(page.getByTestId('class-summary')).toHaveAttribute('role', 'status'); // announced
});
