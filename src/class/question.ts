/**
 * Predict, then run: each lesson with a contrast (src/rl/contrast.ts) asks one question before
 * its first Play — how its second variant's number compares with its first's on the same seed
 * (lesson 1: "Compared with the run “G = 2”, in the run “G = 8”, the mixed share of the groups
 * will be: higher · about the same · lower"). The outcome is read on two runs of one seed, from
 * each run's own contrast number; "about the same" is within a tenth of the larger of the two.
 * Engine-free.
 */
import type { Lesson } from '../rl/lessons.ts';

export const CHOICES = ['higher', 'about the same', 'lower'] as const;
export type Choice = 0 | 1 | 2;
/** "About the same": the two numbers differ by at most this share of the larger magnitude. */
export const SAME_WITHIN = 0.1;

export interface Question {
  /** The variant asked about, and the one it is compared with (the lesson's first). */
  asked: number;
  against: number;
  text: string;
  /** What the lesson's contrast expects (null: the lesson expects no order). */
  expected: Choice | null;
}

const shortName = (l: Lesson, v: number) => l.variants[v].short ?? l.variants[v].label;

/** The lesson's question, or null for a lesson with no contrast or a single variant. */
export function lessonQuestion(lesson: Lesson): Question | null {
  const c = lesson.contrast;
  if (!c || lesson.variants.length < 2) return null;
  const asked = 1, against = 0;
  const ra = c.rank[asked], rb = c.rank[against];
  const expected: Choice | null = ra === undefined || rb === undefined || ra === rb ? null : ra > rb ? 0 : 2;
  // each variant as the name of its run, in quotes: a variant's short name may be a setting ("G = 8"), a noun ("weak verifier") or a clause ("thinking pays")
  return { asked, against, text: `Compared with the run “${shortName(lesson, against)}”, in the run “${shortName(lesson, asked)}”, the ${c.what} will be:`, expected };
}

/** How `asked` compares with `against` (null where either is not a finite number). */
export function outcomeOf(asked: number, against: number): Choice | null {
  if (!Number.isFinite(asked) || !Number.isFinite(against)) return null;
  if (Math.abs(asked - against) <= SAME_WITHIN * Math.max(Math.abs(asked), Math.abs(against))) return 1;
  return asked > against ? 0 : 2;
}

/** "you predicted lower; on this seed: higher (0.82 in “G = 8”, 0.41 in “G = 2”) ✓ the lesson's claim" */
export function outcomeSentence(lesson: Lesson, q: Question, predicted: Choice | null, asked: number, against: number): string {
  const o = outcomeOf(asked, against);
  const said = predicted === null ? 'no prediction' : `you predicted ${CHOICES[predicted]}`;
  if (o === null) return `${said}; on this seed: not measured (a number is missing).`;
  const numbers = `${fmt(asked)} in “${shortName(lesson, q.asked)}”, ${fmt(against)} in “${shortName(lesson, q.against)}”`;
  const claim = q.expected === null ? ' (the lesson expects no order)' : o === q.expected ? ' ✓ the lesson\'s claim' : ' ✗ not the lesson\'s claim on this seed';
  return `${said}; on this seed: ${CHOICES[o]} (${numbers})${claim}.`;
}

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(2));
