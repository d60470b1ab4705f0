// The house rules the code can check: the app layer reads in one sitting and keeps no
// module-level mutable state; imports point downward (ui → lab → store → rl → tasks/model → gpu),
// and the engine never imports React, the store, the session or the page.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((f) => {
    const p = join(dir, f);
    return statSync(join(root, p)).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}
const APP = ['src/store', 'src/lab', 'src/ui', 'src/rl', 'src/persist', 'scripts'];
const appFiles = APP.flatMap(files).filter((f) => !/\.test\.tsx?$/.test(f));
/** Modules a file imports (`values`: only imports that load code, not `import type`). */
const importsOf = (f: string, values = false) => [...readFileSync(join(root, f), 'utf8').matchAll(/^import( type)?[^'"]*['"]([^'"]+)['"]/gm)].filter((m) => !values || !m[1]).map((m) => m[2]);

describe('architecture', () => {
  it('no file of the app layer is over 400 lines (tests aside)', () => {
    expect(appFiles.length).toBeGreaterThan(30);
    const long = appFiles.map((f) => [f, readFileSync(join(root, f), 'utf8').split('\n').length] as const).filter(([, n]) => n > 400);
    expect(long).toEqual([]);
  });

  it('the app layer keeps no module-level mutable state (no top-level let or var)', () => {
    const offenders = appFiles.flatMap((f) => readFileSync(join(root, f), 'utf8').split('\n').flatMap((l, i) => (/^(export\s+)?(let|var)\s/.test(l) ? [`${f}:${i + 1}: ${l.trim()}`] : [])));
    expect(offenders).toEqual([]);
  });

  it('the engine (gpu, model, tasks, rl) imports neither React nor the store, the session or the page', () => {
    const engine = ['src/gpu', 'src/model', 'src/tasks', 'src/rl'].flatMap(files);
    const bad = engine.flatMap((f) => importsOf(f).filter((m) => /^react|\/(store|lab|ui|persist)\//.test(m)).map((m) => `${f} imports ${m}`));
    expect(bad).toEqual([]);
  });

  it('the trainer runs on any engine: rl and model import nothing of gpu (harnesses that join them live in src/testing)', () => {
    const bad = ['src/rl', 'src/model', 'src/tasks'].flatMap(files).flatMap((f) => importsOf(f).filter((m) => /(^|\/)gpu\//.test(m)).map((m) => `${f} imports ${m}`));
    expect(bad).toEqual([]);
  });

  it('components call the session and read the store; only the session writes it', () => {
    const ui = files('src/ui');
    const writes = ui.flatMap((f) => (/useLab\.setState|\.setState\(/.test(readFileSync(join(root, f), 'utf8')) ? [f] : []));
    expect(writes).toEqual([]);
    const reachesIn = ui.flatMap((f) => importsOf(f, true).filter((m) => /\/(gpu|model)\/|\/lab\//.test(m)).map((m) => `${f} imports ${m}`));
    expect(reachesIn).toEqual([]);
  });
});
