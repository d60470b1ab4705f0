import { expect, settled, test, type Page } from './fixtures.ts';
import { pushCounts } from '../src/rl/inspection.ts';
import { TOUR, numberShown, quotedAnswers, quotedNumbers } from '../src/store/tour.ts';
import { heldoutPoints } from '../src/store/presenterView.ts';
import { fmt } from '../src/ui/palette.ts';

// The class tour (src/store/tour.ts, src/lab/tour.ts, src/ui/ClassTour.tsx): opened by ?tour=1,
// walked with → through its eight stops on a live run, each stop's button pressed where the
// numbers are not there yet; at every stop the highlighted element is on screen and the card
// quotes the store's own numbers (computed here from the store, not read off the card). Then ←
// back, and the eight stops again inside the presenter view, where every number a stop quotes must
// be in the visible text of the screen outside the card (and on the page at the step-through's
// stops); lesson 1 is played to its verdict's step there, and its verdict (✓ or ✗) shows under
// the chart. CPU reference, P = 4 × G = 4 on the add base
// for the step-through; the lessons load with their own settings. Screenshots (1920×1080) of
// every stop go to $TOUR_SHOTS (default test-results/tour).

const shots = process.env.TOUR_SHOTS ?? 'test-results/tour';
type Any = any;
const store = (page: Page): Promise<Any> => page.evaluate(() => (window as Any).__lab.store.getState());
const f = (x: number, d = 2) => { const t = Math.abs(x).toFixed(d); return Number(t) === 0 || x > 0 ? t : `−${t}`; };
/** A figure as the step-through's table prints it (fmt), with a real minus and a plus on a positive one. */
const printed = (x: number) => { const t = fmt(x).replace('-', '−'); return x > 0 && t !== '0' ? `+${t}` : t; };
const focused = (s: Any) => s.inspector.rollout.groups[s.inspector.focus ?? 0];
/** "0.40 at step 0 → 0.34 at step 11": a line's first and last finite points, as the chart's readout gives them. */
const span = (steps: Any[], k: string) => { const p = steps.filter((m) => Number.isFinite(m[k])); return [...new Set([p[0], p.at(-1)])].map((m) => `${f(m[k])} at step ${m.step}`).join(' → '); };

/** What the card must quote at each stop, computed from the store (null: the stop has no live numbers in this state). */
function expected(id: string, s: Any): string[] | null {
  const ins = s.stepMode && s.inspector?.rollout ? s.inspector : null;
  const m = s.steps.at(-1);
  switch (id) {
    case 'reward-contract': {
      if (!ins || ins.computed < 3) return null;
      const g = focused(s);
      const i = g.answers.findIndex((a: Any) => a.correct);
      return [`format reward (${ins.settings.formatReward} in this run)`, ...(i >= 0 ? [`o${i + 1} “${g.answers[i].text}” is right: r = ${g.answers[i].reward}`] : [])];
    }
    case 'advantages':
      return ins && ins.computed >= 4 ? [`A = ${focused(s).answers.map((a: Any) => printed(a.advantage)).join(', ')}`] : null; // as the step-through's table prints them
    case 'mixed-groups':
      return s.lessonId === 'mixed-groups' && m ? [`the mixed share ${span(s.steps, 'frac_mixed')} beside`, span(s.steps, 'mixed_predicted')] : null;
    case 'one-update': {
      if (!ins?.details || ins.computed < 6) return null;
      const rows = ins.rollout.groups.flatMap((g: Any, p: number) => g.answers.map((a: Any, i: number) => ({ ...ins.details[p][i], advantage: a.advantage, logpGradientAlone: typeof ins.details[p][i].logpGradientAlone === 'number' ? ins.details[p][i].logpGradientAlone : null })));
      const c = pushCounts(rows);
      return c.gradientAlone
        ? [`of the ${c.positive} answers with A > 0, ${c.gradientAlone.up} became more likely by this batch's gradient alone and ${c.applied.up} after AdamW's step`]
        : [`${c.applied.up} of the ${c.positive} answers with A > 0 became more likely`];
    }
    case 'objectives': {
      const cmp = ins?.comparison;
      if (!cmp) return null;
      const grpo = cmp.objectives.find((o: Any) => o.id === 'grpo');
      const p = ins.focus ?? 0;
      const i = grpo.answers[p].findIndex((x: Any) => x.advantage !== 0);
      return i < 0 ? null : cmp.objectives.map((o: Any) => `${o.label} ${printed(o.answers[p][i].deltaLogp)}`); // as the comparison's table prints them
    }
    case 'thinking':
      return s.lessonId === 'scratchpad' && m ? [`before “|”: ${span(s.steps, 'think_fraction')}`] : null;
    case 'hacking':
      return s.lessonId === 'reward-hacking' && m ? [`the reward, ${span(s.steps, 'reward')}, beside`, `graded strictly), ${span(s.steps, 'accuracy')}`] : null;
    case 'when-to-stop':
      // the measure the reward chart draws: each held-out evaluation's greedy accuracy
      return m && s.evals.length >= 2 ? [`training reward ${span(s.steps, 'reward')}; held-out accuracy (greedy) ${heldoutPoints(s.evals).map((p) => `${f(p.value)} (step ${p.step})`).join(' → ')}`] : null;
  }
  return null;
}

