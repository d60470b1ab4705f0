/** Share and export: the link, recent runs (overlay of a comparable one, pins: store/overlays.ts), CSV/JSON/checkpoint/GRPOConfig out, checkpoint in, classroom mode. */
import { useState } from 'react';
import { SETTINGS } from '../rl/settings.ts';
import { useLab } from '../store/labStore.ts';
import { useSession } from './session.tsx';
import { settingsFileText } from '../persist/settingsFile.ts';
import { download, grpoConfigSnippet, metricsCsv, runJson, trlProjectZip } from '../store/exports.ts';
import { comparable } from '../store/overlays.ts';
import { specInUse } from '../store/taskSpec.ts';
import { runFigures } from '../store/views.ts';
import { RunShare } from './ClassShare.tsx';

export function RunsPanel() {
  const lab = useSession();
  const runs = useLab((s) => s.runs);
  const overlayId = useLab((s) => s.overlayRunId);
  const live = useLab((s) => s.liveOrigin);
  const siblings = runs.filter((r) => live && comparable(r.origin, live));
  const shownChoice = siblings.some((r) => r.id === overlayId) ? overlayId : null;
  const classroom = useLab((s) => s.classroom);
  const hidden = useLab((s) => s.hidden);
  const [snippet, setSnippet] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const s = () => useLab.getState();
  return (
    <section className="runs card" aria-label="Runs and sharing">
      <h2>Runs, sharing and export</h2>
      <div className="row">
        <button onClick={() => { void navigator.clipboard?.writeText(location.href).then(() => setMessage('Link copied: it restores every setting, the seed and the lesson.'), () => setMessage(`Copy this link: ${location.href}`)); }}>Copy link</button>
        <button onClick={() => download('rlvr-lab-metrics.csv', metricsCsv(s().steps, s().evals), 'text/csv')}>Metrics CSV</button>
        <button onClick={() => download('rlvr-lab-run.json', runJson(s().settings, s().steps, s().evals, { lesson: s().lessonId, backend: s().backendName, engine: s().engineNotices, ...(s().engineHandover ? { engineHandover: s().engineHandover } : {}), url: location.href, ...(specInUse(s()) ? { taskSpec: specInUse(s()) } : {}) }), 'application/json')}>Metrics JSON</button>
        <button onClick={async () => { const b = await lab.files.checkpointBytes(); if (b) download('rlvr-lab.ckpt', b as BlobPart, 'application/octet-stream'); }}>Checkpoint file</button>
        <button onClick={() => setSnippet(snippet ? null : grpoConfigSnippet(s().settings))} aria-expanded={!!snippet}>TRL GRPOConfig</button>
        <button data-testid="export-trl" title="The policy as a Hugging Face GPT-2 folder, the tokenizer, the task's split, reward.py and train_grpo.py for TRL on real GPUs (README inside)" onClick={async () => {
          const b = await lab.files.checkpointBytes();
          if (!b) return;
          try {
            download('rlvr-lab-trl.zip', await trlProjectZip(b, s().settings, specInUse(s()), `this page's run at step ${s().stepsCompleted}`) as BlobPart, 'application/zip');
            setMessage('TRL project downloaded: unzip it and read its README (pip install -r requirements.txt, then python train_grpo.py).');
          } catch (e) {
            setMessage(`The TRL project could not be written: ${(e as Error).message}.`);
          }
        }}>TRL project (.zip)</button>
        <label className="file">Import checkpoint <input type="file" accept=".ckpt,application/octet-stream" data-testid="import-checkpoint" onChange={async (e) => {
          const f = e.target.files?.[0];
          if (!f) return;
          const err = await lab.files.importCheckpoint(f.name, new Uint8Array(await f.arrayBuffer()));
          setMessage(err ?? `Loaded ${f.name}; the run restarts from it.`);
          e.target.value = '';
        }} /></label>
        <button onClick={() => download('rlvr-lab-settings.json', settingsFileText(s().settings, specInUse(s())), 'application/json')}>Settings file</button>
        <label className="file">Import settings <input type="file" accept=".json,application/json" data-testid="import-settings" onChange={async (e) => {
          const f = e.target.files?.[0];
          if (!f) return;
          const r = lab.files.importSettings(f.name, new Uint8Array(await f.arrayBuffer()));
          setMessage(r.error ?? `Loaded the settings from ${f.name}; they apply from the next step.${r.notices.length ? ` Note: ${r.notices.join('; ')}.` : ''}`);
          e.target.value = '';
        }} /></label>
      </div>
      {message && <p className="notice" role="status" data-testid="runs-message">{message}</p>}
      {snippet && (
        <div className="snippet">
          <button className="small" onClick={() => download('grpo_config.py', snippet, 'text/x-python')}>Download .py</button>
          <pre data-testid="grpo-snippet">{snippet}</pre>
        </div>
      )}
      <div className="row">
        <label>Overlay a finished run of this lesson{' '}
          <select value={shownChoice ?? ''} onChange={(e) => lab.view.setOverlay(e.target.value ? Number(e.target.value) : null)} disabled={!siblings.length} data-testid="overlay-select">
            <option value="">none</option>
            {siblings.map((r) => <option key={r.id} value={r.id}>{r.name}: {r.label}</option>)}
          </select>
        </label>
      </div>
      <p className="note">Only comparable runs are overlaid: this lesson&apos;s variants on the same task, base and seed. Pin a run to keep it on the charts beside any other.</p>
      {runs.length > 0 && (
        <ul className="recent-runs" data-testid="recent-runs">
          {runs.map((r) => (
            <li key={r.id} data-testid={`recent-run-${r.id}`}>
              <button className="small" aria-pressed={r.pinned} aria-label={`${r.pinned ? 'Unpin' : 'Pin'} ${r.name} (run ${r.id})`} onClick={() => lab.view.pinRun(r.id, !r.pinned)}>{r.pinned ? 'Unpin' : 'Pin'}</button>{' '}
              <strong>{r.name}</strong>: {r.label}; {runFigures(r.evals)}
              {r.verdict && r.verdict.state !== 'pending' && <span data-testid={`recent-run-verdict-${r.id}`}>; verdict at step {r.verdict.step}: {r.verdict.state}</span>}
              {r.pinned ? ' · pinned: on the charts' : live && comparable(r.origin, live) ? '' : ' · another lesson, task, base or seed: not overlaid'}
              <RunShare run={r} />
            </li>
          ))}
        </ul>
      )}
      <details className="classroom">
        <summary>Classroom mode</summary>
        <label><input type="checkbox" checked={classroom} onChange={(e) => lab.view.setClassroom(e.target.checked)} /> Classroom mode (larger type, chosen controls hidden; the link carries it)</label>
        <div className="hide-list">
          Hide in classroom mode:
          {SETTINGS.map((spec) => (
            <label key={spec.key}><input type="checkbox" checked={hidden.includes(spec.key)} onChange={() => lab.view.toggleHidden(spec.key)} /> <code>{spec.key}</code></label>
          ))}
        </div>
      </details>
    </section>
  );
}
