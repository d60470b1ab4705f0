import { expect, test, type Page } from './fixtures.ts';
import { assemble, encodeCheckpoint } from '../src/model/checkpoint.ts';
import { CONFIGS, paramLayout } from '../src/model/config.ts';
import { Rng } from '../src/model/rng.ts';
import { SETTINGS, SETTINGS_BY_KEY, parseSetting } from '../src/rl/settings.ts';
import { VOCAB_SIZE } from '../src/tasks/tokenizer.ts';
import { stubViteClient, watchErrors } from './reliability-page.ts';

// Hostile input: URLs, imported checkpoints and imported settings files are validated against
// the one settings table; each bad one gives a clear message, changes nothing else and never
// reaches the console as an error. Backend: the CPU reference.

const state = (page: Page, f: string) => page.evaluate(`(() => { const s = window.__lab.store.getState(); return ${f}; })()`);

const JUNK_KEYS = ['zzz', 'constructor', '__proto__', 'toString', 'hasOwnProperty', '', 'BETA', 'beta[]', 'a'.repeat(300), '<b>x</b>', '😀'];
const BAD_VALUES = ['', 'NaN', 'Infinity', '-Infinity', '1e309', '-1', '1e-400', '999999999999', '0x10', '1,5', 'maybe', '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>', '😀', 'a'.repeat(5000), '../../etc/passwd', 'null', '[]', '{}', '\u0000', 'sequence', '-0.5e1'];

/** 50 seeded hostile addresses; each has at least one parameter that must be named in a notice. */
function fuzzUrls(n: number): { search: string; mustName: string[] }[] {
  const rng = new Rng(2024);
  const pick = <T,>(xs: readonly T[]) => xs[rng.int(xs.length)];
  const out: { search: string; mustName: string[] }[] = [];
  while (out.length < n) {
    const p = new URLSearchParams();
    const mustName: string[] = [];
    const k = 1 + rng.int(5);
    for (let i = 0; i < k; i++) {
      const r = rng.next();
      if (r < 0.3) {
        const key = pick(JUNK_KEYS);
        p.append(key, pick(BAD_VALUES));
        mustName.push(key.slice(0, 40));
      } else if (r < 0.85) {
        const spec = pick(SETTINGS);
        const v = pick(BAD_VALUES);
        p.append(spec.key, v);
        if (!parseSetting(spec, v).ok) mustName.push(spec.key);
      } else {
        const key = pick(['lesson', 'variant', 'backend', 'classroom', 'hide']);
        p.append(key, pick(BAD_VALUES));
      }
    }
    if (!mustName.length) continue; // every address must contain something wrong
    p.append('backend', 'cpu');
    let search = p.toString();
    if (rng.next() < 0.2) search += '&%%&=&&%E0%A4%A'; // malformed percent-encoding as well
    out.push({ search, mustName });
  }
  return out;
}

/**
 * The fewest of `urls` that together carry every hostile value and junk key any of them carries
 * (greedy cover, in the seeded order): each hostile text reaches the page at least once. The
 * decoder itself meets every parameter × every hostile value in src/store/url.fuzz.test.ts; here
 * the page shows what it says, as text, and runs.
 */
function coverHostile(urls: { search: string; mustName: string[] }[]) {
  const parts = (u: { search: string }) => new Set([...new URLSearchParams(u.search)].flatMap(([k, v]) => [`k:${k}`, `v:${v}`]));
  const want = new Set([...JUNK_KEYS.map((k) => `k:${k}`), ...BAD_VALUES.map((v) => `v:${v}`)]);
  const left = new Set([...new Set(urls.flatMap((u) => [...parts(u)]))].filter((x) => want.has(x)));
  const carried = left.size;
  const picked: typeof urls = [];
  while (left.size) {
    const best = urls.reduce((a, u) => ([...parts(u)].filter((x) => left.has(x)).length > [...parts(a)].filter((x) => left.has(x)).length ? u : a));
    picked.push(best);
    for (const x of parts(best)) left.delete(x);
  }
  return { picked, carried, hostile: want.size };
}

