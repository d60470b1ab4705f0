/**
 * npm run screenshots [-- --backend webgpu|cpu] [--lesson ID] [--frames N] [--out DIR]
 *
 * The README's two pictures, made from the page itself so they stay true to it: the lab (Vite,
 * no HMR) in headless Chromium at 1280 wide, a lesson opened and played:
 *   docs/lab-run.png   a run in progress: the lesson card with its verdict, the transport, charts with data
 *   docs/lab-run.gif   the run to its verdict, one frame per step (at most --frames): the transport and the first charts
 *   docs/lab-run.json  what the still shows: the lesson, its variant (the first), the engine and the step
 * The animation is encoded with gifenc: one palette for all frames, and each frame keeps only the
 * pixels that changed (the rest transparent), so a few seconds of a mostly still page stay small.
 * Each file must stay under 1 MB (the script fails otherwise). docs/ is not in the build, so the
 * service worker never precaches these.
 */
import type { Page } from '@playwright/test';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import gifenc from 'gifenc';
import { withBrowser } from './browser.ts';
import { LESSONS } from '../src/rl/lessons.ts';

const USAGE = 'usage: npm run screenshots -- [--backend webgpu|cpu] [--lesson ID] [--frames N] [--out DIR]';
const MAX_BYTES = 1_000_000;
interface Args { backend: 'webgpu' | 'cpu'; lesson: string; frames: number; out: string }

function fail(msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const a: Args = { backend: 'webgpu', lesson: LESSONS[0].id, frames: 40, out: resolve('docs') };
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i];
    if (f === '--backend') {
      const b = argv[++i];
      if (b !== 'webgpu' && b !== 'cpu') fail(`--backend must be webgpu or cpu, got "${b ?? ''}"`);
      a.backend = b;
    } else if (f === '--lesson') {
      a.lesson = argv[++i] ?? '';
      if (!LESSONS.some((l) => l.id === a.lesson)) fail(`unknown lesson "${a.lesson}"; the lessons: ${LESSONS.map((l) => l.id).join(', ')}`);
    } else if (f === '--frames') {
      a.frames = Number(argv[++i]);
      if (!Number.isInteger(a.frames) || a.frames < 2 || a.frames > 100) fail('--frames must be a whole number from 2 to 100');
    } else if (f === '--out') a.out = resolve(argv[++i] ?? fail('--out needs a folder'));
    else fail(`unknown flag ${f}`);
  }
  return a;
}

const { GIFEncoder, applyPalette, quantize } = gifenc;
const log = (m: string) => process.stderr.write(`screenshots: ${m}\n`);
type Box = { x: number; y: number; width: number; height: number };
type Lab = { store: { getState(): { status: string; stepsCompleted: number } } };
const state = (page: Page) => page.evaluate(() => {
  const s = (window as unknown as { __lab: Lab }).__lab.store.getState();
  return { status: s.status, steps: s.stepsCompleted };
});

