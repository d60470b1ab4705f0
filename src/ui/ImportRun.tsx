/**
 * Import a run trained elsewhere (TRL's trainer_state.json, a JSONL of its log entries, its
 * completion logs completions_NNNNN.parquet, or a whole output folder): drop it on this card or
 * choose it. The run appears on the charts beside the lab's run as "TRL run: <name>" (dashed),
 * with the run doctor's findings marked where each stop signal first fires; the keys the lab
 * does not know are listed. A refused file is one sentence; the lab's own run goes on untouched.
 * Only the files the import reads are opened (never a model's weights).
 */
import { useState, type DragEvent } from 'react';
import { MAX_LISTED, MAX_LOG_BYTES, selectImportFiles, type TrlFile } from '../persist/trlImport.ts';
import { useImported } from '../store/importedRun.ts';
import { useRunImport } from './session.tsx';
import { ImportedStep } from './ImportedStep.tsx';

/** A chosen or dropped file, with its path inside a dropped folder. */
interface Picked {
  path: string;
  file: File;
}

/**
 * The bytes of the files the import reads — the one rule `npm run doctor` uses too
 * (selectImportFiles: the logs, the completion logs thinned to every k-th and the last) — and the
 * others by name and size only (counted as skipped). A single file is read (a log of another name).
 */
async function readPicked(picked: Picked[]): Promise<TrlFile[]> {
  const one = picked.length === 1;
  const listed = picked.slice(0, MAX_LISTED + 1).map((p) => ({ name: p.path, size: p.file.size, p }));
  const read = new Set(selectImportFiles(listed).read);
  return Promise.all(listed.map(async (x) => ({
    name: x.name, size: x.size, bytes: read.has(x) || (one && x.size <= MAX_LOG_BYTES) ? new Uint8Array(await x.p.file.arrayBuffer()) : new Uint8Array(0),
  })));
}

