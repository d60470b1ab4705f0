import { expect, test } from './fixtures.ts';
import { encodeResult } from '../src/class/code.ts';
import { sample } from '../src/class/testSample.ts';

test('shots: the class pool with its interval', async ({ page }) => {
  const g8 = [0.08, 0.1, 0.05, 0.12, 0.07, 0.11, 0.02, 0.09];
  const g2 = [-0.1, -0.05, 0.01, -0.12, -0.06, -0.09, -0.02, -0.04];
  const codes = [...g8.map((x, i) => encodeResult(sample({ seed: 20 + i, variant: 1, claim: x, held: x > 0.03, contrast: 0.8 + i / 50, prediction: i % 3 === 0 ? 2 : 0 }))),
    ...g2.map((x, i) => encodeResult(sample({ seed: 20 + i, variant: 0, claim: x, held: x <= 0, contrast: 0.4 + i / 60, prediction: null })))];
  await page.goto('/?backend=cpu');
  await page.getByText('Class results', { exact: true }).click();
  await page.getByLabel('Paste results').fill(codes.map((c, i) => `student ${i}: ${c}`).join('\n'));
  await expect(page.getByTestId('class-summary')).toHaveText('16 runs pooled.');
  await page.getByTestId('class-pool').screenshot({ path: '/tmp/shots40/class-pool.png' });
});
