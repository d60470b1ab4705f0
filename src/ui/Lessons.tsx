/** The lessons bar (one click each) and the current lesson's text, variants and charts to watch. */
import { LESSONS, getLesson } from '../rl/lessons.ts';
import { useLab } from '../store/labStore.ts';
import { useSession } from './session.tsx';

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
