/**
 * The verdict step marked on every chart drawn against the step: a vertical line labelled
 * "verdict" once the live lesson run was judged (its FrozenVerdict), so that after "Continue past
 * the verdict" the steps after it read as after it, and the numbers the card quotes sit at the line.
 * One element for every chart (memoised on the step): recharts recomputes a chart whose children change.
 */
import { useMemo } from 'react';
import { ReferenceLine } from 'recharts';
import { useLab } from '../store/labStore.ts';
import { useXMode } from './importedLines.tsx';

export function useVerdictMark() {
  const step = useLab((s) => (s.verdict && s.verdict.lessonId === s.lessonId ? s.verdict.step : null));
  const xMode = useXMode();
  return useMemo(() => (step === null || xMode !== 'step' ? null
    : <ReferenceLine x={step} stroke="#000" strokeDasharray="3 3" strokeWidth={1.5} ifOverflow="extendDomain" className="verdict-step-mark" label={{ value: `verdict, step ${step}`, position: 'insideTopRight', fontSize: 11, fill: '#000' }} />), [step, xMode]);
}
