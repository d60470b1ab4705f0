/**
 * What the class understood, per lesson (issue 49): from the codes' explain choices and concept
 * answers (code.ts `explain`, `concept`), pooled by student. Engine-free and pure: pool.ts puts it
 * on each LessonPool (`understanding`), csv.ts writes it, the class view renders its lines.
 *
 * A student is a seed (as the pool counts predictions): a student who shared several codes of a
 * lesson counts once — for the explain, the first code of the seed that carries a choice; for the
 * concept question, per phase the first code of the seed that carries an answer (a code shared
 * before the post question and one after it give one student with both).
 *
 *   explained right   of the students who chose a reason, how many chose the right one
 *   most chosen wrong the wrong reason(s) chosen by the most students (ties all named): what to
 *                     discuss next
 *   before / after    the share right of the students who answered each (each its own count)
 *   ⟨g⟩               the class's normalized gain (Hake, Am. J. Phys. 66, 64, 1998) over the students
 *                     who answered both: (post − pre) / (1 − pre) with pre and post the class's
 *                     shares right; not defined where every one of them was right before
 *
 * ⟨g⟩'s 90 % interval (normalizedGain): a ratio of two means, d̄ / ū with per student d = post −
 * pre and u = 1 − pre (each 0/1), by the delta method: the Student-t interval (rl/interval.ts
 * tQuantile, df = n − 1) of the mean of z = d − g·u, divided by ū. A class is small and its answers
 * are 0 or 1, so a class where every student who was wrong before is right after (often, at n = 10)
 * gives z all 0 and an interval of zero width. Agresti & Min's fix for paired proportions (Stat.
 * Med. 24, 729, 2005) adds half a student to each of the four before/after cells for the interval
 * (not for ⟨g⟩ itself). Covered, 2000 simulated classes a cell (gainCoverage.test.ts): plain delta
 * 68–90 % at n = 10 and 86–91 % at n = 25; with the half-students 94–99 % at n = 10 and 92–95 % at
 * n = 25 (conservative where it errs); the percentile bootstrap over students 60–88 % at n = 10.
 * The upper end is cut at 1 (no gain exceeds it), and the interval always holds ⟨g⟩. Below
 * MIN_CLASS_RUNS students with both answers: ⟨g⟩ alone, no interval ("too few to judge").
 */
import { LEVEL, MIN_CLASS_RUNS, tQuantile, type Estimate } from '../rl/interval.ts';
import { fmt2 } from '../rl/format.ts';
import type { ResultCode } from './code.ts';
import { lessonConcepts, type LessonConcepts } from './concepts.ts';

/** Half a student added to each before/after cell for the interval (Agresti & Min 2005). */
export const GAIN_CELL_ADD = 0.5;

export interface Share {
  answered: number;
  right: number;
  /** right / answered (NaN: no one answered). */
  share: number;
}

export interface Gain extends Estimate {
  /** Students with both answers. */
  n: number;
  /** Below MIN_CLASS_RUNS of them: no interval. */
  tooFew: boolean;
  /** Their shares right before and after. */
  pre: number;
  post: number;
}

export interface Understanding {
  concepts: LessonConcepts;
  explain: {
    answered: number;
    right: number;
    /** Students per reason (indices of the data's `reasons`). */
    chosen: number[];
    /** The wrong reasons chosen most, ties all (empty: no one chose a wrong one). */
    mostWrong: number[];
  };
  concept: { pre: Share; post: Share; gain: Gain };
}

/**
 * The class's normalized gain over students with both answers, with its 90 % interval (delta
 * method, half a student added to each cell; see the file comment). `add` 0 gives the plain delta
 * interval (what the coverage test compares it with).
 */
export function normalizedGain(students: readonly { pre: boolean; post: boolean }[], o: { level?: number; add?: number } = {}): Gain {
  const n = students.length;
  // cells: [before wrong, after wrong], [wrong, right], [right, wrong], [right, right]
  const c = [0, 0, 0, 0];
  for (const s of students) c[(s.pre ? 2 : 0) + (s.post ? 1 : 0)]++;
  const pre = n ? (c[2] + c[3]) / n : NaN, post = n ? (c[1] + c[3]) / n : NaN;
  const value = c[0] + c[1] > 0 ? (c[1] - c[2]) / (c[0] + c[1]) : NaN; // (post − pre) / (1 − pre), the n cancels
  const tooFew = n < MIN_CLASS_RUNS;
  if (tooFew || !Number.isFinite(value)) return { value, lo: NaN, hi: NaN, n, tooFew, pre, post };
  const add = o.add ?? GAIN_CELL_ADD;
  const w = c.map((x) => x + add), N = w[0] + w[1] + w[2] + w[3];
  const u = (w[0] + w[1]) / N, g = (w[1] - w[2]) / (w[0] + w[1]);
  // z = d − g·u per cell (d, u): (0, 1), (1, 1), (−1, 0), (0, 0); its mean is 0 at g
  const z = [-g, 1 - g, -1, 0];
  let ss = 0;
  for (let i = 0; i < 4; i++) ss += w[i] * z[i] * z[i];
  const half = (tQuantile(1 - (1 - (o.level ?? LEVEL)) / 2, n - 1) * Math.sqrt(ss / (N - 1) / N)) / u;
  return { value, lo: Math.min(g - half, value), hi: Math.max(Math.min(g + half, 1), value), n, tooFew, pre, post };
}

