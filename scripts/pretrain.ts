/**
 * npm run pretrain [-- --only FILE] — (re)builds the shipped base checkpoints in
 * public/checkpoints/ by supervised cold start on the CPU reference (src/rl/coldStart.ts).
 * Each checkpoint's metadata records its task, difficulty, pass rates, steps and seed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { ReferenceBackend } from '../src/model/reference/backend.ts';
import { encodeCheckpoint } from '../src/model/checkpoint.ts';
import { CONFIGS } from '../src/model/config.ts';
import { VOCAB_SIZE } from '../src/tasks/tokenizer.ts';
import { BASES } from '../src/rl/bases.ts';
import { coldStart } from '../src/rl/coldStart.ts';
import { writeBaseChecksums } from './base-checksums.ts';

const only = process.argv.indexOf('--only') >= 0 ? process.argv[process.argv.indexOf('--only') + 1] : null;
const SEED = 1;
mkdirSync('public/checkpoints', { recursive: true });
for (const b of BASES) {
  if (only && b.file !== only) continue;
  const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro, ...b.config }; // a base may override the shape (e.g. seqLen)
  const be = ReferenceBackend.create(config, SEED);
  const t0 = Date.now();
  const r = await coldStart(be, { task: b.task, difficulty: b.difficulty, think: b.think, targetAccuracy: b.targetAccuracy, targetMetric: 'sampled', evalEvery: 10, maxCompletionLength: b.maxCompletionLength, also: b.also, seed: SEED, progress: (m) => process.stderr.write(`${b.file}: ${m}\n`) });
  const metadata = {
    kind: 'base', task: b.task, difficulty: b.difficulty, ...(b.also ? { also: b.also } : {}), think: b.think, seed: SEED, sftSteps: r.steps,
    heldoutAccuracy: r.heldoutAccuracy, trainAccuracy: r.trainAccuracy, sampledPassRate: r.sampledPassRate,
    configName: b.config ? `micro+${JSON.stringify(b.config)}` : 'micro', createdBy: 'npm run pretrain',
  };
  writeFileSync(`public/checkpoints/${b.file}`, encodeCheckpoint({ config, weights: await be.getWeights(), metadata }));
  process.stderr.write(`${b.file}: ${JSON.stringify(metadata)} in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}
// the lessons' contract hashes cover the bases' bytes: a rebuilt base un-records its lessons
writeBaseChecksums();
