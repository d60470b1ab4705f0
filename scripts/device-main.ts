/**
 * What `scripts/device-check` runs on a machine with a GPU (or here, on SwiftShader): the WGSL
 * engine in Node through Dawn and Vulkan, no browser. Prints one JSON object:
 *
 *   adapter   what Dawn found (vendor, architecture, description)
 *   check     scripts/dawn-check.ts: kernel parity, policy-loss parity, the PyTorch goldens,
 *             and GRPO from the shipped reverse base (held-out pass@1 before and after)
 *   bench     src/gpu/bench/engineBench.ts: per config (tiny, small) the training step and
 *             the sampling of 64 rows, apart; one GRPO step of the lab's default lesson (its
 *             phases, steps per second) and its GPU traffic at µ = 1, 2, 4; the matmul and
 *             row-reduction kernel forms
 *   grpo_by_mu  per µ = 1, 2, 4: steps per second of the default lesson's GRPO step, its
 *             dispatches per phase (rollout, update, evaluation), and — where the adapter has
 *             'timestamp-query' — GPU ms per phase (rollout, forward, loss, backward, optimizer)
 *             and per kernel family, from the profiler's replay of one real step
 *   autotune  the lab's start-up here: the self-check, then each kernel family's forms timed on
 *             the default lesson's shapes (tiny model, 32 rollout rows; --quick: the micro model)
 *             and the fastest kept (src/gpu/autotune.ts): [{ family, candidates: [{ form, ms }], chosen }];
 *             autotune_run: the model, the check's verdict and time, the tune's time and budget
 *
 *   device-main [--quick]   (--quick: kernels + 3 micro GRPO steps, and of the bench only the
 *                            GRPO step's traffic at µ = 1, 2, untimed: what the unit test runs here)
 */
import { pathToFileURL } from 'node:url';
import { installDawn, withDawnEnv } from './dawn.ts';
import { runDawnCheck } from './dawn-check.ts';

export async function runDeviceCheck(quick: boolean) {
  const t0 = performance.now();
  const adapter = await installDawn();
  const check = await runDawnCheck(quick ? { quick: true } : { steps: 40, evalSize: 64 });
  const b = await import('../src/gpu/bench/engineBench.ts');
  const info = await b.adapterInfo();
  const reps = quick ? 1 : info.swiftshader ? 2 : 20;
  const defs = await b.benchConfigs();
  const configs: Record<string, unknown> = {};
  for (const name of quick ? [] : ['tiny', 'small'] as const) {
    const { model, batch } = defs[name as 'tiny' | 'small'];
    const st = await b.benchTrainStep(model, batch, model.seqLen, reps);
    const sm = await b.benchSample(model, 64, reps);
    configs[name] = {
      step_ms_median: st.step_ms_median, step_ms_min: st.step_ms_min, tokens_per_s: st.tokens_per_s, gflops: st.gflops,
      dispatches_per_step: st.dispatches_per_step, readbacks_per_step: st.readbacks_per_step,
      sample_ms_median: sm.sample_ms_median, sample_ms_min: sm.sample_ms_min, sample_submits: sm.submits, sample_readbacks: sm.readbacks,
    };
  }
  // --quick times nothing (a smoke test's times on SwiftShader say nothing): it counts the traffic
  const grpo = quick ? null : await b.benchGrpoStep(defs.tiny.model, reps);
  const mus = quick ? [1, 2] : [1, 2, 4];
  // counted in every GPU form (GPU_FORMS); the smoke form on SwiftShader keeps its own row forms
  // with the GPU's fused decode (the tiled attention and tree reductions cost it half a minute more)
  const forms = quick && info.swiftshader ? { ...b.GPU_FORMS, matmulForm: 'direct', reductionForm: 'row', attentionForm: 'row' } as const : b.GPU_FORMS;
  const traffic = await b.benchGrpoTraffic(defs.tiny.model, mus, forms);
  const byMu = [];
  for (const mu of quick ? [] : mus) {
    const st = await b.benchGrpoStep(defs.tiny.model, reps, mu);
    const prof = quick ? null : await b.profileGrpoStep(defs.tiny.model, mu);
    const t = traffic.find((r) => r.mu === mu)!;
    const ms = (rows: { name: string; ms: number; dispatches: number }[]) => Object.fromEntries(rows.map((r) => [r.name, { ms: Math.round(r.ms * 1000) / 1000, dispatches: r.dispatches }]));
    byMu.push({
      mu, steps_per_s: 1000 / st.ms_median, ms_median: st.ms_median, rollout_ms: st.rollout_ms, update_ms: st.update_ms,
      dispatches: { step: t.dispatches, rollout: t.rollout_dispatches, update: t.update_dispatches, evaluation: t.evaluation_dispatches },
      gpu: prof ? { source: prof.source, gpu_ms: prof.gpuMs, phases: ms(prof.phases), families: ms(prof.families) } : quick ? 'not profiled (--quick)' : 'no timestamp-query on this adapter',
    });
  }
  const tuneModel = quick ? { ...defs.tiny.model, ...(await import('../src/model/config.ts')).CONFIGS.micro } : defs.tiny.model;
  const { autotune, ...autotuneRun } = await b.benchAutotune(tuneModel, 32);
  const matmul = quick ? null : await b.benchMatmul(1024, 1024, 1024, 3, info.swiftshader ? 2 : 20);
  const reductions = quick ? null : await b.benchReductions(2048, 128, 51, 3, info.swiftshader ? 2 : 20);
  return {
    adapter: { ...info, dawn: adapter },
    check,
    autotune, autotune_run: { model: tuneModel, rows: 32, ...autotuneRun },
    bench: { reps, configs, grpo_step: { ...grpo, steps_per_s: grpo ? 1000 / grpo.ms_median : null, by_mu: traffic }, grpo_by_mu: quick ? 'not timed (--quick)' : byMu, matmul, reductions },
    seconds: (performance.now() - t0) / 1000,
  };
}

if (/device-main\.(ts|mjs)$/.test(process.argv[1] ?? '') && import.meta.url === pathToFileURL(process.argv[1]).href) {
  withDawnEnv();
  runDeviceCheck(process.argv.includes('--quick'))
    .then((out) => {
      process.stdout.write(`${JSON.stringify(out)}\n`);
      process.exit(out.check.ok && out.autotune_run.check_ok ? 0 : 1);
    })
    .catch((e) => {
      process.stderr.write(`device-check failed: ${(e as Error).stack ?? e}\n`);
      process.exit(1);
    });
}
