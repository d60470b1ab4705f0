import type { Browser } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { decodeResult } from '../src/class/code.ts';
import { getLesson } from '../src/rl/lessons.ts';

// Issue 31, the class runs the experiment together: two students (two browser contexts, each
// with its own class seed, as class=1 gives each browser) predict, run lesson 1 at G = 2 to its
// verdict on the CPU reference (the lesson's own settings: P = 16, G = 2, to its verdict step: the
// sharing is the same for every variant, and G = 8's 128 answers a step cost minutes more here;
// ?backend=cpu because two runs side by side on SwiftShader take too long for CI) and share their codes;
// a third page (the teacher's, seed 1) pastes both inside chat text with one altered code: two
// runs are pooled, the altered one is refused by name, and the strip plot and the prediction line
// show the two seeds.

const port = Number(process.env.PW_PORT ?? 5199);
const base = `http://localhost:${port}`;
const SHOTS = process.env.H9_SHOTS ?? 'test-results';
/** Lesson 1 at G = 2 (its first variant): the step its verdict comes at, and with it "Share result". */
const VERDICT_STEP = getLesson('mixed-groups')!.variants[0].claim.steps;

async function student(browser: Browser, seed: number, predict: 0 | 2) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((s: number) => localStorage.setItem('rlvr-lab:class-seed', String(s)), seed);
  const page = await context.newPage();
  await page.goto(`${base}/?backend=cpu&class=1&lesson=mixed-groups&variant=0`);
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 120_000 });
  await expect(page.getByTestId('class-seed')).toContainText(`its own seed, ${seed} `);
  expect(await page.evaluate(() => (window as any).__lab.store.getState().settings.seed)).toBe(seed);
  // predict first: one click, before Play
  await page.getByTestId(`predict-${predict}`).click();
  await expect(page.getByTestId('prediction')).toContainText(predict === 0 ? 'higher' : 'lower');
  await expect(page.getByTestId('share-result')).toHaveCount(0); // no verdict yet: nothing to share
  const t0 = Date.now();
  await page.getByRole('button', { name: /Play/ }).click();
  // Play stops by itself at the verdict step, its verdict frozen there
  await page.waitForFunction((n) => { const s = (window as any).__lab.store.getState(); return s.stepsCompleted >= n && s.status === 'paused' && s.verdict; }, VERDICT_STEP, { timeout: 600_000 });
  expect(await page.evaluate(() => (window as any).__lab.store.getState().stepsCompleted)).toBe(VERDICT_STEP);
  const seconds = (Date.now() - t0) / 1000;
  await expect(page.getByTestId('lesson-verdict')).not.toHaveAttribute('data-state', 'pending', { timeout: 30_000 });
  await page.getByTestId('share-result').click();
  const code = await page.getByTestId('share-code').inputValue();
  expect(await page.getByTestId('share-link').inputValue()).toBe(`${base}/#result=${code}`);
  return { page, context, code, seconds };
}

test('two students share lesson 1 (G = 2) results; the teacher pools both from chat text and refuses an altered code by name', async ({ browser, page }) => {
  test.setTimeout(900_000);
  const [a, b] = await Promise.all([student(browser, 4127, 2), student(browser, 9311, 0)]);
  console.log(`lesson 1, G = 2, ${VERDICT_STEP} steps on the CPU reference, two pages side by side: ${a.seconds.toFixed(0)} s and ${b.seconds.toFixed(0)} s`);
  for (const [s, seed, p] of [[a, 4127, 2], [b, 9311, 0]] as const) {
    expect(s.code.length).toBeLessThanOrEqual(200);
    const d = decodeResult(s.code);
    expect(d.ok).toBe(true);
    if (d.ok) {
      expect([d.result.lessonId, d.result.variant, d.result.seed, d.result.prediction]).toEqual(['mixed-groups', 0, seed, p]);
      expect(d.result.weights).toMatch(/^[0-9a-f]{16}$/);
      const live = await s.page.evaluate(() => (window as any).__lab.store.getState().liveOrigin.weights);
      expect(d.result.weights).toBe(live);
    }
  }
  await a.page.getByTestId('lesson-text').screenshot({ path: `${SHOTS}/h9-share.png` });

  // the teacher: seed 1, pastes a chat with both codes and one altered code
  const i = 30;
  const altered = a.code.slice(0, i) + (a.code[i] === 'Q' ? 'R' : 'Q') + a.code.slice(i + 1);
  const chat = [
    '[09:58] Teacher: run lesson 1 at G = 2 and paste your code here',
    `[10:04] Ada: done! ${a.code} (it held?)`,
    `[10:05] Bo: mine -> ${b.code}`,
    `[10:06] Cy: copied Ada's: ${altered}`,
    '[10:06] Dee: <img src=x onerror="window.__pwned=1"> rlvr is fun',
  ].join('\n');
  await page.goto(`${base}/?backend=cpu`);
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 120_000 });
  expect(await page.evaluate(() => (window as any).__lab.store.getState().settings.seed)).toBe(1);
  await page.getByText('Class results', { exact: true }).click();
  await page.getByLabel('Paste results').fill(chat);
  await expect(page.getByTestId('class-summary')).toHaveText('2 runs pooled, 1 refused.');
  await expect(page.getByTestId('class-refused')).toHaveText(`Code 3 (line 4, ${altered.slice(0, 24)}…${altered.slice(-4)}) was refused: it is damaged: its checksum does not match (a character was changed, lost or added).`);
  await expect(page.getByTestId('class-variant-0')).toContainText('G = 2: 2 runs');
  await expect(page.getByTestId('class-variant-0')).toContainText('seeds 4127, 9311');
  await expect(page.getByTestId('class-strip-0')).toHaveAttribute('data-points', '2');
  await expect(page.getByTestId('class-strip-0').locator('.recharts-scatter-symbol')).toHaveCount(2);
  await expect(page.getByTestId('class-predictions')).toContainText('1 of 2 predicted');
  await expect(page.getByTestId('class-contrast')).toContainText('No seed has both G = 8 and G = 2');
  expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
  await expect(page.locator('.class-pool img')).toHaveCount(0);
  await page.getByTestId('class-pool').screenshot({ path: `${SHOTS}/h9-class-pooled.png` });

  // the shared link opens the class results with its code (the panel needs no engine)
  const link = await b.page.getByTestId('share-link').inputValue();
  const opened = await page.context().newPage();
  await opened.goto(link);
  await expect(opened.getByTestId('class-summary')).toHaveText('1 run pooled.');
  await expect(opened.getByTestId('class-variant-0')).toContainText('G = 2: 1 run,');
  await expect(opened.getByTestId('class-variant-0')).toContainText('(seed 9311)');
  await opened.close();
  await a.context.close();
  await b.context.close();
});
