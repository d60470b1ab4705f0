/**
 * The `test` every spec uses: Playwright's, plus one automatic check. The engine logs each
 * WebGPU validation error it receives (src/gpu/context.ts: "WebGPU error: …"); a submit the
 * device rejects runs nothing, so results can look plausible while the GPU did no work. Any
 * such error on any page of the test's browser context fails the test, unless the test
 * declares it provokes them (annotation `provokes-webgpu-errors` with the reason).
 * And the lab specs' one wait for the lab: `settled` (and `newRun`, after an action that starts a run).
 */
import { expect, test as base, type Page } from '@playwright/test';
import type { LabState } from '../src/store/labStore.ts';

export { expect };
export type { Page } from '@playwright/test';

export const test = base.extend<{ webgpuErrors: string[] }>({
  webgpuErrors: [
    async ({ context }, use, testInfo) => {
      const errors: string[] = [];
      context.on('console', (m) => {
        if (m.type() === 'error' && m.text().startsWith('WebGPU error')) errors.push(m.text());
      });
      await use(errors);
      if (!testInfo.annotations.some((a) => a.type === 'provokes-webgpu-errors')) {
        expect(errors, 'WebGPU validation errors reported by the device').toEqual([]);
      }
    },
    { auto: true },
  ],
});

type LabWindow = { __lab?: { store: { getState(): LabState } }; __runBefore?: unknown };

/**
 * Wait until the lab has settled: a run loaded with its step-0 evaluation in, not playing or
 * pausing, no step, step-through phase, cold start or profile computing; and, when `until` is
 * given, until `until(state, arg)` holds as well. `until` runs in the page, like any function given
 * to page.evaluate: it reads only the store's state and `arg`. A run stopped by an error fails the
 * wait at once, with the page's sentence.
 *
 * The status line alone is no evidence that an action landed: "paused · 0 steps" is on screen
 * before a reset, a lesson, a task switch or a resume takes effect as well as after it (each first
 * stops the old run and clears its saved copy, then starts loading). After such an action, pass an
 * `until` that only the action makes true (the task, the lesson, the step count it sets), or use
 * `newRun` where nothing but the run itself changes.
 */
export function settled<A = undefined>(page: Page, until?: (s: LabState, arg: A) => boolean, arg?: A, timeout = 60_000): Promise<void> {
  return waitSettled(page, until, arg, timeout, false);
}

/**
 * Do `action` (a click or a key that starts a new run: Reset, Resume, New student) and wait until
 * that new run has settled (and `until`, if given, holds). Every load gives the run a new origin
 * (the store's liveOrigin, a new object), so the new run is told from the old one where both read the same.
 */
export async function newRun<A = undefined>(page: Page, action: () => Promise<unknown>, until?: (s: LabState, arg: A) => boolean, arg?: A, timeout = 60_000): Promise<void> {
  await page.evaluate(() => { const w = window as LabWindow; w.__runBefore = w.__lab!.store.getState().liveOrigin; });
  await action();
  await waitSettled(page, until, arg, timeout, true);
}

/** Polled from here, not by a timer in the page: a page in the background (a second tab) has its timers slowed to one a second. */
async function waitSettled<A>(page: Page, until: ((s: LabState, arg: A) => boolean) | undefined, arg: A | undefined, timeout: number, fresh: boolean): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const r = await page.evaluate(({ src, arg, fresh }) => {
      const w = window as LabWindow, s = w.__lab?.store.getState();
      if (!s) return { done: false, state: 'no lab yet' };
      const state = `${s.status}, ${s.stepsCompleted} steps, lesson ${s.lessonId} variant ${s.lessonVariant}, task ${s.settings?.task}`;
      if (s.status === 'error') return { done: false, error: s.error ?? 'error', state };
      if (fresh && (s.liveOrigin === null || s.liveOrigin === w.__runBefore)) return { done: false, state: `${state}: no new run yet` };
      const idle = (s.status === 'ready' || s.status === 'paused') && s.evals.length > 0 && !s.inStep && !s.pausing && !s.inspector?.busy && !s.coldStart?.running && !s.profiling;
      return { done: idle && (src === null || (0, eval)(`(${src})`)(s, arg) === true), state };
    }, { src: until ? until.toString() : null, arg, fresh });
    if (r.done) return;
    if (r.error) throw new Error(`The lab stopped with an error instead of settling (${r.state}): ${r.error}`);
    if (Date.now() > deadline) throw new Error(`The lab did not settle in ${timeout} ms${until ? ` with ${until.toString()}` : ''}; last seen: ${r.state}`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}
