/**
 * The task panel, for a task with no shipped base (every custom task): where the run's base comes
 * from, and the cold start that makes one — supervised fine-tuning of a fresh policy on the task's
 * reference answers until the held-out sampled pass@1 reaches the capability boundary (the target
 * shown), with a progress bar, the pass rate live, a Stop button and the closing sentence; then
 * GRPO starts from it (π_ref = it). The base goes out and comes back as a checkpoint file, and
 * lesson 1 (G = 2 vs 8 vs 16) runs on the task. The session does the work (lab/customTask.ts).
 */
import { useState } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceLine, XAxis, YAxis } from 'recharts';
import { baseFor } from '../rl/bases.ts';
import { getLesson } from '../rl/lessons.ts';
import { COLD_START_MAX_STEPS, COLD_START_TARGET, COLD_START_TARGET_MAX, COLD_START_TARGET_MIN } from '../rl/coldStartSpec.ts';
import { customTasks } from '../tasks/registry.ts';
import { useLab, type ColdStartView } from '../store/labStore.ts';
import { download } from '../store/exports.ts';
import { C } from './palette.ts';
import { useSession } from './session.tsx';
import './taskEditor.css';

const pct = (x: number) => `${Math.round(100 * x)}%`;

function ColdStartProgress({ cs }: { cs: ColdStartView }) {
  const data = cs.history.map((h) => ({ step: h.step, pass: h.passRate, greedy: h.heldoutAccuracy }));
  return (
    <div className="cold-grid" data-testid="cold-start-view">
      <div>
        <label htmlFor="cold-start-progress">Supervised steps: {cs.step} of at most {cs.maxSteps}</label>
        <progress id="cold-start-progress" data-testid="cold-start-progress" max={cs.maxSteps} value={cs.step} />
        <div style={{ marginTop: 6 }}>Held-out sampled pass@1, from 0 to 100%:</div>
        <div className="pass-meter" role="meter" aria-label="Held-out sampled pass@1" aria-valuemin={0} aria-valuemax={1} aria-valuenow={cs.passRate}>
          <div className="fill" style={{ width: pct(Math.min(1, cs.passRate)) }} />
          <div className="target" style={{ left: pct(cs.target) }}><span>▲ target {pct(cs.target)}</span></div>
        </div>
        <p className="note" data-testid="cold-start-pass">
          Held-out sampled pass@1 (τ = 1, what GRPO&apos;s groups see): <strong>{pct(cs.passRate)}</strong> of the target {pct(cs.target)}; greedy accuracy {pct(cs.heldoutAccuracy)}
          {cs.history.length === 0 && cs.running ? ' (first measured at step 10)' : ''}.
        </p>
      </div>
      <div aria-hidden="true">
        <LineChart width={340} height={130} data={data} margin={{ top: 6, right: 10, bottom: 0, left: -18 }}>
          <CartesianGrid stroke="#ddd" />
          <XAxis dataKey="step" type="number" domain={[0, Math.max(10, cs.step)]} tick={{ fontSize: 11 }} />
          <YAxis domain={[0, 1]} ticks={[0, 0.3, 0.5, 1]} tick={{ fontSize: 11 }} />
          <ReferenceLine y={cs.target} stroke={C.vermillion} strokeDasharray="5 3" />
          <Line dataKey="pass" name="sampled pass@1" stroke={C.blue} dot={false} strokeWidth={2} isAnimationActive={false} />
          <Line dataKey="greedy" name="greedy accuracy" stroke={C.grey} dot={false} strokeDasharray="3 2" isAnimationActive={false} />
        </LineChart>
        <p className="note" style={{ margin: 0 }}>Blue: sampled pass@1; grey dashes: greedy; red dashes: the target.</p>
      </div>
    </div>
  );
}

