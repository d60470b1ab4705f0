/**
 * A lesson verdict as the card says it: its claim number with the 90 % interval and the threshold
 * ("held-out pass@1 gain +0.06 (90 % interval +0.01 to +0.11), threshold above 0.03: holds"), and
 * the frozen verdict of the live run when it is this lesson variant's. Pure: the card, the
 * presenter and the share code read it.
 */
import type { ClaimVerdict } from '../rl/claims.ts';
import type { FrozenVerdict, LabState } from './labStore.ts';

/** The claim number a verdict rests on (claims.ts ClaimVerdict.number). TODO(merge): claims.ts exports it. */
export interface VerdictNumber { what: string; value: number; lo: number; hi: number; threshold: number; side: 'above' | 'below'; window: string }
type State = ClaimVerdict['state'] | 'unclear';
/** TODO(merge): v.number, v.settle. */
export const verdictNumber = (v: ClaimVerdict): VerdictNumber | null => (v as { number?: VerdictNumber }).number ?? null;
export const verdictSettle = (v: ClaimVerdict): string | null => (v as { settle?: string }).settle ?? null;
export const verdictState = (v: ClaimVerdict): State => v.state;

/** Two decimals with a sign ("+0.06", "−0.02"); '–' when not measured. */
export const signed2 = (x: number) => (!Number.isFinite(x) ? '–' : `${x > 0 && Number(x.toFixed(2)) !== 0 ? '+' : x < 0 && Number(x.toFixed(2)) !== 0 ? '−' : ''}${Math.abs(x).toFixed(2)}`);
/** A threshold as written: up to 3 decimals, no trailing zeros. */
const plain = (x: number) => String(+x.toFixed(3));

export const VERDICT_WORDS: Record<State, string> = { holds: 'holds', fails: 'fails', unclear: 'unclear', pending: 'pending' };

/** "held-out pass@1 gain +0.06 (90 % interval +0.01 to +0.11), threshold above 0.03: holds". */
export function numberLine(n: VerdictNumber, state: State): string {
  const interval = Number.isFinite(n.lo) && Number.isFinite(n.hi) ? ` (90 % interval ${signed2(n.lo)} to ${signed2(n.hi)})` : ' (no interval: too few measurements)';
  return `${n.what} ${signed2(n.value)}${interval}, threshold ${n.side === 'above' ? 'above' : 'at or below'} ${plain(n.threshold)}: ${VERDICT_WORDS[state]}`;
}

/** The live run's frozen verdict when it is this lesson variant's (null: none yet, or another run's). */
export function frozenFor(s: Pick<LabState, 'verdict' | 'liveOrigin'>, lessonId: string, variant: number): FrozenVerdict | null {
  const v = s.verdict, o = s.liveOrigin;
  return v && o && v.lessonId === lessonId && v.variant === variant && o.lessonId === lessonId && o.variant === variant ? v : null;
}