const card = (page: Page) => page.getByTestId('tour-card');
/** Nothing computing, and the tour's action done (a stop's action can pass through idle moments: a lesson run left for a new one before its first phase). */
const idle = (page: Page) => settled(page, () => !document.querySelector('[data-testid="tour-action"][disabled]'));

/**
 * The text a reader sees on the screen now, outside the tour's card: every text node (SVG text
 * too) whose box is in the viewport, not clipped away by a scrolling ancestor, not under the card.
 * `spaced`: the nodes joined with spaces (numbers); `joined`: without (an answer set in pieces).
 */
const screenText = (page: Page) => page.evaluate(() => {
  const card = document.querySelector('[data-testid="tour-card"]');
  const parts: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const inside = (x: number, y: number, r: DOMRect) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent?.trim() || !el || card?.contains(el) || el.closest('.katex-mathml')) continue; // KaTeX's MathML copy is for screen readers
    if (!(el as any).checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const seen = [...range.getClientRects()].some((b) => {
      const x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
      if (b.width === 0 || b.height === 0 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const st = getComputedStyle(a);
        if (st.overflowX !== 'visible' || st.overflowY !== 'visible') { if (!inside(x, y, a.getBoundingClientRect())) return false; }
      }
      return !card?.contains(document.elementFromPoint(x, y));
    });
    if (seen) parts.push(n.textContent);
  }
  return { spaced: parts.join(' '), joined: parts.join('') };
});

/** Every number the card quotes (and every answer it names) is in the screen's visible text outside the card. */
async function quotedOnScreen(page: Page, id: string) {
  await expect(async () => {
    const said = (await page.getByTestId('tour-text').textContent())!;
    const shown = await screenText(page);
    const missing = [...quotedNumbers(said).filter((q) => !numberShown(q, shown.spaced)), ...quotedAnswers(said).filter((t) => !shown.joined.includes(t))];
    expect(missing, `${id}: quoted but not on the screen — ${said}`).toEqual([]);
  }).toPass(); // retried until it holds, within the config's bound (expect.toPass)
}

