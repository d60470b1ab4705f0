// `npm run bench`'s CPU section (scripts/bench.ts): the CPU engine on 0, 1 and 2 worker threads.
type Json = Record<string, unknown>;
const r2 = (x: number) => Math.round(x * 100) / 100;

/**
 * cpu_grpo_step: one GRPO step of the default lesson on the lab's model (micro, fresh init, seed 1)
 * on the CPU engine: on this thread (the lab where workers cannot start: workers 0) and
 * data-parallel over 1 and 2 worker threads (src/worker/cpuEngine.ts, here on Node's workers).
 * The engines take turns step by step, so each sees the same load on a shared machine; ms is
 * each one's median. by_workers: [{ workers, ms }]; speedup_2: ms(1) / ms(2).
 */
export async function cpuGrpoByWorkers(reps: number): Promise<Json> {
  const [{ Worker }, { default: nodeEndpoint }, { WorkerCpuBackend }, { ReferenceBackend }, { GrpoTrainer }, { LESSONS, lessonSettings }, { defaultSettings }, { CONFIGS, paramLayout }, { initWeights }, { VOCAB_SIZE }] = await Promise.all([
    import('node:worker_threads'), import('comlink/dist/esm/node-adapter.mjs'), import('../src/worker/cpuEngine.ts'), import('../src/model/reference/backend.ts'),
    import('../src/rl/trainer.ts'), import('../src/rl/lessons.ts'), import('../src/rl/settings.ts'), import('../src/model/config.ts'), import('../src/model/init.ts'), import('../src/tasks/tokenizer.ts'),
  ]);
  const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
  const settings = { ...lessonSettings(LESSONS[0], defaultSettings()), seed: 1 };
  const weights = () => initWeights(paramLayout(config), 1);
  const nodeWorkers = (n: number) => Array.from({ length: n }, () => {
    const w = new Worker(new URL('./cpu-shard-node.mjs', import.meta.url));
    return { endpoint: nodeEndpoint(w), terminate: () => void w.terminate(), onFailure: (cb: (m: string) => void) => void w.on('error', (e: Error) => cb(e.message)) };
  });
  const engines = [
    { workers: 0, be: new ReferenceBackend(config, weights()) },
    { workers: 1, be: await WorkerCpuBackend.start(config, weights(), nodeWorkers(1)) },
    { workers: 2, be: await WorkerCpuBackend.start(config, weights(), nodeWorkers(2)) },
  ];
  try {
    const runs = engines.map((e) => ({ ...e, trainer: new GrpoTrainer(e.be, settings, { evalSize: 8 }), ms: [] as number[] }));
    for (const r of runs) { await r.trainer.takeReference(); await r.trainer.trainStep(); } // warm-up
    for (let i = 0; i < reps; i++) {
      for (const r of runs) {
        const t0 = performance.now();
        await r.trainer.trainStep();
        r.ms.push(performance.now() - t0);
      }
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const byWorkers = runs.map((r) => ({ workers: r.workers, ms: r2(med(r.ms)), ms_all: r.ms.map(r2) }));
    const ms = (n: number) => byWorkers.find((b) => b.workers === n)!.ms;
    return {
      lesson: LESSONS[0].id, model: config, prompts: settings.promptsPerStep, G: settings.numGenerations, mu: settings.numIterations, reps,
      by_workers: byWorkers, speedup_2: r2(ms(1) / ms(2)), steps_per_s: { page_thread: r2(1000 / ms(0)), workers_2: r2(1000 / ms(2)) },
      note: 'workers 0: the reference on the calling thread (the lab before, and where workers cannot start); ratios are measured back to back, step by step',
    };
  } finally {
    for (const e of engines) e.be.dispose();
  }
}