test('fuzzed addresses carrying every hostile value: each names what it ignored, the settings stay valid, no console error', async ({ page }) => {
  test.setTimeout(600_000);
  const errors = watchErrors(page);
  await stubViteClient(page);
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); void d.dismiss(); });
  const { picked: urls, carried, hostile } = coverHostile(fuzzUrls(50));
  expect(carried, 'the 50 seeded addresses carry every hostile value and junk key').toBe(hostile);
  const rows: { i: number; params: number; notices: number; longest: number; first: string }[] = [];
  for (const [i, u] of urls.entries()) {
    await page.goto(`/?${u.search}`);
    const notices = page.getByTestId('url-notices');
    await expect(notices, u.search.slice(0, 200)).toBeVisible({ timeout: 30_000 });
    const items = await notices.locator('li').allTextContents();
    const text = items.join('\n');
    for (const key of u.mustName) expect(text, `${i}: ${key} in ${u.search.slice(0, 200)}`).toContain(key);
    expect(Math.max(...items.map((x) => x.length)), `${i}: notices stay short`).toBeLessThan(240);
    await page.waitForFunction(() => ['ready', 'paused', 'error'].includes((window as any).__lab?.store.getState().status), null, { timeout: 60_000 });
    const s = (await state(page, '({ settings: s.settings, status: s.status, error: s.error })')) as { settings: Record<string, unknown>; status: string; error: string | null };
    expect(s.status, `${i}: ${s.error}`).not.toBe('error');
    expect(Object.keys(s.settings).sort()).toEqual(SETTINGS.map((x) => x.key).sort());
    for (const [k, v] of Object.entries(s.settings)) expect(parseSetting(SETTINGS_BY_KEY[k], String(v)).ok, `${i}: ${k}=${v}`).toBe(true);
    rows.push({ i, params: [...new URLSearchParams(u.search)].length, notices: items.length, longest: Math.max(...items.map((x) => x.length)), first: items[0].slice(0, 70) });
  }
  console.table(rows.slice(0, 12));
  console.log(`${rows.length} of 50 seeded addresses (every one of the ${hostile} hostile values and junk keys in at least one), ${rows.reduce((a, r) => a + r.notices, 0)} notices in all`);
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(errors).toEqual([]);
});

/** Corrupted and hostile checkpoint files, built from a valid micro checkpoint. */
function corruptedCheckpoints(): { name: string; bytes: Uint8Array; says: RegExp }[] {
  const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
  const n = paramLayout(config).total;
  const rng = new Rng(5);
  const w = Float32Array.from({ length: n }, () => rng.normal() * 0.02);
  const good = encodeCheckpoint({ config, weights: w, optimizer: { step: 3, m: new Float32Array(n), v: new Float32Array(n) } });
  const edit = (f: (b: Uint8Array, dv: DataView) => void) => { const b = good.slice(); f(b, new DataView(b.buffer)); return b; };
  const h = new DataView(good.buffer).getUint32(12, true);
  const header = JSON.parse(new TextDecoder().decode(good.subarray(16, 16 + h)));
  const oversized = new Uint8Array((16 << 20) + 1);
  oversized.set(good.subarray(0, 16));
  const nanW = w.slice();
  nanW[7] = NaN;
  const bigVocab = { ...config, vocabSize: VOCAB_SIZE + 8 };
  return [
    { name: 'empty.ckpt', bytes: new Uint8Array(0), says: /not a checkpoint/ },
    { name: 'notes.txt', bytes: new TextEncoder().encode('hello, this is not a model'), says: /does not start with "RLVRCKPT"/ },
    { name: 'truncated.ckpt', bytes: good.slice(0, Math.floor(good.length / 2)), says: /truncated/ },
    { name: 'preamble-only.ckpt', bytes: good.slice(0, 12), says: /truncated/ },
    { name: 'newer-version.ckpt', bytes: edit((_, dv) => dv.setUint32(8, 2, true)), says: /unsupported format version 2 \(written by a newer version of the lab\)/ },
    { name: 'huge-header.ckpt', bytes: edit((_, dv) => dv.setUint32(12, 0x7ffffff0, true)), says: /header length .* exceeds the limit/ },
    { name: 'bad-header.ckpt', bytes: edit((b) => b.fill(0x7b, 16, 40)), says: /header is not valid UTF-8 JSON/ },
    { name: 'flipped-bit.ckpt', bytes: edit((b) => { b[b.length - 20] ^= 0x10; }), says: /checksum .* does not match/ },
    { name: 'trailing.ckpt', bytes: (() => { const b = new Uint8Array(good.length + 7); b.set(good); return b; })(), says: /7 unexpected bytes after the data/ },
    { name: 'other-tokenizer.ckpt', bytes: assemble(1, JSON.stringify({ ...header, tokenizerVersion: 9 }), good.subarray(16 + h)), says: /tokenizer version 9/ },
    { name: 'other-vocab.ckpt', bytes: encodeCheckpoint({ config: bigVocab, weights: new Float32Array(paramLayout(bigVocab).total) }), says: new RegExp(`vocabulary of ${VOCAB_SIZE + 8} tokens`) },
    { name: 'nan-weights.ckpt', bytes: encodeCheckpoint({ config, weights: nanW }), says: /weights contain NaN or Inf/ },
    { name: 'oversized.ckpt', bytes: oversized, says: /more than any checkpoint the lab can run/ },
  ];
}

