/**
 * For tests that look inside one step: run the trainer's own step up to a phase and stop
 * there (the rest of the step — the update — never runs).
 */
import type { TokenBatch } from '../../model/backend.ts';
import type { Settings } from '../settings.ts';
import type { GrpoTrainer, Rollout } from '../trainer.ts';

/** The step's rollout, verdicts and advantages (and its batch), without the update. */
export async function rolloutWithAdvantages(t: GrpoTrainer, settings?: Settings): Promise<{ rollout: Rollout; batch: TokenBatch }> {
  const gen = t.runStep(settings);
  for await (const ph of gen) {
    if (ph.kind === 'advantages') {
      await gen.return(undefined);
      return { rollout: ph.rollout, batch: ph.batch };
    }
  }
  throw new Error('the step ended before its advantages phase');
}