/** The files under a dropped folder (FileSystem entries), with their paths. */
async function walkEntry(entry: FileSystemEntry, out: Picked[]): Promise<void> {
  if (out.length > MAX_LISTED) return;
  if (entry.isFile) {
    const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
    out.push({ path: entry.fullPath.replace(/^\//, ''), file });
  } else if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
      if (!batch.length || out.length > MAX_LISTED) break;
      for (const e of batch) await walkEntry(e, out);
    }
  }
}

/** A sentence with `key names` set as code (as text: never HTML). */
const withCode = (text: string) => text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const list = (xs: string[], max = 12) => (xs.length ? xs.slice(0, max).join(', ') + (xs.length > max ? ` and ${xs.length - max} more` : '') : 'none');

export function ImportRun() {
  const importer = useRunImport();
  const run = useImported((s) => s.run);
  const error = useImported((s) => s.error);
  const busy = useImported((s) => s.busy);
  const xAxis = useImported((s) => s.xAxis);
  const [over, setOver] = useState(false);

  async function take(picked: Picked[]) {
    if (!picked.length) return;
    const folder = picked.length > 1 && picked[0].path.includes('/') ? picked[0].path.split('/')[0] : undefined;
    await importer.importFiles(await readPicked(picked), folder);
  }
  async function onDrop(e: DragEvent) {
    e.preventDefault();
    setOver(false);
    const entries = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry?.()).filter((x): x is FileSystemEntry => !!x);
    const picked: Picked[] = [];
    if (entries.length) for (const en of entries) await walkEntry(en, picked);
    else for (const f of e.dataTransfer.files) picked.push({ path: f.name, file: f });
    await take(picked);
  }
  const fromInput = (files: FileList | null) => void take([...(files ?? [])].map((f) => ({ path: f.webkitRelativePath || f.name, file: f })));
  const d = run?.diagnosis;
  const first = run?.steps[0]?.step, last = run?.steps.at(-1)?.step;

  return (
    <section className={`card import-run${over ? ' over' : ''}`} aria-label="Import a TRL run" data-testid="import-run"
      onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)} onDrop={(e) => void onDrop(e)}>
      <div className="row">
        <strong>Import a TRL run</strong>
        <span className="note">drop <code>trainer_state.json</code>, a log <code>.jsonl</code>, <code>completions_NNNNN.parquet</code> files or a whole output folder here, or</span>
        <label className="file">choose files <input type="file" multiple accept=".json,.jsonl,.parquet,application/json" data-testid="import-trl" onChange={(e) => { fromInput(e.target.files); e.target.value = ''; }} /></label>
        <label className="file">a folder <input type="file" multiple data-testid="import-trl-folder" {...{ webkitdirectory: '' }} onChange={(e) => { fromInput(e.target.files); e.target.value = ''; }} /></label>
        {busy && <span role="status">reading…</span>}
      </div>
      {error && <p className="notice error" role="alert" data-testid="trl-import-error">{error}</p>}
      {run && d && (
        <div className="imported" data-testid="trl-run">
          <div className="row">
            <strong data-testid="trl-run-label">{run.label}</strong>
            <span>{run.steps.length ? `${run.steps.length} logged steps (${first}–${last})` : 'no training log (0 logged steps)'}, {count(run.evals.length, 'evaluation')}, {count(run.completions.length, 'completion log')}; {run.accuracyKey ? <>accuracy read from <code>{run.accuracyKey}</code></> : 'no accuracy read'}{run.heldoutKey ? <>, held-out from <code>{run.heldoutKey}</code></> : ', no held-out evaluations'}.{run.steps.length ? ' Its lines are dashed.' : ''}</span>
            <label>x axis{' '}
              <select value={xAxis} onChange={(e) => importer.setXAxis(e.target.value as typeof xAxis)} data-testid="x-axis">
                <option value="progress">% of each run&apos;s steps (each run spans the width)</option>
                <option value="step">steps (one axis for both runs)</option>
                <option value="tokens" disabled={!run.hasTokens}>tokens (TRL&apos;s num_tokens: prompt + completion; the lab&apos;s: generated)</option>
              </select>
            </label>
            <button className="small" onClick={() => importer.clear()}>Remove</button>
          </div>
          <ul className="doctor" data-testid="doctor-findings" aria-label="Run doctor">
            {d.findings.length ? d.findings.map((f) => (
              <li key={f.id} data-testid={`doctor-finding-${f.id}`}><strong>⚑ {f.label}</strong> from step {f.firstStep}{f.atEnd ? ' (still at its end)' : ` to ${f.lastStep}`}</li>
            )) : d.notChecked ? <li data-testid="doctor-not-checked">Run doctor: {d.notChecked}</li> : <li>Run doctor: none of the lab&apos;s stop signals fires on this run.</li>}
          </ul>
          {run.accuracyNote && <p className="note" data-testid="trl-accuracy-note">{withCode(run.accuracyNote)}</p>}
          <details>
            <summary>Keys: {run.keys.used.length} read, {run.keys.known.length} known but not drawn, <span data-testid="trl-unknown-count">{run.keys.unknown.length} unknown to the lab</span></summary>
            <p data-testid="trl-unknown-keys">Unknown to the lab (listed, not used): {list(run.keys.unknown)}</p>
            <p>Renamed to TRL 1.x names: {list(run.keys.renamed)}</p>
            <p>Read: {list(run.keys.used, 40)}</p>
            <p>Known, not drawn: {list(run.keys.known, 40)}</p>
            <p className="note">The doctor checks {d.checkedEvery === 1 ? 'every logged step' : `every ${d.checkedEvery}th logged step`} with the lab&apos;s thresholds over {d.window} logged steps (length must grow by {d.options.lengthRise.toFixed(1)} tokens, a tenth of the first answers&apos;); a signal counts where it fires for {d.minSpan} logged steps in a row (one step is not a trend); mixed groups are read as 1 − <code>frac_reward_zero_std</code>, valid for pass/fail rewards.</p>
          </details>
          {run.keys.unknown.length > 0 && <p className="note" data-testid="trl-unknown-inline">Unknown keys: {list(run.keys.unknown, 6)}</p>}
          {run.notices.map((n, i) => <p key={i} className="note">{n}</p>)}
          {run.completions.length > 0 && <ImportedStep run={run} />}
        </div>
      )}
    </section>
  );
}
