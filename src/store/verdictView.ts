/**
 * The frozen verdict of the live run when it is this lesson variant's, and a verdict's state in
 * words. Pure: the card, the presenter and the share code read it.
 */
import type { Claim, ClaimVerdict, RunRecord } from '../rl/claims.ts';
import type { FrozenVerdict, LabState } from './labStore.ts';

export const VERDICT_WORDS: Record<ClaimVerdict['state'], string> = { holds: 'holds', fails: 'fails', unclear: 'unclear', pending: 'pending' };

/** The live run's frozen verdict when it is this lesson variant's (null: none yet, or another run's). */
export function frozenFor(s: Pick<LabState, 'verdict' | 'liveOrigin'>, lessonId: string, variant: number): FrozenVerdict | null {
  const v = s.verdict, o = s.liveOrigin;
  return v && o && v.lessonId === lessonId && v.variant === variant && o.lessonId === lessonId && o.variant === variant ? v : null;
}

/**
 * The live run's verdict as every view reads it: once judged, the frozen one (never a re-judged
 * longer run: a run continued past its verdict keeps it); before its step, the claim on the run so
 * far (pending). Null where the frozen verdict was not judged (the run's settings differ from the variant's).
 */
export function liveVerdict(s: Partial<Pick<LabState, 'verdict' | 'liveOrigin'>> & RunRecord, lessonId: string, variant: number, claim: Claim): ClaimVerdict | null {
  const frozen = frozenFor({ verdict: s.verdict ?? null, liveOrigin: s.liveOrigin ?? null }, lessonId, variant);
  return frozen ? frozen.judged : claim.judge({ steps: s.steps, evals: s.evals });
}
