// The runs panel's "TRL project (.zip)": the page's current policy as a TRL project — a Hugging Face
// GPT-2 folder, the tokenizer, the task's split, reward.py, train_grpo.py — one zip, downloaded.
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';

test('runs panel: the TRL project download holds the model, tokenizer, data, reward and training script', async ({ page }) => {
  await page.goto('/?backend=cpu&task=add&difficulty=2&promptsPerStep=4&numGenerations=4');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-trl').click()]);
  expect(download.suggestedFilename()).toBe('rlvr-lab-trl.zip');
  const zip = readFileSync((await download.path())!);
  expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  const names = zip.toString('latin1');
  for (const f of ['config.json', 'model.safetensors', 'tokenizer.json', 'data/train.jsonl', 'data/heldout.jsonl', 'reward.py', 'train_grpo.py', 'README.md']) {
    expect(names, f).toContain(`rlvr-lab-trl/${f}`);
  }
  await expect(page.getByText(/TRL project downloaded: unzip it and read its README/)).toBeVisible();
});
