/**
 * Each lesson's pre-registered record: its claims and verdict steps were fixed on seeds 1–6, then
 * `npm run lessons -- --seeds 1001,…,1010 --record` ran every variant once on ten fresh seeds and
 * wrote the table into records/<lesson>.json, one file per lesson (never edited by hand). Each record names the contract it judged (contract.ts: a hash of the lesson's settings,
 * claims and contract) and the engine's real name; a lesson whose contract changed has no record
 * until it is recorded again (lessonRecords.test.ts fails until then), and a record that disagrees
 * with its claim says so. Engine layer: data only.
 */
import mixedGroups from './records/mixed-groups.json';
import lengthBias from './records/length-bias.json';
import entropyCollapse from './records/entropy-collapse.json';
import rewardHacking from './records/reward-hacking.json';
import grpoVsBestOfN from './records/grpo-vs-best-of-n.json';
import scratchpad from './records/scratchpad.json';
import klEstimators from './records/kl-estimators.json';
import processReward from './records/process-reward.json';
import dynamicSampling from './records/dynamic-sampling.json';
import smallPool from './records/small-pool.json';
import forgetting from './records/forgetting.json';
import { type Lesson } from './lessons.ts';
import { contractHash } from './lessonContract.ts';
import { seedSpread } from './seedSpread.ts';

export interface LessonRecord {
  lesson: string;
  /** The day the fresh seeds were judged. */
  recorded?: string;
  /** contractHash(lesson) when it was recorded. */
  hash: string;
  /** The engine the runs were made on, by its real name. */
  engine: string;
  seeds: number[];
  variants: {
    label: string;
    steps: number;
    holds: number;
    fails: number;
    unclear: number;
    /** The median width of the runs' 90 % intervals. */
    median_width: number;
    runs: { seed: number; verdict: string; value: number; lo: number; hi: number }[];
  }[];
}

export interface LessonRecords {
  lessons: LessonRecord[];
}

export const LESSON_RECORDS: LessonRecords = { lessons: [mixedGroups, lengthBias, entropyCollapse, rewardHacking, grpoVsBestOfN, scratchpad, klEstimators, processReward, dynamicSampling, smallPool, forgetting] as LessonRecord[] };

/** The lesson's record, when it records the lesson's contract as it is now (else null: not recorded since it changed). */
export function lessonRecord(lesson: Lesson): LessonRecord | null {
  const r = LESSON_RECORDS.lessons.find((x) => x.lesson === lesson.id);
  return r && r.hash === contractHash(lesson) ? r : null;
}

/** The record's engine as the card names it: the engine line's own words ("CPU reference"), where it ran in plain words, not the script's runtime. */
const engineWords = (engine: string) => engine.replace(/ \(Node\)$/, ', run outside the browser');

const seedList = (s: readonly number[]) => (s.length > 2 && s.every((x, i) => i === 0 || x === s[i - 1] + 1) ? `${s[0]}–${s.at(-1)}` : s.join(', '));

/**
 * The card's sentence on the record (shown once the student has predicted): "Recorded once on 10
 * fresh seeds (1001–1010; engine): G = 2 holds on 8, fails on 0, unclear on 2; …". Where the fresh
 * seeds disagree with a claim (it fails on more seeds than it holds), it says so.
 */
export function recordSentence(lesson: Lesson, r: LessonRecord | null = lessonRecord(lesson)): string | null {
  if (!r) return null;
  const parts = r.variants.map((v) => `${v.label}: holds on ${v.holds}, fails on ${v.fails}, unclear on ${v.unclear}`);
  const against = r.variants.filter((v) => v.fails > v.holds).map((v) => v.label);
  return `Recorded once on ${r.seeds.length} fresh seeds (${seedList(r.seeds)}; ${engineWords(r.engine)}), at step ${r.variants[0].steps}: ${parts.join('; ')}.` +
    (against.length ? ` On these seeds the claim of ${against.join(' and ')} failed more often than it held: the record disagrees with the claim, and the claim was not re-tuned to it.` : '');
}

/**
 * After one run's verdict: how far its interval speaks for the claim. "One run's interval speaks of
 * its own prompts and steps: across the 10 fresh seeds of the record, this variant's number spread
 * 1.7 times as far as one run's interval implies — the class pool is the test." (null: no record).
 */
export function spreadSentence(lesson: Lesson, variant: number, r: LessonRecord | null = lessonRecord(lesson)): string | null {
  const v = r?.variants[variant];
  const f = v ? seedSpread(v) : null;
  if (!r || f === null) return null;
  const how = f < 1.15 ? 'about as far as' : `${f.toFixed(1)} times as far as`;
  return `One run's interval speaks of its own prompts and steps, not of every seed: across the ${r.seeds.length} fresh seeds of the record, this variant's number spread ${how} one run's interval implies. The class pool, across seeds, is the test.`;
}
