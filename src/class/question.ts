/**
 * Predict, then run: each lesson with a contrast (src/rl/contrast.ts) asks one question before
 * its first Play — how its second variant's number compares with its first's on the same seed
 * (lesson 1: "Compared with the run “G = 2”, in the run “G = 8”, the mixed share of the groups
 * will be: higher · about the same · lower"). What the class predicts is what gets judged: the
 * answer is the contrast's own verdict — the paired difference with its 90 % interval against the
 * lesson's margin (rl/contrast.ts outcomeFrom), on one seed on the card and across students in the
 * class pool. Engine-free.
 */
import { expectedOutcome, OUTCOMES, type ContrastVerdict, type Outcome } from '../rl/contrast.ts';
import { lessonQuestionVariants, type Lesson } from '../rl/lessons.ts';

export const CHOICES = OUTCOMES;
export type Choice = Outcome;

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
  const qv = lessonQuestionVariants(lesson);
  if (!qv || !lesson.contrast) return null;
  const { asked, against } = qv;
  // each variant as the name of its run, in quotes: a variant's short name may be a setting ("G = 8"), a noun ("weak verifier") or a clause
  return { asked, against, text: `Compared with the run “${shortName(lesson, against)}”, in the run “${shortName(lesson, asked)}”, the ${lesson.contrast.what} will be:`, expected: expectedOutcome(lesson.contrast, asked, against) };
}

/**
 * The prediction beside what the runs showed, and, on a line of its own, the lesson's claim
 * beside the same outcome: whether the student was right is one thing, whether the lesson's claim
 * held another (a student who predicted against the claim is right where the claim fails).
 *
 *   You predicted higher. On this seed the runs showed lower: your prediction was not borne out.
 *   The lesson's claim (lower) held on this seed.
 *
 * An unclear contrast settles neither; a lesson that claims no order has no claim line (null).
 */
export function outcomeSentence(predicted: Choice | null, v: Pick<ContrastVerdict, 'outcome' | 'expected'>): { prediction: string; claim: string | null } {
  const said = predicted === null ? 'You made no prediction.' : `You predicted ${CHOICES[predicted]}.`;
  const shown = v.outcome === null
    ? 'On this seed the runs cannot tell (the interval reaches across the margin): the class pool, with many seeds, can.'
    : `On this seed the runs showed ${CHOICES[v.outcome]}${predicted === null ? '.' : predicted === v.outcome ? ': your prediction was borne out.' : ': your prediction was not borne out.'}`;
  const claim = v.expected === null
    ? null
    : v.outcome === null
      ? `The lesson's claim (${CHOICES[v.expected]}): this seed cannot tell.`
      : v.outcome === v.expected
        ? `The lesson's claim (${CHOICES[v.expected]}) held on this seed.`
        : `The lesson's claim (${CHOICES[v.expected]}) did not hold on this seed.`;
  return { prediction: `${said} ${shown}`, claim };
}
