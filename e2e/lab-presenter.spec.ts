import { readFileSync } from 'node:fs';
import { expect, settled, test, type Page } from './fixtures.ts';
import { LESSONS, getLesson } from '../src/rl/lessons.ts';
import { encodeResult } from '../src/class/code.ts';
import { sample } from '../src/class/testSample.ts';

// The presenter view for classroom demos: one chart or one step-through phase at a time, in
// large type, the controls hidden, driven by the keyboard alone (→ ← 1–9 0 Space Esc), opened by
// its button or by ?present=1 in the address. CPU reference engine, small batches: fast here.
// Screenshots go to test-results/ (or $PRESENTER_SHOTS): a chart and a phase at each size.

const shots = process.env.PRESENTER_SHOTS ?? 'test-results';

// A class's lesson 1 results, as the students' "Share result" codes (src/class/code.ts): five seeds
// with both G = 2 and G = 8 (one G = 8 run misses its claim; one seed's G = 8 reads lower), pasted in
// chat text with one altered code.
const CLASS = [4127, 9311, 512, 2048, 777].flatMap((seed, i) => [
  sample({ seed, variant: 1, claim: [0.06, 0.09, 0.02, 0.12, 0.05][i], verdict: i === 2 ? 'fails' : i === 4 ? 'unclear' : 'holds', contrast: [0.82, 0.77, 0.4, 0.85, 0.8][i], prediction: i < 3 ? 0 : 2 }),
  sample({ seed, variant: 0, claim: [-0.08, 0.01, -0.11, -0.07, -0.09][i], held: i !== 1, contrast: [0.41, 0.38, 0.52, 0.35, 0.44][i], prediction: null }),
]);
const CODES = CLASS.map(encodeResult);
const ALTERED = CODES[0].slice(0, 30) + (CODES[0][30] === 'Q' ? 'R' : 'Q') + CODES[0].slice(31);
const CHAT = [...CODES.map((c, i) => `[10:${String(i).padStart(2, '0')}] student ${i + 1}: ${c}`), `[10:11] Cy: ${ALTERED}`].join('\n');
const store = (page: Page) => page.evaluate(() => (window as any).__lab.store.getState());
test.setTimeout(120_000);
const px = (page: Page, testId: string) => page.getByTestId(testId).evaluate((el) => parseFloat(getComputedStyle(el).fontSize));