/** The stop shown is `n` (1-based), with its title; its element is on screen under the spotlight; the card quotes the store's numbers. */
async function checkStop(page: Page, n: number, shot: string, live: boolean | 'either' = true, visible = false) {
  const stop = TOUR[n - 1];
  await expect(page.getByTestId('tour-count')).toHaveText(`Class tour · stop ${n} of ${TOUR.length}`);
  await expect(page.getByTestId('tour-title')).toHaveText(stop.title);
  await idle(page);
  const want = expected(stop.id, await store(page));
  if (live === true) expect(want, `${stop.id}: the store has its numbers`).not.toBeNull();
  if (want) {
    await expect(card(page)).toHaveAttribute('data-live', 'true');
    for (const w of want) await expect(page.getByTestId('tour-text')).toContainText(w);
    const target = page.getByTestId(stop.target);
    await expect(target).toBeVisible();
    await expect(target).toBeInViewport();
    const spot = page.getByTestId('tour-spotlight');
    await expect(spot).toHaveAttribute('data-target', stop.target);
    await expect(async () => {
      const [a, b] = [await spot.boundingBox(), await target.boundingBox()];
      expect(Math.abs(a!.x + 6 - b!.x) + Math.abs(a!.y + 6 - b!.y)).toBeLessThan(4); // the outline sits on the element
    }).toPass(); // the spotlight follows the element ten times a second: retried within the config's bound
    if (visible) await quotedOnScreen(page, stop.id);
  } else {
    await expect(card(page)).toHaveAttribute('data-live', 'false');
    await expect(page.getByTestId('tour-text')).toContainText('Press');
    await expect(page.getByTestId('tour-action')).toBeEnabled();
  }
  await page.waitForTimeout(150); // the spotlight follows the element ten times a second
  await page.screenshot({ path: `${shots}/${shot}.png` });
}

/** Press the stop's button until the card quotes live numbers: a lesson loads, a run plays `steps` steps and is paused (one is enough for a live card; the pause lands after the step in flight). */
async function makeLive(page: Page, steps = 1) {
  for (let i = 0; i < 6 && (await card(page).getAttribute('data-live')) !== 'true'; i++) {
    const label = (await page.getByTestId('tour-action').textContent())!;
    const before = (await store(page)).stepsCompleted;
    await page.getByTestId('tour-action').click();
    if (label.startsWith('▶ Play')) {
      // near the step it plays to: let it pause there by itself; else pause after a few steps (the button is ❚❚ Pause meanwhile)
      const to = Number(label.match(/step (\d+)/)![1]);
      const until = to - before <= 8 ? to : before + steps;
      await page.waitForFunction((n) => (window as Any).__lab.store.getState().stepsCompleted >= n, until, { timeout: 60_000 });
      if (until < to) {
        const pause = page.getByTestId('tour-action');
        await expect(pause).toHaveText(/^❚❚ Pause/);
        await pause.click({ force: true }); // a training run keeps the page's thread busy: no waiting for two still frames
      }
    }
    await idle(page);
  }
}

/** Make stop `id` live; on the objectives stop a batch whose groups all have equal rewards teaches nothing: the card offers another. */
async function makeStopLive(page: Page, id: string) {
  if (id !== 'objectives') return makeLive(page);
  for (let i = 0; i < 5; i++) {
    await makeLive(page);
    if (expected('objectives', await store(page))) return;
    await page.getByTestId('tour-action').click();
    await idle(page);
  }
}

