/**
 * Each lesson variant's claim as one number against one threshold: the number a class pools
 * (the strip plot draws one point per seed against the threshold's line). It is the claim's own
 * number (rl/claims.ts: the verdict is this number's interval against this threshold), read here
 * for the class view.
 */
import { LESSONS } from '../rl/lessons.ts';
import { thresholdWords, type ClaimNumber } from '../rl/claims.ts';

export type { ClaimNumber };

/** Per lesson id, per variant (the lessons table's order): each variant's own claim number (claims.ts). */
const TABLE: Record<string, ClaimNumber[]> = Object.fromEntries(LESSONS.map((l) => [l.id, l.variants.map((v) => v.claim.number)]));

/** The claim's number for a lesson's variant, or null where the table has none. */
export function claimNumber(lessonId: string, variant: number): ClaimNumber | null {
  return TABLE[lessonId]?.[variant] ?? null;
}

/** Whether a number sits on its claim's side of the threshold. */
export const onClaimSide = (c: ClaimNumber, x: number) => (c.side === 'above' ? x > c.threshold : x <= c.threshold);

/** The lesson ids the table covers. */
export const CLAIM_NUMBER_LESSONS = Object.keys(TABLE);

/** The threshold in words: "above 0.03", "at or below 0". */
export const thresholdText = thresholdWords;

/** For a lesson in the table, its variants' count. */
export const tableVariants = (lessonId: string) => TABLE[lessonId]?.length ?? 0;
