/**
 * This browser's answers to each lesson's questions (issue 49), kept like its predictions
 * (src/class/local.ts): in localStorage, one entry per lesson (concepts.ts StudentAnswers: the
 * reason chosen for the "Why?", the choice picked in the concept question before and after the
 * runs, or 'skipped'). Nothing leaves the browser except inside a share code the student makes
 * (runCode.ts). "New student" forgets them (the session's newStudent). Storage refused (private
 * mode, quota): the answers live for this visit only, never an error. Engine-free.
 *
 *   answerStore                 every lesson's answers, as the card and the share code read them
 *   readAnswers()               what localStorage keeps (a damaged entry reads as none)
 *   chooseAnswer(id, part, x)   keep one answer (an answer already given is kept: one click each)
 *   forgetAnswers()             a new student: every answer forgotten, every reader told
 */
import { createStore } from 'zustand/vanilla';
import type { StudentAnswers } from './concepts.ts';

const ANSWERS = 'rlvr-lab:answers';
/** The parts of a lesson's answers: the "Why?" reason, the concept question before and after. */
export type AnswerPart = keyof StudentAnswers;
const PARTS: readonly AnswerPart[] = ['explain', 'pre', 'post'];
/** No question has more choices than this (a damaged entry's index above it reads as none). */
const MAX_INDEX = 16;

function read(): string | null {
  try { return localStorage.getItem(ANSWERS); } catch { return null; }
}

const validIndex = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < MAX_INDEX;

/** One lesson's answers from what was stored: only the known parts with valid values (the explain cannot be skipped). */
function clean(v: unknown): StudentAnswers | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const out: StudentAnswers = {};
  for (const part of PARTS) {
    const x: unknown = (v as Record<string, unknown>)[part];
    if (validIndex(x) || (part !== 'explain' && x === 'skipped')) Object.defineProperty(out, part, { value: x, enumerable: true, writable: true });
  }
  return Object.keys(out).length ? out : null;
}

/** Every lesson's answers (a damaged entry, or a damaged part of one, reads as none). */
export function readAnswers(): Record<string, StudentAnswers> {
  const out: Record<string, StudentAnswers> = {};
  try {
    const v: unknown = JSON.parse(read() ?? '{}');
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
    for (const [k, a] of Object.entries(v)) {
      const c = k.length <= 40 ? clean(a) : null;
      if (c) Object.defineProperty(out, k, { value: c, enumerable: true, writable: true });
    }
  } catch { /* unreadable: none */ }
  return out;
}

/** This browser's answers as a store (the lesson card and the share codes read it). */
export const answerStore = createStore<{ all: Record<string, StudentAnswers> }>()(() => ({ all: readAnswers() }));

/** A lesson's answers in a record (undefined: none). */
export const answersFor = (all: Record<string, StudentAnswers>, lessonId: string): StudentAnswers | undefined =>
  (Object.prototype.hasOwnProperty.call(all, lessonId) ? all[lessonId] : undefined);

/** Keep one answer (localStorage) and tell every reader. An answer already given stays: each question is answered once. */
export function chooseAnswer(lessonId: string, part: AnswerPart, value: number | 'skipped'): void {
  if (lessonId.length > 40 || !(validIndex(value) || (part !== 'explain' && value === 'skipped'))) return;
  // this visit's answers over the stored ones (storage refused: this visit's alone)
  const all = { ...readAnswers(), ...answerStore.getState().all };
  const had = answersFor(all, lessonId) ?? {};
  if (had[part] !== undefined && had[part] !== null) return;
  Object.defineProperty(all, lessonId, { value: { ...had, [part]: value }, enumerable: true, writable: true });
  try { localStorage.setItem(ANSWERS, JSON.stringify(all)); } catch { /* storage refused: this visit only */ }
  answerStore.setState({ all });
}

/** A new student on this browser: every answer is forgotten (every reader is told). */
export function forgetAnswers(): void {
  try { localStorage.removeItem(ANSWERS); } catch { /* storage refused: nothing kept */ }
  answerStore.setState({ all: {} });
}
