/** Play/pause, step (one update, or one phase in step-through mode), reset, speed; keyboard: space, →, ←. */
import { useEffect } from 'react';
import { useLab } from '../store/labStore.ts';
import { useSession } from './session.tsx';

const SPEEDS = [
  { label: 'Full speed', ms: 0 },
  { label: 'Normal', ms: 250 },
  { label: 'Slow', ms: 1000 },
];

/**
 * Space plays/pauses, → steps, ← goes back a phase — unless a form control or a chart has the
 * keyboard (a focused chart, role "application", moves its tooltip from step to step with ← →).
 */
export function useTransportKeys() {
  const lab = useSession();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.closest('input, select, textarea, button, [contenteditable="true"], [role="application"]'))) return;
      if (e.key === ' ') { e.preventDefault(); lab.togglePlay(); }
      else if (e.key === 'ArrowRight') { e.preventDefault(); void lab.stepOnce(); }
      else if (e.key === 'ArrowLeft' && useLab.getState().stepMode) { e.preventDefault(); lab.stepBack(); }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [lab]);
}

export function Transport() {
  const status = useLab((s) => s.status);
  const progress = useLab((s) => s.progress);
  const steps = useLab((s) => s.stepsCompleted);
  const delay = useLab((s) => s.delayMs);
  const stepMode = useLab((s) => s.stepMode);
  const last = useLab((s) => s.steps.at(-1));
  const lastEval = useLab((s) => s.evals.at(-1));
  const running = status === 'running';
  const pausing = useLab((s) => s.pausing) && running; // the step in flight finishes first: seconds on a slow GPU
  const lab = useSession();
  return (
    <div className="transport" role="toolbar" aria-label="Transport">
      <button className="primary" onClick={() => lab.togglePlay()} disabled={status === 'loading' || status === 'error'} aria-keyshortcuts="Space">{pausing ? '❚❚ Pausing…' : running ? '❚❚ Pause' : '▶ Play'}</button>
      <button onClick={() => void lab.stepOnce()} disabled={status === 'loading' || status === 'error'} aria-keyshortcuts="ArrowRight">{stepMode ? 'Next phase ▸' : 'Step ▸'}</button>
      <button onClick={() => void lab.reset()} disabled={status === 'loading'}>⟲ Reset</button>
      <label className="speed">Speed{' '}
        <select value={delay} onChange={(e) => lab.view.setDelay(Number(e.target.value))} aria-label="Speed">
          {SPEEDS.map((s) => <option key={s.ms} value={s.ms}>{s.label}</option>)}
        </select>
      </label>
      <label className="stepmode"><input type="checkbox" checked={stepMode} onChange={(e) => void lab.setStepMode(e.target.checked)} /> Step through one update</label>
      <span className="status" data-testid="run-status" role="status" aria-live="polite">
        {status === 'loading' ? 'loading…' : status === 'error' ? 'error' : status === 'ready' && !lastEval ? (progress ? 'ready' : 'ready · measuring step 0 on held-out prompts…') : pausing ? `pausing after the step in progress · ${steps} step${steps === 1 ? '' : 's'}` : `${running ? 'running' : 'paused'} · ${steps} step${steps === 1 ? '' : 's'}`}
        {last ? ` · reward ${last.reward.toFixed(2)}` : ''}
        {lastEval ? ` · held-out accuracy (greedy) ${lastEval.heldout_accuracy.toFixed(2)}` : ''}
      </span>
      {progress && (
        <span className="progress" role="progressbar" aria-label={progress.label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress.fraction !== undefined ? Math.round(progress.fraction * 100) : undefined} data-testid="progress">
          {progress.label}
          {progress.fraction !== undefined && <span className="bar"><span style={{ width: `${Math.round(progress.fraction * 100)}%` }} /></span>}
        </span>
      )}
      <span className="keys">Keys: Space play/pause · → step · ← previous phase</span>
    </div>
  );
}
