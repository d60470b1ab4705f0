/**
 * The lab: settings on the left, transport and live charts in a grid, the step-through of one
 * GRPO update, lessons, sharing/export, and the explanation under the tool (TensorFlow
 * Playground's layout); or, instead of all of it, the presenter view (Presenter.tsx). The class
 * tour (ClassTour.tsx) walks either.
 * Components read the store; the lab session does the work.
 */
import { adapterLine, softwareAdapter } from './webgpuInfo.ts';
import { useLab } from '../store/labStore.ts';
import { stepZeroSentence } from '../store/views.ts';
import { useSession } from './session.tsx';
import { Controls } from './Controls.tsx';
import { Transport, useTransportKeys } from './Transport.tsx';
import { Charts } from './Charts.tsx';
import { Inspector } from './Inspector.tsx';
import { Lessons, chartOrder } from './Lessons.tsx';
import { StartHere } from './StartHere.tsx';
import { RunsPanel } from './RunsPanel.tsx';
import { Profiling } from './Profiling.tsx';
import { Explanations } from './Explanations.tsx';
import { Presenter, PresenterButton } from './Presenter.tsx';
import { ClassTour, ClassTourButton, ClassTourLink } from './ClassTour.tsx';
import { TaskEditor } from './TaskEditor.tsx';
import { TaskPanel } from './TaskPanel.tsx';
import { ImportRun } from './ImportRun.tsx';
import { ClassResults } from './ClassResults.tsx';

function Notices() {
  const url = useLab((s) => s.urlNotices);
  const engine = useLab((s) => s.engineNotices);
  const error = useLab((s) => s.error);
  const backend = useLab((s) => s.backendName);
  const failed = useLab((s) => s.status === 'error');
  const stepZero = useLab((s) => stepZeroSentence(s.evals)); // the same step-0 figure as the status line and the chart
  const faults = useLab((s) => s.faults);
  const software = useLab((s) => softwareAdapter(s.webgpu)); // the header says so too
  const offer = useLab((s) => s.resumeOffer);
  const cameBack = useLab((s) => s.cameBack);
  const lab = useSession();
  return (
    <div className="notices">
      {cameBack && <p className="notice" role="status" data-testid="came-back">{cameBack}</p>}
      {offer && (
        <div className="notice resume" role="dialog" aria-label="Resume the saved run" data-testid="resume-offer">
          {offer.label}{' '}
          <button className="primary small" onClick={() => void lab.resumeSaved()}>Resume it</button>{' '}
          <button className="small" onClick={() => void lab.discardSaved()}>Start fresh</button>
        </div>
      )}
      {url.length > 0 && (
        <div className="notice warn" role="alert" data-testid="url-notices">
          <strong>About this address (values not used, or read differently):</strong>
          <ul>{url.map((n, i) => <li key={i}>{n}</li>)}</ul>
          <button className="small" onClick={() => lab.view.dismissUrlNotices()}>Dismiss</button>
        </div>
      )}
      {/* the engine line's space is kept from the first frame (app.css .engine-line): it arrives after the model loads and checks itself, and must not push Play down */}
      {backend ? (
        // in the lesson's language; the engine's own sentences (self-check, kernels, checkpoint files, π_ref) behind "Details"
        <div className={`notice engine-line engine-${backend}`} data-testid="engine-line">
          Engine: {backend === 'webgpu'
            ? (software ? 'WebGPU, on a software adapter (no graphics card: the processor does its work)' : 'WebGPU, on this computer\'s graphics card')
            : <><strong className="cpu-badge" data-testid="cpu-badge">CPU reference</strong>: {software ? 'the same math, faster here than WebGPU on a software adapter' : 'the same math, slower'}</>}.{stepZero && ` ${stepZero}`}
          {engine.length > 0 && <details className="engine-details" data-testid="engine-details"><summary>Details</summary>{engine.join(' ')}</details>}
        </div>
      ) : (
        <p className="notice engine-line pending" data-testid="engine-pending">{failed ? 'Engine: none could start.' : 'Engine: starting — the model loads, the engine checks itself, then the model is measured on held-out prompts…'}</p>
      )}
      {faults.map((f, i) => <p key={i} className="notice warn" role="alert" data-testid={`fault-${f.kind}`}>{f.text}</p>)}
      {error && <p className="notice error" role="alert" data-testid="run-error">{error}</p>}
    </div>
  );
}

export function App() {
  const gpu = useLab((s) => s.webgpu); // asked once by the lab's engine keeper, which picks the engine by it
  const onGpu = useLab((s) => (s.backendName ? s.backendName === 'webgpu' : s.backendPref === 'webgpu'));
  const classroom = useLab((s) => s.classroom);
  const presenting = useLab((s) => s.presenter !== null);
  const lessonId = useLab((s) => s.lessonId);
  const classMode = useLab((s) => s.classMode); // a student's page (class=1): no teacher's panels
  useTransportKeys();
  if (presenting) return <Presenter />; // one thing at a time, the page's controls hidden (Esc comes back)
  return (
    <main className={`app${classroom ? ' classroom' : ''}${lessonId ? ' in-lesson' : ''}`} style={chartOrder(lessonId)}>
      <header className="top">
        <h1>rlvr-lab</h1>
        <p className="subtitle">A small transformer learns checkable problems by reinforcement learning with verifiable rewards (GRPO) — in your browser.</p>
        <p className={`gpu-line ${gpu && !gpu.available ? 'missing' : ''}`} data-testid="webgpu-status" role="status">
          {adapterLine(gpu, onGpu)}
        </p>
        <ClassTourButton />
        <PresenterButton />
      </header>
      <StartHere tour={<ClassTourLink />} />
      <Notices />
      {!lessonId && <Lessons />}
      <TaskEditor />
      <TaskPanel />
      <div className="lab">
        {/* in a lesson, its card heads the settings' column: beside the lesson's first chart (app.css .in-lesson) */}
        <div className="side">
          {lessonId && <Lessons />}
          <Controls />
        </div>
        <div className="main-col">
          <Transport />
          <Inspector />
          <Charts />
          <ImportRun />
        </div>
      </div>
      <RunsPanel />
      {!classMode && <ClassResults />}
      {!classMode && <Profiling />}
      <Explanations />
      <ClassTour />
    </main>
  );
}
