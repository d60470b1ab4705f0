import { expect, settled, test, type Page } from './fixtures.ts';

// Process reward in the controls (CPU reference): on a task with checkable steps the reward
// control offers it and the weight slider applies; on a task without steps the control is
// disabled and says why; an address asking for it there is told so. Screenshots: /tmp/shots.

const settingsOf = (page: Page) => page.evaluate(() => (window as any).__lab.store.getState().settings);

test('process reward: the weight slider on a task with steps; disabled with its reason on one without', async ({ page }) => {
  await page.goto('/?backend=cpu&task=modsum&difficulty=2&promptsPerStep=2&numGenerations=2&evalEvery=50');
  await settled(page);
  const reward = page.getByLabel('Reward', { exact: true });
  const weight = page.getByLabel('Process weight w');
  await expect(reward).toBeEnabled();
  await expect(weight).toBeDisabled(); // outcome reward: the weight does not apply yet
  await expect(page.getByTestId('why-processWeight')).toHaveText('Used only when Reward is process.');

  // (a) a task with steps: move to process reward, the weight slider applies and moves w
  await reward.selectOption('process');
  await expect(weight).toBeEnabled();
  await expect(page.getByTestId('why-processWeight')).toHaveCount(0);
  await expect(page.getByTestId('value-processWeight')).toHaveText('0.5');
  await weight.focus();
  await weight.press('ArrowRight');
  await expect(page.getByTestId('value-processWeight')).toHaveText('0.55');
  expect(await settingsOf(page)).toMatchObject({ rewardMode: 'process', processWeight: 0.55 });
  await page.getByTestId('control-processWeight').scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: '/tmp/shots/process-modsum.png' });

  // (b) a task without steps: the reward control is disabled, shows what runs (outcome), and says why
  await page.getByLabel('Task', { exact: true }).selectOption('add');
  await expect(reward).toBeDisabled();
  await expect(reward).toHaveValue('outcome');
  await expect(page.getByTestId('why-rewardMode')).toContainText('Task add has no checkable steps');
  await expect(page.getByTestId('why-rewardMode')).toContainText('so this run uses outcome reward');
  await expect(weight).toBeDisabled();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: '/tmp/shots/process-add-disabled.png' });

  // back on a task with steps, the choice is still there
  await page.getByLabel('Task', { exact: true }).selectOption('chain');
  await expect(reward).toBeEnabled();
  await expect(reward).toHaveValue('process');
  await expect(weight).toBeEnabled();
});

test('an address asking for process reward on a task without steps is told so and runs with outcome reward', async ({ page }) => {
  await page.goto('/?backend=cpu&task=add&rewardMode=process&promptsPerStep=2&numGenerations=2&evalEvery=50');
  const notices = page.getByTestId('url-notices');
  await expect(notices).toContainText('rewardMode process needs a task with checkable scratchpad steps (chain, digitsum, modsum); task add has none, so the run uses outcome reward');
  await settled(page);
  expect((await settingsOf(page)).rewardMode).toBe('outcome');
  await expect(page.getByLabel('Reward', { exact: true })).toBeDisabled();
  await page.screenshot({ path: '/tmp/shots/process-url-notice.png' });
});