test('opened by its button: large type, controls hidden, → ← through charts and real phases, a number picks a lesson, Esc leaves', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  const groups = getLesson('mixed-groups')!;
  // the SVG each picture is drawn from (svgToPng's <img>), to read the class PNG's texts and their sizes
  await page.addInitScript(() => {
    const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src')!;
    Object.defineProperty(HTMLImageElement.prototype, 'src', { ...src, set(v: string) { if (String(v).startsWith('data:image/svg+xml')) (window as any).__pictureSvg = v; src.set!.call(this, v); } });
  });
  await page.goto('/?backend=cpu&lesson=mixed-groups&promptsPerStep=4&numGenerations=4&evalEvery=50');
  await settled(page);
  await page.getByRole('button', { name: 'Presenter view' }).click();

  const view = page.getByRole('dialog', { name: 'Presenter view' });
  await expect(view).toBeVisible();
  await expect(view).toBeFocused(); // keys work without a click first
  await expect(page).toHaveURL(/[?&]present=1/);
  // the page's controls are gone: settings, transport, lessons bar
  await expect(page.getByRole('complementary', { name: 'Settings' })).toHaveCount(0);
  await expect(page.getByRole('toolbar', { name: 'Transport' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Lessons' })).toHaveCount(0);
  await expect(view.getByRole('button')).toHaveCount(0);
  // large type at 1920×1080: the caption (body text) at least 24 px, the title larger
  expect(await px(page, 'presenter-caption')).toBeGreaterThanOrEqual(24);
  expect(await px(page, 'presenter-heading')).toBeGreaterThan(await px(page, 'presenter-caption'));

  const heading = page.getByTestId('presenter-heading');
  const item = page.getByTestId('presenter-item');
  await expect(heading).toHaveText(groups.title);
  const n = groups.charts.length;
  await expect(item).toHaveText(`chart 1 of ${n}: All-pass / all-fail / mixed groups`);
  // blind until the class has predicted: the chart's question and the lesson's question, then R (the teacher's key) shows the lesson's caption
  await expect(page.getByTestId('presenter-caption')).toHaveText(/^How many groups teach anything\?/);
  await expect(page.getByTestId('presenter-question')).toContainText('The class predicts first.');
  await page.keyboard.press('r');
  await expect(page.getByTestId('presenter-question')).toHaveCount(0);
  await expect(page.getByTestId('presenter-caption')).toHaveText(/^The mixed share beside the dashed prediction/); // each chart its own caption (presenterView.chartCaption)
  // one chart, filling the stage: the live chart itself, re-rendered large
  await expect(view.locator('.chart-card')).toHaveCount(1);
  const chart = (await view.locator('.chart-body').boundingBox())!;
  expect(chart.height).toBeGreaterThan(600);
  expect(chart.width).toBeGreaterThan(1700);
  // Space plays, Space pauses: the chart shows the live run's numbers
  await page.keyboard.press(' ');
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 3, null, { timeout: 60_000 });
  await page.keyboard.press(' ');
  await settled(page);
  const live = await store(page);
  await expect(page.getByTestId('chart-groups')).toHaveAttribute('data-points', String(live.steps.length));
  // the SVG itself is drawn at the large size (re-rendered, not scaled up)
  expect(Number(await view.locator('.chart-body .recharts-wrapper > svg.recharts-surface').getAttribute('height'))).toBeGreaterThan(600);
  await page.screenshot({ path: `${shots}/presenter-chart-1920.png` });
  // what is read off the chart, and the verdict under it, in the caption's type (the readout was 18 px against 26)
  const caption = await px(page, 'presenter-caption');
  expect(await px(page, 'presenter-readout')).toBeGreaterThanOrEqual(caption);
  expect(await px(page, 'presenter-verdict')).toBeGreaterThanOrEqual(caption);

  // → and ← move between the lesson's charts
  await page.keyboard.press('ArrowRight');
  await expect(item).toHaveText(`chart 2 of ${n}: Theory: P(mixed)`);
  await expect(view.locator('[data-testid="chart-theory"]')).toHaveCount(1);
  await page.keyboard.press('ArrowLeft');
  await expect(item).toHaveText(/^chart 1 of /);
  for (let i = 1; i < n; i++) await page.keyboard.press('ArrowRight');
  await expect(item).toHaveText(`chart ${n} of ${n}: Group advantages`);

  // past the last chart: the step-through, one real phase per →
  await page.keyboard.press('ArrowRight');
  await expect(item).toHaveText('step-through: phase 1 of 6 — prompts', { timeout: 60_000 });
  const phase = view.getByTestId('inspector-phase');
  await expect(phase).toHaveAttribute('data-phase', 'prompts');
  await expect(page.getByTestId('presenter-caption')).toContainText('drawn from the training split');
  const before = (await store(page)).stepsStarted;
  await page.keyboard.press('ArrowRight');
  await expect(item).toHaveText('step-through: phase 2 of 6 — answers');
  await page.keyboard.press('ArrowRight');
  await expect(item).toHaveText('step-through: phase 3 of 6 — verdicts', { timeout: 60_000 });
  await expect(phase.locator('td.num').first()).toHaveText(/^r = \d/); // the verifier's rewards
  await page.keyboard.press('ArrowRight');
  await expect(item).toHaveText('step-through: phase 4 of 6 — advantages', { timeout: 60_000 });
  await expect(phase.locator('td.adv').first()).toHaveText(/^A = -?\d/);
  const ins = (await store(page)).inspector;
  expect(ins.rollout.groups).toHaveLength(4); // this run's own batch: P = 4 prompts …
  expect(ins.rollout.groups[0].answers).toHaveLength(4); // … of G = 4 answers
  expect((await store(page)).stepsStarted).toBe(before); // one update, phase by phase
  expect(await phase.evaluate((el) => parseFloat(getComputedStyle(el.querySelector('p')!).fontSize))).toBeGreaterThanOrEqual(24);
  await page.screenshot({ path: `${shots}/presenter-phase-1920.png` });
  await page.keyboard.press('ArrowLeft');
  await expect(item).toHaveText('step-through: phase 3 of 6 — verdicts');

  // a number key loads that lesson, through the Lessons panel's call (its base, its knobs)
  await page.keyboard.press('7');
  await expect(heading).toHaveText(LESSONS[6].title);
  await expect(item).toHaveText(new RegExp(`^chart 1 of ${LESSONS[6].charts.length}: `));
  await settled(page, (s, id) => s.lessonId === id, LESSONS[6].id);
  await expect(page.getByTestId('presenter-run')).toHaveText('paused · 0 steps · CPU reference'); // the run's state, in the view
  // the class sees the lesson's verdict under the chart, as the card says it (no step yet: when it comes)
  await expect(page.getByTestId('presenter-verdict')).toContainText(`Press play: the verdict comes at step ${LESSONS[6].variants[0].claim.steps}`);
  await expect(page).toHaveURL(new RegExp(`lesson=${LESSONS[6].id}.*present=1|present=1.*lesson=${LESSONS[6].id}`));

  // past 9, two digits: "1" "1" is lesson 11 (the "1" waits for a second digit)
  await page.keyboard.press('1');
  await page.keyboard.press('1');
  await expect(heading).toHaveText(LESSONS[10].title);
  await settled(page, (s, id) => s.lessonId === id, LESSONS[10].id);

  // C: the class results in the view (issue 31): the teacher pastes the class chat, the class sees the pool large; Esc back to the item
  const itemBefore = await item.textContent();
  await page.keyboard.press('c');
  await expect(heading).toHaveText('Class results');
  const paste = view.getByLabel('Paste results');
  await expect(paste).toBeFocused(); // nothing pasted yet: Ctrl+V at once
  await paste.fill(CHAT);
  await page.keyboard.type(' 1 1 '); // typing in the box is typing: no lesson, no play
  await expect(paste).toHaveValue(`${CHAT} 1 1 `);
  await expect(page.getByTestId('class-summary')).toHaveText(`${CLASS.length} runs pooled, 1 refused.`);
  await expect(page.getByTestId('class-refused')).toContainText('Code 11 (line 11, ');
  await expect(page.getByTestId('class-variant-1')).toContainText('G = 8: 5 runs (3 held ✓, 1 failed ✗, 1 unclear)');
  const strip = page.getByTestId('class-strip-1');
  await expect(strip.locator('.recharts-scatter-symbol')).toHaveCount(5);
  // unclear is its own mark, in the plot and in the legend (not drawn as a failure)
  await expect(page.getByTestId('class-strip-1-legend')).toHaveText(/✓ held \(3\).*✗ failed \(1\).*\? unclear \(1\)/);
  // the contrast the class predicted, seed by seed, with the class's interval
  await expect(page.getByTestId('class-contrast-strip')).toHaveAttribute('data-points', '5');
  await expect(page.getByTestId('class-contrast-strip-interval')).toHaveCount(1);
  // what the class predicted, judged: the five seeds' paired differences, their t interval clear of the margin: higher
  await expect(page.getByTestId('class-predictions')).toContainText('3 of 5 predicted higher (2 lower); the class\'s runs showed higher (5 seeds): 3 of 5 predicted it.');
  await expect(page.getByTestId('class-contrast')).toContainText('Paired on 5 seeds: G = 8 − G = 2, mean +0.31 (90 % interval +0.07 to +0.54; a difference beyond ±0.05 counts): higher, as the lesson claims ✓.');
  // large and readable on the projector: the lines in the presenter's type, the strip plots tall, their ticks large
  expect(await px(page, 'class-predictions')).toBeGreaterThanOrEqual(24);
  expect((await strip.locator('.recharts-wrapper').boundingBox())!.height).toBeGreaterThanOrEqual(90); // a lesson's strips share one screen
  expect(await strip.locator('.recharts-cartesian-axis-tick-value').first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(20);
  // one lesson, one screen: what the class predicted first, and everything down to the last variant's strip, without scrolling
  const lessonBox = (await page.getByTestId('class-lesson-mixed-groups').boundingBox())!;
  expect(lessonBox.y + lessonBox.height).toBeLessThanOrEqual(1080);
  await expect(page.getByTestId('class-predictions')).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('class-strip-1')).toBeInViewport({ ratio: 1 });
  const first = await page.getByTestId('class-lesson-mixed-groups').evaluate((el) => el.querySelector('h3')?.nextElementSibling?.getAttribute('data-testid'));
  expect(first).toBe('class-predictions');
  await page.screenshot({ path: `${shots}/presenter-class-1920.png` });
  // the pool leaves the projector as the page panel's files: CSV, one row per pooled run; PNG, the results as drawn
  const [csv] = await Promise.all([page.waitForEvent('download'), view.getByTestId('class-csv').click()]);
  expect(csv.suggestedFilename()).toBe('rlvr-lab-class-results.csv');
  const file = readFileSync((await csv.path())!, 'utf8');
  expect(file.charCodeAt(0)).toBe(0xfeff); // a byte-order mark: a spreadsheet on Windows reads "−" as written
  const rows = file.slice(1).trim().split('\n');
  expect(rows[0]).toMatch(/^row,lesson,lesson_id,variant,/);
  // one row per run, a class row per variant (mean and 90 % interval) and one for the contrast (src/class/csv.test.ts)
  expect(rows.filter((r) => r.startsWith('run,'))).toHaveLength(CLASS.length);
  expect(rows.filter((r) => r.startsWith('"class mean, variant"'))).toHaveLength(2);
  expect(rows.filter((r) => r.startsWith('"class mean, contrast"'))).toHaveLength(1);
  expect(rows.filter((r) => r.startsWith('run,') && r.includes(',at or below −0.05,'))).toHaveLength(5); // G = 2's threshold in the page's words ("below" before)
  const [png] = await Promise.all([page.waitForEvent('download'), view.getByTestId('class-png').click()]);
  expect(png.suggestedFilename()).toBe('rlvr-lab-class-lesson-1.png'); // a slide per lesson: this pool has one
  const image = readFileSync((await png.path())!);
  await png.saveAs(`${shots}/class-results-slide.png`);
  expect([...image.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
  expect(image.readUInt32BE(16) * image.readUInt32BE(20)).toBeGreaterThan(300 * 200); // width × height from the IHDR chunk
  // a slide: at most 1,920 px wide, a title first, every text at least 20 px in the picture, no refusal sentence
  const slide = await page.evaluate(() => {
    const doc = new DOMParser().parseFromString(decodeURIComponent((window as any).__pictureSvg.split(',')[1]), 'image/svg+xml');
    const size = (el: Element | null): number => (!el ? 16 : el.getAttribute('font-size') ? parseFloat(el.getAttribute('font-size')!) : size(el.parentElement)); // SVG's own default: 16
    const texts = [...doc.querySelectorAll('text')].filter((t) => t.textContent!.trim()).map((t) => ({ text: t.textContent!.trim(), size: size(t) }));
    return { width: parseFloat(doc.documentElement.getAttribute('width')!), texts };
  });
  const scale = image.readUInt32BE(16) / slide.width;
  const smallest = slide.texts.reduce((a, t) => (t.size < a.size ? t : a));
  console.log(`class PNG ${image.readUInt32BE(16)} × ${image.readUInt32BE(20)} px; title "${slide.texts[0].text}"; smallest text ${(smallest.size * scale).toFixed(1)} px ("${smallest.text.slice(0, 40)}")`);
  expect(image.readUInt32BE(16)).toBeLessThanOrEqual(1920);
  expect(image.readUInt32BE(20)).toBeLessThanOrEqual(1080);
  expect(slide.texts[0].text).toMatch(/^Class results, lesson 1, \d+ \w+ \d{4}$/);
  expect(smallest.size * scale).toBeGreaterThanOrEqual(20);
  expect(slide.texts.map((t) => t.text).join(' ')).not.toMatch(/was refused/);
  // each variant's class line starts its own line; the legend keeps its colours (an entry's text in its kind's colour, not black)
  expect(slide.texts.some((t) => t.text.startsWith('G = 8: 5 runs'))).toBe(true);
  const colours = await page.evaluate(() => {
    const doc = new DOMParser().parseFromString(decodeURIComponent((window as any).__pictureSvg.split(',')[1]), 'image/svg+xml');
    return [...doc.querySelectorAll('text')].filter((t) => /unclear \(1\)|held \(3\)/.test(t.textContent ?? '')).map((t) => t.getAttribute('fill'));
  });
  console.log('legend colours', colours);
  expect(colours.length).toBeGreaterThanOrEqual(2);
  for (const c of colours) expect(c, JSON.stringify(colours)).not.toMatch(/^(#111|#000000|rgb\(17, 17, 17\))$/);
  // no strip plot is cut: the picture is as wide as the widest chart drawn
  const widest = await view.getByTestId('class-pool').evaluate((pool) => Math.max(...[...pool.querySelectorAll('svg.recharts-surface')].map((s) => s.getBoundingClientRect().width)));
  expect(slide.width).toBeGreaterThanOrEqual(Math.floor(widest));
  await page.keyboard.press('Escape');
  await expect(heading).toHaveText(LESSONS[10].title);
  await expect(item).toHaveText(itemBefore!);
  await expect(view).toBeFocused(); // the keys work at once
  expect((await store(page)).lessonId).toBe(LESSONS[10].id);

  // Esc: back to the page, the address without the flag, the keyboard on the button
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
  await expect(page.getByRole('toolbar', { name: 'Transport' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Settings' })).toBeVisible();
  await expect(page).not.toHaveURL(/present=/);
  await expect(page.getByRole('button', { name: 'Presenter view' })).toBeFocused();

  // the page's Class results panel has the same paste; its "Show large" opens the presenter's class results, Esc comes back to it
  await expect(page.getByTestId('class-results')).toHaveAttribute('open', ''); // open: it has a paste
  await expect(page.getByTestId('class-summary')).toHaveText(`${CLASS.length} runs pooled, 1 refused.`);
  await page.getByTestId('class-present-open').click();
  await expect(heading).toHaveText('Class results');
  await expect(page.getByTestId('class-strip-1').locator('.recharts-scatter-symbol')).toHaveCount(5);
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
  await expect(page.getByTestId('class-present-open')).toBeFocused();
});

test('?present=1 with a lesson opens the presenter view on load; the keys work at once', async ({ page }) => {
  const lesson = LESSONS[6];
  await page.goto(`/?backend=cpu&present=1&lesson=${lesson.id}&promptsPerStep=4&numGenerations=4&evalEvery=50`);
  const view = page.getByRole('dialog', { name: 'Presenter view' });
  await expect(view).toBeVisible();
  await expect(page.getByTestId('presenter-heading')).toHaveText(lesson.title);
  await expect(page.getByTestId('presenter-item')).toHaveText(/^chart 1 of /);
  await expect(page.getByRole('toolbar', { name: 'Transport' })).toHaveCount(0);
  await settled(page);
  expect(await px(page, 'presenter-caption')).toBeGreaterThanOrEqual(20); // 1280×800: still large
  await page.keyboard.press(' ');
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 3, null, { timeout: 60_000 });
  await page.keyboard.press(' ');
  await settled(page);
  await page.screenshot({ path: `${shots}/presenter-chart-1280.png` });
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('presenter-item')).toHaveText(/^chart 2 of /);
  for (let i = 2; i <= lesson.charts.length; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('presenter-item')).toHaveText('step-through: phase 1 of 6 — prompts', { timeout: 60_000 });
  for (const [k, ph] of [[2, 'answers'], [3, 'verdicts'], [4, 'advantages']] as const) {
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('presenter-item')).toHaveText(`step-through: phase ${k} of 6 — ${ph}`, { timeout: 60_000 });
    if (ph === 'verdicts') {
      // an answer is never cut mid-word ("fnt / vo"), even where its table is squeezed (here to 360 px, the page's narrowest group): each one without a space stays one line
      const broken = await page.locator('.group').first().evaluate((g) => {
        (g as HTMLElement).style.width = '360px';
        return [...g.querySelectorAll('.answer-text')].filter((e) => !/\s/.test(e.textContent!) && e.getClientRects().length > 1).map((e) => e.textContent);
      });
      expect(broken).toEqual([]);
    }
  }
  await page.screenshot({ path: `${shots}/presenter-phase-1280.png` });
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
  await expect(page).not.toHaveURL(/present=/);
  await expect(page).toHaveURL(new RegExp(`lesson=${lesson.id}`));
});