test('class tour: ?tour=1, eight stops with → on the live run, back with ←, and inside the presenter view', async ({ page }) => {
  test.setTimeout(420_000); // about 2 min on an idle 2-core machine; lessons 1, 6 and 4 are played twice (page, presenter)
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.emulateMedia({ reducedMotion: 'reduce' }); // scrolled into view at once
  await page.goto('/?backend=cpu&task=add&numGenerations=4&promptsPerStep=4&evalEvery=5&tour=1');
  await settled(page);
  await expect(card(page)).toBeVisible();
  await expect(page).toHaveURL(/[?&]tour=1/);

  // stop 1 before anything was sampled: it says what to press
  await checkStop(page, 1, 'stop-1-before', false);
  await expect(page.getByTestId('tour-action')).toHaveText('Sample and grade a batch');

  // → through the eight stops, pressing each stop's button where its numbers are not there yet
  for (let n = 1; n <= TOUR.length; n++) {
    if (n > 1) {
      await page.keyboard.press('ArrowRight');
      await expect(page).toHaveURL(new RegExp(`[?&]tour=${n}`));
    }
    await makeStopLive(page, TOUR[n - 1].id);
    await checkStop(page, n, `stop-${n}-${TOUR[n - 1].id}`, true, true);
    if (TOUR[n - 1].view.kind === 'chart') {
      // the chart's points, read off at the foot of its card: in the page's flow, over no other chart's title
      await expect(page.getByTestId(TOUR[n - 1].target).getByTestId('tour-readout')).toBeInViewport();
      const over = await page.evaluate(() => { const r = document.querySelector('[data-testid="tour-readout"]')!.getBoundingClientRect(); return [...document.querySelectorAll('.chart-card h3')].filter((h) => { const b = h.getBoundingClientRect(); return b.right > r.left && b.left < r.right && b.bottom > r.top && b.top < r.bottom; }).length; });
      expect(over).toBe(0);
    }
  }
  await page.keyboard.press('ArrowRight'); // the last stop stays
  await expect(page.getByTestId('tour-count')).toHaveText(`Class tour · stop ${TOUR.length} of ${TOUR.length}`);

  // ← back: each stop quotes what the live run has now (lesson 4 is loaded; the others say what to press)
  for (let n = TOUR.length - 1; n >= 1; n--) {
    await page.keyboard.press('ArrowLeft');
    await checkStop(page, n, `back-${n}-${TOUR[n - 1].id}`, 'either');
  }

  // inside the presenter view: the card in the caption's place, the presenter moved to what each stop talks about
  await page.getByTestId('tour-present').click();
  const view = page.getByRole('dialog', { name: 'Presenter view' });
  await expect(view).toBeVisible();
  await expect(view.getByTestId('tour-card')).toBeVisible();
  await expect(view).toHaveAttribute('data-item', 'step-through');
  // all eight stops, each made live, every number quoted on the screen (1920×1080)
  for (let n = 1; n <= TOUR.length; n++) {
    const id = TOUR[n - 1].id;
    if (n > 1) await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('tour-count')).toHaveText(`Class tour · stop ${n} of ${TOUR.length}`);
    if (id === 'mixed-groups') {
      // lesson 1 played to its verdict's step: the verdict, ✓ or ✗, shows under the chart while touring
      if ((await page.getByTestId('tour-action').textContent())!.startsWith('Load')) { await page.getByTestId('tour-action').click(); await idle(page); }
      await expect(page.getByTestId('tour-action')).toHaveText(/^▶ Play to step \d+$/);
      const to = Number((await page.getByTestId('tour-action').textContent())!.match(/step (\d+)/)![1]);
      await expect(view.getByTestId('presenter-verdict')).toBeVisible();
      await page.getByTestId('tour-action').click();
      await page.waitForFunction((k) => (window as Any).__lab.store.getState().stepsCompleted >= k, to, { timeout: 120_000 });
      await idle(page);
      const verdict = view.getByTestId('presenter-verdict');
      await expect(verdict).toHaveAttribute('data-state', /^(holds|fails|unclear)$/); // judged once at its step, frozen
      await expect(verdict).toHaveAttribute('data-step', String(to));
      await expect(page.getByTestId('tour-text')).toContainText('The lesson\'s verdict is in');
      // the windows the verdict reads: its steps, and the contract's held-out set at step 0 and at the verdict step
      await expect(view.getByTestId('presenter-verdict-window')).toContainText(`held-out: 256 prompts, the same prompts and draws at step 0 and step ${to}`);
    } else await makeStopLive(page, id);
    await checkStop(page, n, `present-${n}-${id}`, true, true);
    if (TOUR[n - 1].view.kind === 'chart') await expect(view).toHaveAttribute('data-item', (TOUR[n - 1].view as Any).chart);
    else await expect(view).toHaveAttribute('data-item', 'step-through');
  }
  await expect(view.getByTestId('inspector-phase')).toHaveCount(0);
  expect(await page.getByTestId('tour-text').evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(20); // the presenter's large type

  // Esc leaves the tour (the presenter stays, its caption back), Esc again the presenter
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour-card')).toHaveCount(0);
  await expect(page.getByTestId('presenter-caption')).toBeVisible();
  await expect(page).not.toHaveURL(/tour=/);
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
  // the page's own buttons open it again: top right, and in the "start here" line
  await page.getByTestId('tour-open').click();
  await expect(page.getByTestId('tour-count')).toHaveText(`Class tour · stop 1 of ${TOUR.length}`);
  await page.getByRole('button', { name: 'Leave the class tour (Esc)' }).click();
  await expect(card(page)).toHaveCount(0);
  expect(errors).toEqual([]);
});
