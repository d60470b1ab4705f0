/**
 * The lessons bar (one click each) and the current lesson's text, variants and charts to watch,
 * with the lesson's claim and its live verdict on this run's own numbers.
 */
import { useMemo } from 'react';
import { LESSONS, getLesson, lessonSettings, settingsChangedFrom, type Lesson } from '../rl/lessons.ts';
import { defaultSettings } from '../rl/settings.ts';
import { useLab } from '../store/labStore.ts';
import { useSession } from './session.tsx';

/** The variant's claim, judged on the run's recorded steps and evaluations. */
function Verdict({ lesson, variant }: { lesson: Lesson; variant: number }) {
  const steps = useLab((s) => s.steps);
  const evals = useLab((s) => s.evals);
  const settings = useLab((s) => s.settings);
  const claim = lesson.variants[variant]?.claim;
  const v = useMemo(() => (claim ? claim.judge({ steps, evals }) : null), [claim, steps, evals]);
  const changed = useMemo(() => settingsChangedFrom(lesson, variant, settings), [lesson, variant, settings]);
  if (!claim || !v) return null;
  if (changed.length) {
    const want = lessonSettings(lesson, defaultSettings(), variant);
    return (
      <div className="claim claim-pending" data-testid="lesson-verdict" data-state="changed" role="status" aria-live="polite">
        <p><strong>Claim:</strong> {claim.text}</p>
        <p className="verdict-line">Not judged: this run's {changed.map((k) => `${k} is ${String(settings[k])} (the variant sets ${String(want[k])})`).join(', ')}. The claim is about the variant as set: press its button to restart it.</p>
      </div>
    );
  }
  return (
    <div className={`claim claim-${v.state}`} data-testid="lesson-verdict" data-state={v.state} role="status" aria-live="polite">
      <p><strong>Claim:</strong> {claim.text}{claim.frequency ? ` (${claim.frequency})` : ''}</p>
      <p className="verdict-line">{steps.length === 0 ? `Press play: the verdict comes at step ${claim.steps}.` : v.sentence}</p>
      {v.state === 'fails' && v.hint && <p className="note">Try: {v.hint}</p>}
    </div>
  );
}

export function Lessons() {
  const lab = useSession();
  const lessonId = useLab((s) => s.lessonId);
  const variant = useLab((s) => s.lessonVariant);
  const lesson = lessonId ? getLesson(lessonId) : undefined;
  return (
    <section className="lessons card" aria-label="Lessons">
      <div className="lesson-buttons">
        <span className="lessons-title">Lessons:</span>
        {LESSONS.map((l) => (
          <button key={l.id} className={l.id === lessonId ? 'current' : ''} aria-pressed={l.id === lessonId} onClick={() => void lab.applyLesson(l.id)} data-testid={`lesson-${l.id}`}>{l.title}</button>
        ))}
      </div>
      {lesson && (
        <div className="lesson-text" data-testid="lesson-text">
          <h2>{lesson.title}</h2>
          <p>{lesson.watch}</p>
          <Verdict lesson={lesson} variant={variant} />
          <div className="variants">
            Compare:{' '}
            {lesson.variants.map((v, i) => (
              <button key={i} className={i === variant ? 'current' : ''} aria-pressed={i === variant} onClick={() => void lab.applyLesson(lesson.id, i)}>{v.label}</button>
            ))}
            <span className="note"> Each variant restarts from the base; the previous run stays on the charts as an overlay (choose another under Runs).</span>
            <button className="small" onClick={() => lab.leaveLesson()}>Leave lesson</button>
          </div>
          <p className="note">Watch: {lesson.charts.join(', ')} (highlighted).</p>
        </div>
      )}
    </section>
  );
}
