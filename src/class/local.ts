/**
 * What class mode keeps in this browser (localStorage): the prediction made for each lesson, and
 * this browser's own seed. Nothing leaves the browser except inside a code the student chooses to
 * share. Storage refused (private mode, quota): the value lives for this visit only, never an error.
 */
import { createStore } from 'zustand/vanilla';
import type { Choice } from './question.ts';

const PREDICTIONS = 'rlvr-lab:predictions';
const CLASS_SEED = 'rlvr-lab:class-seed';

/** A prediction, or 'skipped' (the student chose not to predict). */
export type Prediction = Choice | 'skipped';

function read(key: string): string | null {
  try { return localStorage.getItem(key); } catch { return null; }
}
function write(key: string, value: string): void {
  try { localStorage.setItem(key, value); } catch { /* storage refused: this visit only */ }
}
function remove(key: string): void {
  try { localStorage.removeItem(key); } catch { /* storage refused: nothing kept */ }
}

/** Every lesson's prediction (a damaged entry reads as none). */
export function readPredictions(): Record<string, Prediction> {
  const out: Record<string, Prediction> = {};
  try {
    const v: unknown = JSON.parse(read(PREDICTIONS) ?? '{}');
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
    for (const [k, p] of Object.entries(v)) if (k.length <= 40 && (p === 0 || p === 1 || p === 2 || p === 'skipped')) Object.defineProperty(out, k, { value: p, enumerable: true, writable: true });
  } catch { /* unreadable: none */ }
  return out;
}

export function writePrediction(lessonId: string, p: Prediction): Record<string, Prediction> {
  const all = { ...readPredictions() };
  Object.defineProperty(all, lessonId, { value: p, enumerable: true, writable: true });
  write(PREDICTIONS, JSON.stringify(all));
  return all;
}

/** A seed for a student: 2 to 99,999 (the teacher's page keeps seed 1), drawn once from the browser's random source. */
export function drawClassSeed(random: () => number = Math.random): number {
  return 2 + Math.floor(random() * 99_998);
}

/** This browser's class seed: the stored one, else a new one, stored. */
export function classSeed(): number {
  const v = Number(read(CLASS_SEED));
  if (Number.isInteger(v) && v >= 2 && v <= 99_999) return v;
  const s = drawClassSeed();
  write(CLASS_SEED, String(s));
  return s;
}

/**
 * The page's address as the session reads it at start: in class mode (`class=1`, any true value)
 * the seed is this browser's class seed, whatever seed the address carried (a link copied from a
 * classmate's page names theirs). Any other address is returned as it is: the teacher's page keeps
 * its seed (1 unless the address says otherwise).
 */
export function withClassSeed(search: string, seed: () => number = classSeed): string {
  let p: URLSearchParams;
  try { p = new URLSearchParams(search); } catch { return search; }
  if (!/^(1|true|yes|on)$/i.test(p.get('class') ?? '')) return search;
  p.set('seed', String(seed()));
  return `?${p.toString()}`;
}

/** This browser's predictions as a store the lesson card and the class tour's card both read (one answer per lesson). */
export const predictionStore = createStore<{ all: Record<string, Prediction> }>()(() => ({ all: readPredictions() }));

/** Keep a prediction (localStorage) and tell every reader. */
export function choosePrediction(lessonId: string, p: Prediction): void {
  predictionStore.setState({ all: writePrediction(lessonId, p) });
}

/** A new student on this browser: the class seed is forgotten and a new one drawn and kept (returned). */
export function newClassSeed(random?: () => number): number {
  const s = drawClassSeed(random);
  write(CLASS_SEED, String(s));
  return s;
}

/** A new student on this browser: every prediction is forgotten (every reader is told). */
export function forgetPredictions(): void {
  remove(PREDICTIONS);
  predictionStore.setState({ all: {} });
}
