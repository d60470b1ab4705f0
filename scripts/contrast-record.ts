/**
 * npm run contrast-record -- FILE.jsonl [FILE.jsonl …]
 *
 * Records each lesson's contrast across seeds from the runs `npm run lessons -- --backend webgpu
 * --seeds 2,3,4,5,6 --lesson ID --json` wrote (one JSON line per run, on stderr), into
 * src/rl/contrastSeeds.ts: per lesson, the engine, the seeds and, per seed, the higher-rank
 * variant's number minus the lower-rank one's (contrast.ts contrastBySeed, as the table prints).
 * The lesson card states it beside the live run's own contrast; src/rl/contrastSeeds.test.ts checks
 * that a lesson promises its contrast exactly where the record shows it on at least 4 of 5 seeds.
 * Lessons not in the files keep their recorded entry.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { contrastBySeed } from '../src/rl/contrast.ts';
import { CONTRAST_SEEDS, type SeedContrast } from '../src/rl/contrastSeeds.ts';
import { LESSONS } from '../src/rl/lessons.ts';
import type { LessonRun } from './lessons-table.ts';

const OUT = new URL('../src/rl/contrastSeeds.ts', import.meta.url);

function main() {
  const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const backend = process.argv.includes('--cpu') ? 'cpu' : 'webgpu';
  if (!files.length) throw new Error('usage: npm run contrast-record -- runs.jsonl […] [--cpu]  (the --json lines of `npm run lessons`)');
  const runs: LessonRun[] = files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as LessonRun));
  const record: Record<string, SeedContrast> = { ...CONTRAST_SEEDS };
  for (const l of LESSONS) {
    const rs = runs.filter((r) => r.lesson === l.id);
    if (!l.contrast || !rs.length) continue;
    const seeds = [...new Set(rs.map((r) => r.seed))].sort((a, b) => a - b);
    const numbers = rs.map((r) => ({ ...r, evidence: Object.fromEntries(Object.entries(r.measured).map(([k, v]) => [k, v ?? NaN])) }));
    const { top, bottom, diffs } = contrastBySeed(l.contrast, numbers, seeds);
    if (diffs.some((d) => !Number.isFinite(d))) throw new Error(`${l.id}: a variant is missing on a seed (${diffs.join(', ')}): run every variant on every seed`);
    record[l.id] = { backend, seeds, top, bottom, diffs: diffs.map((d) => Number(d.toFixed(4))) };
    console.log(`${l.id}: ${diffs.map((d) => d.toFixed(3)).join(', ')}`);
  }
  const body = Object.entries(record).map(([id, r]) => `  '${id}': ${JSON.stringify(r)},`).join('\n');
  const src = readFileSync(OUT, 'utf8');
  const head = src.slice(0, src.indexOf('export const CONTRAST_SEEDS'));
  writeFileSync(OUT, `${head}export const CONTRAST_SEEDS: Readonly<Record<string, SeedContrast>> = {\n${body}\n};\n`);
}

main();
