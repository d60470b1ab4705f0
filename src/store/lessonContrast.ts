/**
 * The lesson card's contrast line: the live run beside a finished sibling run of the page (the one
 * overlaid on the charts, else the newest) — the same lesson, another variant, comparable (same seed, the same starting weights by their hash, task as its variant sets:
 * overlays.ts) — read by the lesson's contrast (src/rl/contrast.ts) on each run's own claim
 * evidence. The sibling is judged by its own variant's claim, on its recorded steps and
 * evaluations, exactly as its card judged it. Pure: the card calls it.
 */
import { contrastSentence, readContrast } from '../rl/contrast.ts';
import type { Lesson } from '../rl/lessons.ts';
import type { LabState } from './labStore.ts';
import { comparable } from './overlays.ts';

export interface ContrastLine {
  sentence: string;
  /** As the lesson expects (✓), not (✗), or no expectation / a number missing (null). */
  asExpected: boolean | null;
  runId: number;
}

export function lessonContrast(s: Pick<LabState, 'runs' | 'liveOrigin' | 'stepsCompleted' | 'overlayRunId'>, lesson: Lesson, variant: number, liveEvidence: Record<string, number>): ContrastLine | null {
  const c = lesson.contrast;
  const live = s.liveOrigin;
  if (!c || !live || live.lessonId !== lesson.id || live.variant !== variant) return null;
  const siblings = s.runs.filter((r) => r.origin.lessonId === lesson.id && r.origin.variant !== variant && r.steps.length > 0 && lesson.variants[r.origin.variant] && comparable(r.origin, live));
  const sib = siblings.find((r) => r.id === s.overlayRunId) ?? siblings[0]; // the one overlaid on the charts, else the newest
  if (!sib) return null;
  const evidence = (sib.verdict ?? lesson.variants[sib.origin.variant].claim.judge({ steps: sib.steps, evals: sib.evals })).measured; // its frozen verdict's numbers, unrounded
  const reading = readContrast(c, { variant, evidence: liveEvidence }, { variant: sib.origin.variant, evidence });
  const names = lesson.variants.map((v) => v.short ?? v.label);
  const steps = sib.steps.at(-1)!.step + 1;
  // judged, like a verdict, only once both runs have their verdict's steps (before: the numbers so far)
  const until = Math.max(lesson.variants[variant].claim.steps, lesson.variants[sib.origin.variant].claim.steps);
  const pending = s.stepsCompleted < lesson.variants[variant].claim.steps || steps < lesson.variants[sib.origin.variant].claim.steps;
  return { sentence: contrastSentence(c, reading, { name: sib.name, runId: sib.id, steps }, names, pending ? until : null), asExpected: pending ? null : reading.asExpected, runId: sib.id };
}
