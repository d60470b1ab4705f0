/**
 * The line at the top of a first open (no lesson chosen): what the page opened on — the store's
 * own task and difficulty, the ones the settings panel shows — and where to start, lesson 1,
 * with what lesson 1 loads instead (its base, from the lesson table). Dismissed once, it stays away.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { LESSONS } from '../rl/lessons.ts';
import { TASKS, customTasks } from '../tasks/registry.ts';
import { useLab } from '../store/labStore.ts';
import { useSession } from './session.tsx';

const START_KEY = 'rlvr-lab:start-here-dismissed';
function readFlag(key: string): boolean {
  try { return localStorage.getItem(key) === '1'; } catch { return false; }
}
function writeFlag(key: string) {
  try { localStorage.setItem(key, '1'); } catch { /* storage refused: dismissed for this visit only */ }
}

/** “Reverse a word” (reverse, difficulty 2): a task as the settings panel names it. */
export function runName(task: string, difficulty: number): string {
  const t = [...TASKS, ...customTasks()].find((x) => x.id === task);
  return `${t ? `“${t.title}” (${task}` : `(${task}`}, difficulty ${difficulty})`;
}

export function StartHere({ tour }: { tour?: ReactNode }) {
  const lab = useSession();
  const lessonId = useLab((s) => s.lessonId);
  const task = useLab((s) => s.settings.task);
  const difficulty = useLab((s) => s.settings.difficulty);
  const [dismissed, setDismissed] = useState(() => readFlag(START_KEY));
  if (lessonId || dismissed) return null;
  const first = LESSONS[0];
  const lesson1 = runName(first.base.task, first.base.difficulty);
  return (
    <p className="notice start-here" data-testid="start-here">
      <strong>New here?</strong> The page opened on <span data-testid="start-here-run">{runName(task, difficulty)}</span>, no lesson.{' '}
      Start with lesson 1, “{first.title.replace(/^\d+\.\s*/, '')}”{' '}
      <button className="small" onClick={() => void lab.applyLesson(first.id)}>Open lesson 1</button>: it switches to {lesson1} with its trained model and says what to watch; then press ▶ Play.
      {tour && <> Or {tour}.</>}
      <button className="small dismiss" aria-label="Dismiss where to start" title="Dismiss" onClick={() => { writeFlag(START_KEY); setDismissed(true); }}>✕</button>
    </p>
  );
}
