/**
 * Verifier speed: strict verdicts per second per task on a mix of responses (the reference
 * answer, a wrong answer, a hostile one, a long one), and the cost of a 10,000-character
 * answer, which the response cap refuses before any parsing, and the worst 100,000-character
 * hostile answer over every task and weak verifier. A benchmark, not a test: it
 * prints a table and one JSON line, and asserts nothing.
 *
 *   npx tsx scripts/verify-bench.ts [--reps N]
 */
import { Rng } from '../src/model/rng.ts';
import { TASKS, WEAK_VERIFIERS } from '../src/tasks/registry.ts';

const repsArg = process.argv.indexOf('--reps');
const REPS = repsArg >= 0 ? Number(process.argv[repsArg + 1]) : 20;
const LONG = '9'.repeat(10_000);

function main(): void {
  const results: Record<string, number> = {};
  let total = 0;
  let totalMs = 0;
  let sink = 0; // keeps the verdicts observable so nothing is optimized away
  console.log('task        difficulty  verdicts/s');
  for (const task of TASKS) {
    const d = task.difficulties[task.difficulties.length - 1];
    const rng = new Rng(123);
    const cases: [string, string][] = [];
    for (let i = 0; i < 250; i++) {
      const { prompt, answer } = task.generate(rng, d);
      cases.push([prompt, task.referenceResponse(prompt, { think: true })], [prompt, `${answer}x`], [prompt, `<b>${answer}</b>`], [prompt, `1|2|${answer}`]);
    }
    for (const [p, r] of cases.slice(0, 50)) sink += task.verify(p, r).reward; // warm-up
    const t0 = performance.now();
    for (let rep = 0; rep < REPS; rep++) for (const [p, r] of cases) sink += task.verify(p, r).reward;
    const ms = performance.now() - t0;
    const n = REPS * cases.length;
    results[task.id] = Math.round((n / ms) * 1000);
    total += n;
    totalMs += ms;
    console.log(`${task.id.padEnd(12)}${String(d).padEnd(12)}${results[task.id].toLocaleString('en-US').padStart(10)}`);
  }

  // The 10,000-character answer: strict verifiers refuse it by length; weak ones scan it.
  const longRows: Record<string, number> = {};
  for (const task of TASKS) {
    const prompt = task.generate(new Rng(1), task.difficulties[0]).prompt;
    const t0 = performance.now();
    for (let i = 0; i < 2000; i++) sink += task.verify(prompt, LONG).reward;
    longRows[task.id] = ((performance.now() - t0) / 2000) * 1000; // µs per verdict
  }
  const weakLong: Record<string, number> = {};
  for (const w of WEAK_VERIFIERS) {
    const task = TASKS[0];
    const prompt = task.generate(new Rng(1), 1).prompt;
    const t0 = performance.now();
    for (let i = 0; i < 2000; i++) sink += w.verify(task, prompt, LONG).reward;
    weakLong[w.id] = ((performance.now() - t0) / 2000) * 1000;
  }
  // The worst of four 100,000-character hostile shapes, over every task and weak verifier (ms, fastest of 3).
  const HOSTILE = ['9'.repeat(100_000), '('.repeat(50_000) + ')'.repeat(50_000), '|'.repeat(100_000), `${'1+'.repeat(50_000)}1`];
  let hostileWorstMs = 0;
  for (const task of TASKS) {
    const prompt = task.generate(new Rng(1), task.difficulties[0]).prompt;
    for (const text of HOSTILE) {
      for (const verify of [(r: string) => task.verify(prompt, r), ...WEAK_VERIFIERS.map((w) => (r: string) => w.verify(task, prompt, r))]) {
        let best = Infinity;
        for (let k = 0; k < 3; k++) {
          const t0 = performance.now();
          sink += verify(text).reward;
          best = Math.min(best, performance.now() - t0);
        }
        hostileWorstMs = Math.max(hostileWorstMs, best);
      }
    }
  }
  const maxLong = Math.max(...Object.values(longRows));
  console.log(`\nall tasks: ${Math.round((total / totalMs) * 1000).toLocaleString('en-US')} verdicts/s`);
  console.log(`10,000-character answer, strict: at most ${maxLong.toFixed(2)} µs per verdict (refused by the length cap)`);
  console.log(`10,000-character answer, weak:   ${Object.entries(weakLong).map(([k, v]) => `${k} ${v.toFixed(1)} µs`).join(', ')}`);
  console.log(`100,000-character hostile answers, worst over every task and weak verifier: ${hostileWorstMs.toFixed(2)} ms`);
  console.log(JSON.stringify({ verdictsPerSecond: results, overall: Math.round((total / totalMs) * 1000), longAnswerMicros: longRows, weakLongAnswerMicros: weakLong, hostileWorstMs, sink }));
}

main();
