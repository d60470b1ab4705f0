import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './fixtures.ts';
import { encodeResult } from '../src/class/code.ts';
import { sample } from '../src/class/testSample.ts';

// Accessibility as a test (issue 42): axe-core at WCAG 2.1 AA (tags wcag2a, wcag2aa, wcag21a,
// wcag21aa) on the page, every phase of the step-through, the class results and the presenter
// view (a chart, a phase, the class results): 0 violations. CPU reference, a micro batch. The
// advantages chart is walked answer by answer with the keyboard, each answer announced.
// Students' screens speak the lesson's language: the engine line's technical sentences sit behind "Details".
// Two tests, one page load each (the step-through's six phases are most of the time, and under
// load one test of it all ran into its limit): axe on the whole page where the page changed, and
// within the part that changed elsewhere (the page behind the presenter view is checked once).

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const found: Record<string, string[]> = {};
/** axe on the page (or inside `within`): every violation as "rule (impact): n nodes — first target". */
async function axe(page: Page, view: string, within?: string) {
  let b = new AxeBuilder({ page }).withTags(TAGS);
  if (within) b = b.include(within);
  const r = await b.analyze();
  found[view] = r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
  expect.soft(found[view], view).toEqual([]);
}

// a class's lesson 1 results as the students' codes: three seeds, both variants (as lab-presenter.spec.ts), with their explain and concept answers
const CODES = [4127, 9311, 512].flatMap((seed, i) => [
  sample({ seed, variant: 1, claim: [0.06, 0.09, 0.02][i], held: i !== 2, contrast: [0.82, 0.77, 0.4][i], prediction: i < 2 ? 0 : 2, explain: i, concept: { pre: i === 0, post: true } }), // with the explain and concept answers: the class view's line for them is checked too
  sample({ seed, variant: 0, claim: [-0.08, 0.01, -0.11][i], held: i !== 1, contrast: [0.41, 0.38, 0.52][i], prediction: null }),
]).map(encodeResult);

/** The page on the CPU reference, a micro batch, one step taken. */
async function oneStep(page: Page) {
  await page.goto('/?backend=cpu&promptsPerStep=4&numGenerations=4');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Step ▸' }).click();
  await expect(page.getByTestId('run-status')).toContainText('paused · 1 step', { timeout: 60_000 });
}

/** The class's results pasted on the page. */
async function pasteResults(page: Page) {
  const results = page.getByTestId('class-results');
  await results.locator('summary').click();
  await results.getByLabel('Paste results').fill(CODES.join('\n'));
  await expect(page.getByTestId('class-summary')).toContainText(`${CODES.length} runs pooled`);
  await expect(page.getByTestId('class-understood')).toContainText('normalized gain'); // what the class understood, in the view axe reads
}

test('axe at WCAG 2.1 AA: the page, the class results (on the page and presented); the advantages chart by keyboard', async ({ page }) => {
  await oneStep(page);
  // the engine line in the lesson's language; the self-check, checkpoint files and π_ref behind "Details"
  const line = page.getByTestId('engine-line');
  await expect(line.locator('summary')).toHaveText('Details');
  await line.screenshot({ path: 'test-results/a11y-engine-line.png' });
  expect(await line.evaluate((el) => (el as HTMLElement).innerText)).not.toMatch(/kernel|π_ref|\.ckpt|[Ss]elf-check|checkpoint/);
  await axe(page, 'page');

  // the advantages chart, answer by answer: → moves on, each answer announced
  const chart = page.getByTestId('chart-advantages');
  const walk = chart.getByRole('application');
  await expect(walk, 'the advantages chart draws the step (it is hidden under "No data yet" until then)').toBeVisible({ timeout: 60_000 });
  await walk.focus();
  const said = chart.getByTestId('answer-walk');
  const heard: string[] = [];
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('ArrowRight');
    if (i > 0) await expect(said).not.toHaveText(heard[i - 1]); // the announcement for this key, not the last one
    heard.push((await said.textContent())!);
  }
  console.log('advantages chart, → six times:', JSON.stringify(heard));
  expect(new Set(heard).size).toBe(6);
  expect(heard[0]).toMatch(/^Prompt 1, answer 1 of 4: (correct|wrong|unparseable), A = /);
  expect(heard[4]).toMatch(/^Prompt 2, answer 1 of 4: /);
  await page.keyboard.press('End');
  await expect(said).toContainText(/^Prompt 4, answer 4 of 4: /);
  await page.keyboard.press('Home');
  await expect(said).toContainText(/^Prompt 1, answer 1 of 4: /);
  expect((await page.evaluate(() => (window as any).__lab.store.getState().stepsCompleted))).toBe(1); // the arrows walked the chart, stepped nothing

  // the class results, pasted
  await page.locator('h1').click();
  await pasteResults(page);
  await axe(page, 'class results', '[data-testid="class-results"]');

  // the class results in the presenter view (the page behind it: the other test)
  await page.getByRole('button', { name: 'Presenter view' }).click();
  const view = page.getByRole('dialog', { name: 'Presenter view' });
  await expect(view).toBeVisible();
  await page.keyboard.press('c');
  await expect(view.getByTestId('class-summary')).toBeVisible();
  await axe(page, 'presenter: class results', '[data-testid="presenter"]');
  console.log('axe violations by view:', JSON.stringify(found, null, 1));
});

test('axe at WCAG 2.1 AA: every phase of the step-through, the presenter view (a phase, a chart)', async ({ page }) => {
  await oneStep(page);
  // the step-through, every phase
  await page.getByLabel('Step through one update').check();
  await page.getByRole('button', { name: /Start: sample a rollout/ }).click();
  const phase = page.getByTestId('inspector-phase');
  for (const ph of ['prompts', 'answers', 'verdicts', 'advantages', 'ratios', 'update']) {
    if (ph !== 'prompts') await page.keyboard.press('ArrowRight');
    await expect(phase).toHaveAttribute('data-phase', ph, { timeout: 60_000 });
    await expect(page.getByTestId('inspector').getByRole('status')).toHaveCount(0); // not computing
    if (ph === 'advantages') { // the four objectives on this batch, in the same phase
      await page.getByRole('button', { name: 'Compare objectives on this batch' }).click();
      await expect(page.getByTestId('compare-numbers')).toBeVisible({ timeout: 60_000 });
    }
    if (ph === 'ratios') await phase.locator('.tok[role="button"]').first().click();
    await axe(page, `step-through: ${ph}`, '[data-testid="inspector"]');
    await page.getByTestId('inspector').screenshot({ path: `test-results/a11y-step-${ph}.png` });
    await page.locator('h1').click();
  }

  // the presenter view: the step-through's phase (the whole page, the view over it), then a chart
  await page.getByRole('button', { name: 'Presenter view' }).click();
  const view = page.getByRole('dialog', { name: 'Presenter view' });
  await expect(view).toBeVisible();
  await axe(page, 'presenter: step-through');
  await page.evaluate(() => (window as any).__lab.store.setState({ presenter: { item: 0 } }));
  await expect(view).not.toHaveAttribute('data-item', 'step-through');
  await axe(page, 'presenter: chart', '[data-testid="presenter"]');
  console.log('axe violations by view:', JSON.stringify(found, null, 1));
});