/** RGBA pixels of a PNG, decoded by the browser (a blank page beside the lab's). */
async function rgba(decoder: Page, png: Buffer): Promise<Uint8Array> {
  const b64 = await decoder.evaluate(async (src) => {
    const blob = await (await fetch(`data:image/png;base64,${src}`)).blob();
    const bmp = await createImageBitmap(blob);
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const g = c.getContext('2d')!;
    g.drawImage(bmp, 0, 0);
    const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
    let s = '';
    for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode(...d.subarray(i, i + 0x8000));
    return btoa(s);
  }, png.toString('base64'));
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

/** An animated GIF: one 255-colour palette from the first and last frames; unchanged pixels are transparent (index 255). */
function encodeGif(frames: Uint8Array[], width: number, height: number, delayMs: number): Uint8Array {
  const sample = new Uint8Array(frames[0].length * 2);
  sample.set(frames[0]);
  sample.set(frames.at(-1)!, frames[0].length);
  const palette = quantize(sample, 255);
  const TRANSPARENT = palette.length;
  const gif = GIFEncoder();
  let prev: Uint8Array | null = null;
  for (const [i, f] of frames.entries()) {
    const index = applyPalette(f, palette);
    if (prev) for (let p = 0; p < index.length; p++) if (index[p] === prev[p]) index[p] = TRANSPARENT;
    gif.writeFrame(index, width, height, {
      palette: i === 0 ? palette : [...palette, [255, 255, 255]],
      delay: i === frames.length - 1 ? delayMs * 6 : delayMs, // the last frame holds a moment before the loop
      ...(prev ? { transparent: true, transparentIndex: TRANSPARENT, dispose: 1 } : {}),
    });
    const full = applyPalette(f, palette);
    prev = full;
  }
  gif.finish();
  return gif.bytes();
}

/** The lesson card's verdict is in (no longer pending). */
const VERDICT_IN = () => {
  const v = document.querySelector('[data-testid="lesson-verdict"]');
  return !!v && v.getAttribute('data-state') !== 'pending';
};
const verdictIn = (page: Page) => page.evaluate(VERDICT_IN);

/** The height of the charts' first row as shown (a lesson reorders the cards with CSS order). */
const firstRowHeight = (page: Page) => page.getByLabel('Live charts').evaluate((el) => {
  const top = el.getBoundingClientRect().top;
  const cards = [...el.children].map((c) => c.getBoundingClientRect()).filter((r) => r.height > 0);
  const first = Math.min(...cards.map((r) => r.top));
  return Math.max(...cards.filter((r) => Math.abs(r.top - first) < 4).map((r) => r.bottom)) - top;
});

const union = (a: Box, b: Box): Box => {
  const x = Math.min(a.x, b.x), y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
};
const round = (b: Box): Box => ({ x: Math.floor(b.x), y: Math.floor(b.y), width: Math.ceil(b.width), height: Math.ceil(b.height) });

async function main() {
  const a = parseArgs(process.argv.slice(2));
  await withBrowser(async (browser, origin) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1200 }, deviceScaleFactor: 1 });
    const decoder = await browser.newPage();
    page.on('pageerror', (e) => log(`[page error] ${e.message}`));
    await page.goto(`${origin}/?backend=${a.backend}&lesson=${a.lesson}`);
    log(`lesson ${a.lesson}, ${a.backend}: waiting for the engine…`);
    await page.waitForFunction(() => (window as unknown as { __lab?: Lab }).__lab?.store.getState().status === 'ready', null, { timeout: 600_000, polling: 250 });
    const transport = page.getByRole('toolbar', { name: 'Transport' });
    const charts = page.getByLabel('Live charts');
    // the animation: the transport and the first row of charts (the charts' top 460 px)
    const tb = (await transport.boundingBox())!, cb = (await charts.boundingBox())!;
    const clip = round(union(tb, { ...cb, height: await firstRowHeight(page) }));
    await transport.getByRole('button', { name: /Play$/ }).click();
    await page.waitForFunction(() => (window as unknown as { __lab: Lab }).__lab.store.getState().stepsCompleted >= 2, null, { timeout: 600_000, polling: 250 });
    // one frame at each step's end (a step that ends while a frame is taken is skipped), until the verdict or --frames;
    // the clip follows the transport down or up as the lesson card above it changes height
    const frames: Uint8Array[] = [];
    const t0 = Date.now();
    for (let seen = 1; frames.length < a.frames;) {
      await page.waitForFunction((n) => (window as unknown as { __lab: Lab }).__lab.store.getState().stepsCompleted > n, seen, { timeout: 600_000, polling: 100 });
      seen = (await state(page)).steps;
      const y = Math.floor((await transport.boundingBox())!.y);
      frames.push(await rgba(decoder, await page.screenshot({ clip: { ...clip, y } })));
      if (await verdictIn(page)) break;
    }
    log(`${frames.length} frames of ${clip.width}×${clip.height} over ${((Date.now() - t0) / 1000).toFixed(1)} s (to step ${(await state(page)).steps})`);
    // the still: once the lesson's verdict is in, paused, the card and the charts
    await page.waitForFunction(VERDICT_IN, null, { timeout: 900_000, polling: 500 });
    // Play stops at the verdict step by itself; a run still going (Play stopped earlier: --frames) is paused
    if ((await state(page)).status === 'running') await transport.getByRole('button', { name: /Pause$/ }).click({ timeout: 10_000 }).catch(() => undefined);
    await page.waitForFunction(() => (window as unknown as { __lab: Lab }).__lab.store.getState().status === 'paused', null, { timeout: 120_000, polling: 250 }); // at the step's end
    await page.waitForTimeout(1500); // the last writes and the cards below the fold catch up
    // from the top of the page (the title, the engine line, the lesson card) to the first row of charts
    // (measured now: the card grew with its verdict and moved the charts down)
    const still = round({ x: 0, y: 0, width: page.viewportSize()!.width, height: (await charts.boundingBox())!.y + (await firstRowHeight(page)) + 8 });
    mkdirSync(a.out, { recursive: true });
    const png = join(a.out, 'lab-run.png'), gif = join(a.out, 'lab-run.gif');
    await page.screenshot({ path: png, clip: still, fullPage: true });
    writeFileSync(gif, encodeGif(frames, clip.width, clip.height, 300));
    const { steps } = await state(page);
    for (const f of [png, gif]) {
      const bytes = statSync(f).size;
      log(`${f}: ${(bytes / 1024).toFixed(0)} KB`);
      if (bytes >= MAX_BYTES) throw new Error(`${f} is ${bytes} bytes, over the 1 MB the README allows`);
    }
    // what the still shows, for the README's caption (docs.test.ts: the caption's step is this one, and this the lesson's verdict step)
    const lesson = LESSONS.findIndex((l) => l.id === a.lesson);
    writeFileSync(join(a.out, 'lab-run.json'), `${JSON.stringify({ lesson: lesson + 1, lessonId: a.lesson, variant: 0, backend: a.backend, step: steps, made: new Date().toISOString().slice(0, 10) }, null, 2)}\n`);
    log(`still taken at step ${steps}`);
  });
}

main().catch((e) => {
  process.stderr.write(`screenshots failed: ${(e as Error).message}\n`);
  process.exit(1);
});
