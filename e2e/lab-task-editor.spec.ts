import { expect, settled, test, type Page } from './fixtures.ts';
import { getLesson } from '../src/rl/lessons.ts';

// A task of one's own in the page (docs/custom-tasks.md): the "New task" editor checks the spec
// as it is typed and shows live examples, "Use this task" switches the run to it, a cold start
// (a small step budget here: it says why it stops short) makes its base, GRPO steps run from it,
// the address is a share link that brings the task back, and a hostile spec in an address is one
// sentence while the page still works. The CPU reference (?backend=cpu): micro model, few steps.

const state = (page: Page) => page.evaluate(() => {
  const s = (window as any).__lab.store.getState();
  return { task: s.settings.task, beta: s.settings.beta, taskSpecs: s.taskSpecs, steps: s.stepsCompleted, prompts: (s.lastRollout?.groups ?? []).map((g: any) => g.prompt), notices: s.engineNotices.join(' ') };
});
const SMALL = 'promptsPerStep=3&numGenerations=4&evalEvery=50';

test('write a task, see it checked and sampled, use it, cold-start it, train it, share it; a hostile link is one sentence', async ({ page, context }) => {
  await page.goto(`/?backend=cpu&${SMALL}`);
  await settled(page);

  // the editor: opens prefilled with the 7 times table, checked
  await page.getByTestId('open-task-editor').click();
  const status = page.getByTestId('spec-status');
  await expect(status).toContainText('✓ Valid: task spec:times7, 1000 distinct prompts (');
  // data from a CSV file: the pairs go into "data" and are checked
  const csv = ['prompt,answer', ...Array.from({ length: 60 }, (_, i) => `${i}*7=,${i * 7}`)].join('\n');
  await page.getByTestId('load-task-data').setInputFiles({ name: 'times.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('task-editor-message')).toContainText('Loaded 60 prompt–answer pairs from times.csv');
  await expect(status).toContainText('✓ Valid: task spec:times7, 60 distinct prompts');
  // an error as it is typed: one plain sentence (markup stays text), no examples
  const text = page.getByTestId('task-spec-text');
  await text.fill('{ "name": "times7", "prompt": "{a}*7=", "vars": { "a": [9, 2] }, "answer": "a*7" }');
  await expect(status).toHaveText('✗ vars.a: lo 9 is greater than hi 2.');
  await expect(page.getByTestId('spec-example')).toHaveCount(0);
  await expect(page.getByTestId('use-task')).toBeDisabled();
  await text.fill('{ "name": "times7", "prompt": "<b>{a}</b>", "vars": { "a": [0, 99] }, "answer": "a*7" }');
  await expect(status).toHaveText('✗ prompt: the character U+003C at character 1 is outside the vocabulary (digits, a-z, "+-*/=(),?:" and space).');
  await expect(page.locator('.task-editor b')).toHaveCount(0);
  // valid again: five live examples, the reference answer right and the wrong one wrong
  await text.fill('{ "name": "times7", "title": "The 7 times table", "prompt": "{a}*7=", "vars": { "a": [0, 99] }, "answer": "a*7" }');
  await expect(status).toContainText('✓ Valid');
  const rows = page.getByTestId('spec-example');
  await expect(rows).toHaveCount(5);
  for (let i = 0; i < 5; i++) {
    const cells = await rows.nth(i).locator('td').allInnerTexts();
    const a = Number(/^(\d+)\*7=/.exec(cells[0])![1]);
    expect(cells[1]).toBe(String(a * 7));
    expect(cells[2]).toMatch(/^✓ correct/);
    expect(cells[4]).toMatch(/^✗ wrong: expected \d+, got \d+/);
  }
  const shared = await page.getByTestId('spec-share-link').inputValue();
  expect(shared).toMatch(/[?&]task=spec%3Atimes7&.*taskSpec=[A-Za-z0-9_-]+/);

  // use it: the run restarts on it from a fresh init; the task panel offers the cold start
  // "paused · 0 steps" is on screen before the switch as well as after it: wait for the switch itself
  await page.getByTestId('use-task').click();
  await settled(page, (s) => s.settings.task === 'spec:times7');
  await expect(page.getByTestId('task-panel')).toContainText('No base yet');
  await expect(page.getByTestId('cold-start-target')).toHaveText('30%');
  expect(page.url()).toContain('taskSpec=');

  // cold start on a small budget: the bar moves, the pass rate shows, and the end says why it stopped short
  await page.getByTestId('cold-start-budget').fill('30');
  await page.getByTestId('cold-start-target-input').fill('40'); // the boundary is the teacher's to choose
  await expect(page.getByTestId('cold-start-target')).toHaveText('40%');
  await page.getByTestId('cold-start').click();
  await expect(page.getByTestId('cold-start-stop')).toBeEnabled();
  // the cold start has the engine: Space (play) does nothing meanwhile
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Space');
  await page.waitForTimeout(1000);
  await expect(page.getByTestId('run-status')).toContainText('loading');
  expect(await page.evaluate(() => (window as any).__lab.store.getState().stepsStarted)).toBe(0);
  await expect(page.getByTestId('cold-start-pass')).toContainText('Held-out sampled pass@1');
  await expect(page.getByTestId('cold-start-sentence')).toContainText('too hard for this model size, so try a smaller range', { timeout: 60_000 });
  await expect(page.getByTestId('cold-start-sentence')).toContainText('short of 40%');
  await expect(page.getByTestId('cold-start-progress')).toHaveAttribute('value', '30');
  await settled(page, (s) => !!s.taskBases['spec:times7'] && s.engineNotices.some((n) => n.startsWith("Starting from this task's cold-start base"))); // the run restarted from the base
  await expect(page.getByTestId('task-base')).toContainText('cold start, 30 SFT steps');
  expect((await state(page)).notices).toContain("Starting from this task's cold-start base (cold start, 30 SFT steps");
  await expect(page.getByTestId('download-base')).toBeEnabled();

  // GRPO from the base: two steps on the task's prompts
  for (let i = 1; i <= 2; i++) {
    await page.getByRole('button', { name: /^Step/ }).click();
    await settled(page, (s, n) => s.stepsCompleted === n, i);
  }
  const trained = await state(page);
  expect(trained.prompts.length).toBeGreaterThan(0);
  for (const p of trained.prompts) expect(p).toMatch(/^\d+\*7=$/);

  // lesson 1 on this task, from its base: the lesson card judges it on this run (pending until its step), not "not judged"
  await page.getByTestId('lesson-on-task').getByRole('button', { name: 'G = 8' }).click();
  await settled(page, (s) => s.lessonId !== null && s.settings.numGenerations === 8 && s.stepsCompleted === 0);
  await expect(page.getByTestId('lesson-verdict')).toHaveAttribute('data-state', 'pending');
  await expect(page.getByTestId('lesson-verdict')).toContainText(`Play runs to step ${getLesson('mixed-groups')!.variants[1].claim.steps} and stops for the verdict`);
  expect((await state(page)).task).toBe('spec:times7');

  // the share link brings the same task back in another tab
  const page2 = await context.newPage();
  await page2.goto(shared);
  await settled(page2);
  const s2 = await state(page2);
  expect(s2.task).toBe('spec:times7');
  expect(s2.taskSpecs['spec:times7']).toEqual(trained.taskSpecs['spec:times7']);
  await expect(page2.locator('#ctl-task')).toHaveValue('spec:times7');
  await expect(page2.getByTestId('url-notices')).toHaveCount(0);
  await page2.close();

  // a hostile spec in an address: one sentence, as text; the rest of the address applies and the page works
  const evil = Buffer.from(JSON.stringify({ name: 'evil', prompt: '<img src=x onerror=alert(1)>{a}', vars: { a: [0, 9] }, answer: 'a' })).toString('base64url');
  const page3 = await context.newPage();
  let dialogs = 0;
  page3.on('dialog', (d) => { dialogs++; void d.dismiss(); });
  await page3.goto(`/?backend=cpu&${SMALL}&beta=0.02&task=spec%3Aevil&taskSpec=${evil}`);
  await settled(page3);
  const notices = page3.getByTestId('url-notices');
  await expect(notices).toContainText('the task spec in the address (taskSpec) was not used: prompt:');
  await expect(notices).toContainText('the custom task "spec:evil" was not used');
  await expect(page3.locator('img[src="x"]')).toHaveCount(0);
  const s3 = await state(page3);
  expect(s3.beta).toBe(0.02);
  expect(s3.task).toBe('reverse');
  await page3.getByRole('button', { name: /^Step/ }).click();
  await settled(page3, (s) => s.stepsCompleted === 1);
  expect(dialogs).toBe(0);
});

test('a scratchpad spec fits Max response length: the digit sum needs 11 tokens, after "Use this task", in its share link and in Lesson 1 on it', async ({ page }) => {
  await page.goto(`/?backend=cpu&${SMALL}`);
  await settled(page);
  const length = () => page.evaluate(() => (window as any).__lab.store.getState().settings.maxCompletionLength as number);
  expect(await length()).toBe(8);
  await page.getByTestId('open-task-editor').click();
  await page.getByRole('button', { name: 'digit sum with a scratchpad' }).click();
  await expect(page.getByTestId('spec-status')).toContainText('responses up to 11 tokens with the end token');
  expect(await page.getByTestId('spec-share-link').inputValue()).toContain('maxCompletionLength=11');
  await page.getByTestId('use-task').click();
  await settled(page, (s) => s.settings.task === 'spec:digitsum');
  expect(await length()).toBe(11); // "9,18,27|27" and its EOS: before, the page kept 8 and cut every two-digit sum off
  await page.getByTestId('lesson-on-task').getByRole('button', { name: 'G = 8' }).click();
  await settled(page, (s) => s.lessonId !== null && s.settings.numGenerations === 8);
  expect(await length()).toBe(11); // the lesson resets its knobs; the length is fitted again
});
