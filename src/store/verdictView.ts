/**
 * The frozen verdict of the live run when it is this lesson variant's, and a verdict's state in
 * words. Pure: the card, the presenter and the share code read it.
 */
import type { ClaimVerdict } from '../rl/claims.ts';
import type { FrozenVerdict, LabState } from './labStore.ts';

export const VERDICT_WORDS: Record<ClaimVerdict['state'], string> = { holds: 'holds', fails: 'fails', unclear: 'unclear', pending: 'pending' };

/** The live run's frozen verdict when it is this lesson variant's (null: none yet, or another run's). */
export function frozenFor(s: Pick<LabState, 'verdict' | 'liveOrigin'>, lessonId: string, variant: number): FrozenVerdict | null {
  const v = s.verdict, o = s.liveOrigin;
  return v && o && v.lessonId === lessonId && v.variant === variant && o.lessonId === lessonId && o.variant === variant ? v : null;
}