const share = (xs: readonly boolean[]): Share => ({ answered: xs.length, right: xs.filter(Boolean).length, share: xs.length ? xs.filter(Boolean).length / xs.length : NaN });

/** A lesson's understanding from its codes (null: the lesson has no explain or concept questions). */
export function lessonUnderstanding(lessonId: string, runs: readonly ResultCode[]): Understanding | null {
  const concepts = lessonConcepts(lessonId);
  if (!concepts) return null;
  const reasons = concepts.explain.reasons.length;
  const explainBySeed = new Map<number, number>(), preBySeed = new Map<number, boolean>(), postBySeed = new Map<number, boolean>();
  for (const r of runs) {
    if (typeof r.explain === 'number' && r.explain >= 0 && r.explain < reasons && !explainBySeed.has(r.seed)) explainBySeed.set(r.seed, r.explain);
    if (r.concept && r.concept.pre !== null && !preBySeed.has(r.seed)) preBySeed.set(r.seed, r.concept.pre);
    if (r.concept && r.concept.post !== null && !postBySeed.has(r.seed)) postBySeed.set(r.seed, r.concept.post);
  }
  const chosen = Array.from({ length: reasons }, () => 0);
  for (const e of explainBySeed.values()) chosen[e]++;
  const wrong = chosen.map((k, i) => (i === concepts.explain.right ? 0 : k));
  const top = Math.max(0, ...wrong);
  const both = [...preBySeed].filter(([seed]) => postBySeed.has(seed)).map(([seed, pre]) => ({ pre, post: postBySeed.get(seed)! }));
  return {
    concepts,
    explain: { answered: explainBySeed.size, right: chosen[concepts.explain.right] ?? 0, chosen, mostWrong: top > 0 ? wrong.flatMap((k, i) => (k === top ? [i] : [])) : [] },
    concept: { pre: share([...preBySeed.values()]), post: share([...postBySeed.values()]), gain: normalizedGain(both) },
  };
}

const students = (n: number) => `${n} student${n === 1 ? '' : 's'}`;
const percent = (x: number) => `${Math.round(x * 100)} %`;

/**
 * "14 of 22 explained right (“With two answers, most groups …”). The wrong reason chosen most: “A
 * bigger group is a bigger batch …” (5 students): discuss it next." (null: no one answered).
 */
export function explainLine(u: Understanding): string | null {
  const e = u.explain;
  if (!e.answered) return null;
  const reasons = u.concepts.explain.reasons;
  const head = `${e.right} of ${e.answered} explained right (“${reasons[u.concepts.explain.right].text}”).`;
  if (!e.mostWrong.length) return `${head} No one chose a wrong reason.`;
  const quoted = e.mostWrong.map((i) => `“${reasons[i].text}”`);
  const k = e.chosen[e.mostWrong[0]];
  return e.mostWrong.length === 1
    ? `${head} The wrong reason chosen most: ${quoted[0]} (${students(k)}): discuss it next.`
    : `${head} The wrong reasons chosen most, ${students(k)} each: ${quoted.join(' and ')}: discuss them next.`;
}

/**
 * "Concept question (how often a group teaches): 6 of 24 right before (25 %), 19 of 25 right after
 * (76 %); normalized gain ⟨g⟩ 0.67 (90 % interval 0.50 to 0.84) over the 23 students who answered
 * both." (null: no one answered either.)
 */
export function conceptLine(u: Understanding): string | null {
  const { pre, post, gain } = u.concept;
  if (!pre.answered && !post.answered) return null;
  const phase = (s: Share, when: string) => (s.answered ? `${s.right} of ${s.answered} right ${when} (${percent(s.share)})` : `no answers ${when}`);
  const head = `Concept question (${u.concepts.concept.idea}): ${phase(pre, 'before')}, ${phase(post, 'after')}`;
  if (!gain.n) return `${head}; no student answered both, so there is no gain to measure.`;
  const over = `over the ${students(gain.n)} who answered both`;
  if (!Number.isFinite(gain.value)) return `${head}; every one of the ${students(gain.n)} who answered both was right before: there is no gain to measure.`;
  const g = `normalized gain ⟨g⟩ ${fmt2(gain.value)}`;
  if (gain.tooFew) return `${head}; ${g} ${over} (no interval: too few students to judge, it takes ${MIN_CLASS_RUNS}).`;
  return `${head}; ${g} (90 % interval ${fmt2(gain.lo)} to ${fmt2(gain.hi)}) ${over}.`;
}