export function TaskPanel() {
  const lab = useSession();
  const task = useLab((s) => s.settings.task);
  const difficulty = useLab((s) => s.settings.difficulty);
  const base = useLab((s) => s.taskBases[task]);
  const cs = useLab((s) => (s.coldStart && s.coldStart.task === task ? s.coldStart : null));
  const lessonId = useLab((s) => s.lessonId);
  const variant = useLab((s) => s.lessonVariant);
  const status = useLab((s) => s.status);
  const [budget, setBudget] = useState(COLD_START_MAX_STEPS);
  const [target, setTarget] = useState(Math.round(COLD_START_TARGET * 100));
  const G = useLab((s) => s.settings.numGenerations);
  const [message, setMessage] = useState<string | null>(null);
  const [open, setOpen] = useState(true);
  const custom = customTasks().find((t) => t.id === task);
  if (!custom && baseFor(task, difficulty)) return null;
  const running = cs?.running ?? false;
  const shownTarget = cs?.running ? cs.target : target / 100;
  const title = custom ? custom.title : task;
  return (
    <section className="card task-panel" aria-label="Your task and its cold start" data-testid="task-panel">
      <div className="row">
        <button className="small fold" aria-expanded={open} onClick={() => setOpen(!open)} title={open ? 'Fold the task panel away' : 'Show the task panel'}>{open ? '▾' : '▸'}</button>
        <h2>Task: {title} <code>{task}</code></h2>
        <button className="small" onClick={() => lab.custom.openEditor(true)}>{custom ? 'Edit the task' : 'New task…'}</button>
        {!open && <span className="note">{base ? `Base: ${base.name}.` : 'No base yet.'}{cs?.running ? ` Cold start: step ${cs.step}, pass@1 ${pct(cs.passRate)}.` : ''}</span>}
      </div>
      {open && <>
      <p data-testid="task-base">
        {base
          ? <>Base: <strong>{base.name}</strong>{base.passRate !== null ? `, held-out sampled pass@1 ${pct(base.passRate)}` : ''} at difficulty {base.difficulty}. GRPO starts from it: π_ref is this base.</>
          : <>No base yet: the lab ships no checkpoint for this task, so the run starts from a fresh random init that solves almost nothing — its groups are all-fail and teach GRPO nothing.</>}
      </p>
      <p>
        <strong>Cold start:</strong> supervised fine-tuning of a fresh policy on the task&apos;s reference answers until the held-out
        sampled pass@1 reaches <strong data-testid="cold-start-target">{pct(shownTarget)}</strong>, the capability boundary: short of mastery on purpose,
        so that groups of G answers mix passes and failures and GRPO has something to add (at p = {shownTarget.toFixed(2)} and G = {G}, a share 1 − p^G − (1 − p)^G = {pct(1 - shownTarget ** G - (1 - shownTarget) ** G)} of groups mix).
      </p>
      <div className="row">
        <label>Step budget <input type="number" min={10} max={20000} step={10} value={budget} data-testid="cold-start-budget" disabled={running}
          onChange={(e) => { const n = Math.round(Number(e.target.value)); if (Number.isFinite(n) && n >= 1 && n <= 20000) setBudget(n); }} /></label>
        <label>Target pass@1 % <input type="number" min={COLD_START_TARGET_MIN * 100} max={COLD_START_TARGET_MAX * 100} step={5} value={target} data-testid="cold-start-target-input" disabled={running}
          onChange={(e) => { const n = Math.round(Number(e.target.value)); if (n >= COLD_START_TARGET_MIN * 100 && n <= COLD_START_TARGET_MAX * 100) setTarget(n); }} /></label>
        <button className="primary" data-testid="cold-start" disabled={running || status === 'loading'} onClick={() => void lab.custom.coldStart(budget, target / 100)}>{base ? 'Cold start again' : 'Cold start'}</button>
        <button data-testid="cold-start-stop" disabled={!running || cs?.stopping} onClick={() => lab.custom.stop()}>{cs?.stopping ? 'Stopping…' : 'Stop'}</button>
        <span className="note">The policy it ends with becomes the base; Stop keeps the policy so far.</span>
      </div>
      {cs && <ColdStartProgress cs={cs} />}
      {cs?.sentence && <p className={`cold-sentence ${cs.reached ? 'reached' : 'short'}`} role="status" data-testid="cold-start-sentence">{cs.sentence}</p>}
      <div className="row">
        <button disabled={!base || running} data-testid="download-base" onClick={() => { const b = lab.custom.baseBytes(); if (b) download(`rlvr-lab-base-${task.replace(/^spec:/, '')}.ckpt`, b as BlobPart, 'application/octet-stream'); }}>Download the base (.ckpt)</button>
        <label className="file">Load a base <input type="file" accept=".ckpt,application/octet-stream" data-testid="load-base" disabled={running} onChange={async (e) => {
          const f = e.target.files?.[0];
          if (!f) return;
          setMessage(await lab.custom.loadBase(f.name, new Uint8Array(await f.arrayBuffer())));
          e.target.value = '';
        }} /></label>
      </div>
      {message && <p className="notice" role="status" data-testid="task-panel-message">{message}</p>}
      <div className="row" data-testid="lesson-on-task">
        Lesson 1 on this task (mixed groups):
        {(getLesson('mixed-groups')?.variants ?? []).map((v, i) => (
          <button key={i} className="small" disabled={running} aria-pressed={lessonId === 'mixed-groups' && variant === i} onClick={() => void lab.custom.lessonOnTask(i)}>{v.label}</button>
        ))}
        <span className="note">Each restarts from this task&apos;s base, and the lesson card judges its claim on this run (it was measured on add: on a task of your own it may not show, and the card says so with the run&apos;s numbers).</span>
      </div>
      </>}
    </section>
  );
}
