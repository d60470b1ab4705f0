/**
 * npm run rehash-records — the one migration of the lessons' records (src/rl/records/<lesson>.json)
 * to the contract hash that covers each variant's base checkpoint bytes (records/bases.json), the
 * evaluator's version and the wreck flag the verdict reads (Claim.promisesWreck; the old hash
 * stored the table's own list of variants under the key "mayWreck"). It re-names a record without
 * running it again, and only where the record provably judged today's contract:
 *
 *  1. the record's hash is the old formula on today's lesson (settings, claims, thresholds, verdict
 *     step, held-out size: none changed since it was judged);
 *  2. the base checkpoints at the commit that wrote the record are byte for byte today's;
 *  3. the evaluator (src/rl/evaluation.ts, and src/tasks outside its tests: prompts, splits,
 *     verifiers, pass@k) has not changed since that commit, apart from EVALUATOR_VERSION's own lines.
 *
 * A variant renamed since (its name only: lesson 6's variants lost names that answered the lesson's
 * question) takes its name of today, by its place in the lesson. Any record that fails one is left as it is (lessonRecords.test.ts then says it needs fresh seeds)
 * and named. The verdicts themselves read the claims' own wreck flags then as now (claims.ts), so
 * no verdict in a record changes. Run with --check to report without writing.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { hash32, PINNED, stableJson } from '../src/rl/contract.ts';
import { baseFor } from '../src/rl/bases.ts';
import { contractHash, lessonContract } from '../src/rl/lessonContract.ts';
import { LESSONS, lessonSettings, type Lesson } from '../src/rl/lessons.ts';
import { defaultSettings } from '../src/rl/settings.ts';

/** The variants the old hash flagged "mayWreck" (the table's list, LessonVariant.promisesWreck, until 2026-12-07). */
const OLD_WRECK_LIST = new Set(['mixed-groups#0', 'reward-hacking#0', 'small-pool#0']);

/** contractHash as it was before the migration. */
function oldContractHash(lesson: Lesson): string {
  const c = lessonContract(lesson);
  const variants = lesson.variants.map((v, i) => {
    const { seed: _seed, ...settings } = lessonSettings(lesson, defaultSettings(), i);
    return { settings, number: { what: v.claim.number.what, threshold: v.claim.number.threshold, side: v.claim.number.side }, steps: v.claim.steps, mayWreck: OLD_WRECK_LIST.has(`${lesson.id}#${i}`) };
  });
  return hash32(stableJson({ id: lesson.id, base: lesson.base, contract: c, pinned: PINNED, variants }));
}

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'buffer', maxBuffer: 1 << 26 });
const gitText = (...args: string[]) => git(...args).toString('utf8').trim();

/** What keeps a record from being re-named (null: nothing). */
function obstacle(lesson: Lesson, file: string, hash: string): string | null {
  if (hash !== oldContractHash(lesson)) return `its hash ${hash} is not today's contract under the old formula (${oldContractHash(lesson)}): the lesson changed since it was judged`;
  const at = gitText('log', '-1', '--format=%H', '--', file);
  if (!at) return 'no commit wrote it';
  const files = [...new Set(lesson.variants.map((_, i) => { const s = lessonSettings(lesson, defaultSettings(), i); return baseFor(s.task, s.difficulty, s.watchTask)?.file; }))];
  for (const f of files) {
    if (!f) continue;
    const then = git('show', `${at}:public/checkpoints/${f}`);
    if (!then.equals(readFileSync(`public/checkpoints/${f}`))) return `its base ${f} changed since ${at.slice(0, 7)}`;
  }
  const changed = gitText('diff', '--name-only', at, 'HEAD', '--', 'src/rl/evaluation.ts', 'src/tasks').split('\n').filter((p) => p && !/\.test\.ts$/.test(p));
  const diff = changed.length ? gitText('diff', '-U0', at, 'HEAD', '--', ...changed) : '';
  // the evaluator's own version lines (and their comment) are the migration's, not a change of what it reads
  const real = diff.split('\n').filter((l) => /^[+-][^+-]/.test(l) && !/EVALUATOR_VERSION|^[+-]\s*(\/\*\*|\*)/.test(l));
  if (real.length) return `the evaluator changed since ${at.slice(0, 7)}: ${changed.join(', ')}`;
  return null;
}

const check = process.argv.includes('--check');
for (const lesson of LESSONS) {
  const file = `src/rl/records/${lesson.id}.json`;
  const text = readFileSync(file, 'utf8');
  const hash = (JSON.parse(text) as { hash: string }).hash;
  const now = contractHash(lesson);
  if (hash === now) { console.log(`${lesson.id}: already ${now}`); continue; }
  const why = obstacle(lesson, file, hash);
  if (why) { console.log(`${lesson.id}: left as it is — ${why}`); continue; }
  const labels = (JSON.parse(text) as { variants: { label: string }[] }).variants.map((v) => v.label);
  let out = text.replace(`"hash": "${hash}"`, `"hash": "${now}"`);
  labels.forEach((old, i) => { const name = lesson.variants[i].short ?? lesson.variants[i].label; if (old !== name) out = out.replace(`{"label":${JSON.stringify(old)},`, `{"label":${JSON.stringify(name)},`); });
  if (!check) writeFileSync(file, out);
  console.log(`${lesson.id}: ${hash} → ${now}${check ? ' (--check: not written)' : ''}`);
}