const SETTINGS_FILES: { name: string; text: string; says: RegExp }[] = [
  { name: 'truncated-settings.json', text: '{"format":"rlvr-lab-settings","version":1,"settings":{"beta":0.', says: /not valid JSON, perhaps truncated/ },
  { name: 'future-settings.json', text: '{"format":"rlvr-lab-settings","version":3,"settings":{}}', says: /version 3 \(written by a newer lab\)/ },
  { name: 'bad-values.json', text: '{"settings":{"numGenerations":1000,"task":"<img src=x onerror=alert(1)>","beta":"0.1"}}', says: /3 invalid values: numGenerations must be between 2 and 32/ },
  { name: 'list.json', text: '[1,2,3]', says: /not a JSON object/ },
];

test('corrupted checkpoint and settings files: one clear message each, nothing else changes, no console error', async ({ page }) => {
  const errors = watchErrors(page);
  await stubViteClient(page);
  await page.goto('/?backend=cpu&numGenerations=4&promptsPerStep=3&evalEvery=200');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted === 1, null, { timeout: 60_000 });
  const snapshot = () => state(page, '({ settings: s.settings, steps: s.steps, evals: s.evals, completed: s.stepsCompleted, status: s.status, backend: s.backendName, engine: s.engineNotices, error: s.error, runs: s.runs.length })');
  const before = await snapshot();
  const message = page.getByTestId('runs-message');
  const table: { file: string; bytes: number; message: string }[] = [];
  for (const f of corruptedCheckpoints()) {
    await page.getByTestId('import-checkpoint').setInputFiles({ name: f.name, mimeType: 'application/octet-stream', buffer: Buffer.from(f.bytes) });
    await expect(message).toContainText(`${f.name} was not loaded`, { timeout: 30_000 });
    const text = (await message.textContent()) ?? '';
    expect(text, f.name).toMatch(f.says);
    expect(text, f.name).toMatch(/Nothing was changed\.$/);
    expect(await snapshot(), f.name).toEqual(before);
    table.push({ file: f.name, bytes: f.bytes.length, message: text.slice(f.name.length + 1, f.name.length + 110) });
  }
  for (const f of SETTINGS_FILES) {
    await page.getByTestId('import-settings').setInputFiles({ name: f.name, mimeType: 'application/json', buffer: Buffer.from(f.text) });
    await expect(message).toContainText(`${f.name} was not loaded`, { timeout: 30_000 });
    const text = (await message.textContent()) ?? '';
    expect(text, f.name).toMatch(f.says);
    expect(await snapshot(), f.name).toEqual(before);
    table.push({ file: f.name, bytes: f.text.length, message: text.slice(f.name.length + 1, f.name.length + 110) });
  }
  console.table(table);
  // A good settings file applies (the same table validates it).
  const good = JSON.stringify({ format: 'rlvr-lab-settings', version: 1, settings: { numGenerations: 6, beta: 0.03 } });
  await page.getByTestId('import-settings').setInputFiles({ name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(good) });
  await expect(message).toContainText('Loaded the settings from good.json');
  expect(await state(page, '[s.settings.numGenerations, s.settings.beta]')).toEqual([6, 0.03]);
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(errors).toEqual([]);
});
