/**
 * The "New task" editor (docs/custom-tasks.md): a task spec written as JSON, checked as it is
 * typed by validateSpec (its one sentence shown as text, never HTML), five examples sampled as a
 * run samples them with the verifier's verdicts on the reference answer and on a wrong one, data
 * pairs loaded from a CSV or JSONL file, a share link that carries the spec, and "Use this task"
 * (the session registers it and the run switches to it: lab/customTask.ts).
 */
import { useDeferredValue, useMemo, useState } from 'react';
import { parseDataCsv, parseDataJsonl, type Spec } from '../tasks/spec/index.ts';
import { useLab } from '../store/labStore.ts';
import { labSearch } from '../store/url.ts';
import { fitResponseLength } from '../rl/responseLength.ts';
import { EXAMPLE_SPEC, LONG_LINK, readSpecText, specExamples, specInUse, specSummary, specText, type SpecExample } from '../store/taskSpec.ts';
import { VERDICT, verdictKind } from './palette.ts';
import { useSession } from './session.tsx';
import './taskEditor.css';

/** Example specs shipped in public/tasks/ (times7 is the editor's own, on a small range). */
const EXAMPLES = [
  { file: 'vowels', label: 'count the vowels' },
  { file: 'reverse', label: 'reverse a word (4 levels)' },
  { file: 'digitsum', label: 'digit sum with a scratchpad' },
] as const;

function VerdictMark({ v }: { v: SpecExample['right'] }) {
  const k = VERDICT[verdictKind(v)];
  return <><span className="verdict-mark" style={{ color: k.color }}>{k.mark} {v.reason}</span> <span className="note nowrap">(reward {v.reward})</span></>;
}

function Examples({ spec }: { spec: Spec | null }) {
  const rows = useMemo(() => {
    if (!spec) return null;
    try {
      return specExamples(spec, 5, 1);
    } catch {
      return null; // a valid spec always gives examples; the table is simply left empty if not
    }
  }, [spec]);
  if (!rows) return <p className="note" data-testid="spec-examples-none">The examples appear when the spec is valid.</p>;
  return (
    <table className="spec-examples" data-testid="spec-examples">
      <caption>Five prompts as a run draws them, with the verifier&apos;s verdicts</caption>
      <thead><tr><th scope="col">Prompt</th><th scope="col">Reference answer</th><th scope="col">Its verdict</th><th scope="col">A wrong answer</th><th scope="col">Its verdict</th></tr></thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} data-testid="spec-example">
            <td><code>{r.prompt}</code>{r.heldout && <span className="note" title="This prompt is in the held-out split: training never sees it."> held out</span>}</td>
            <td><code>{r.response}</code></td>
            <td><VerdictMark v={r.right} /></td>
            <td><code>{r.wrong}</code></td>
            <td><VerdictMark v={r.wrongVerdict} /></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The name a data file's task takes: the text's own name if it has one, else "mydata". */
function nameOf(text: string): string {
  try {
    const o = JSON.parse(text) as { name?: unknown };
    return typeof o.name === 'string' && /^[a-z0-9][a-z0-9_-]{0,23}$/.test(o.name) ? o.name : 'mydata';
  } catch {
    return 'mydata';
  }
}

export function TaskEditor() {
  const lab = useSession();
  const open = useLab((s) => s.taskEditorOpen);
  if (!open) return null;
  return <EditorCard onClose={() => lab.custom.openEditor(false)} />;
}

function EditorCard({ onClose }: { onClose: () => void }) {
  const lab = useSession();
  const inUse = useLab((s) => specInUse(s));
  const [text, setText] = useState(() => specText(inUse ?? EXAMPLE_SPEC));
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const deferred = useDeferredValue(text);
  const result = useMemo(() => readSpecText(deferred), [deferred]);
  const spec = result.ok ? result.spec : null;
  const settings = useLab((s) => s.settings);
  const backend = useLab((s) => s.backendPref);
  const classroom = useLab((s) => s.classroom);
  const hidden = useLab((s) => s.hidden);
  // the page's settings with this task (and no lesson: a lesson would set its own task), Max response length fitted as "Use this task" fits it
  const link = useMemo(() => {
    if (!result.ok) return null;
    const id = `spec:${result.spec.name}`;
    const fitted = { ...settings, task: id, maxCompletionLength: fitResponseLength(settings.maxCompletionLength, result.stats.maxResponseTokens) };
    return `${location.origin}${location.pathname}${labSearch({ settings: fitted, lessonId: null, lessonVariant: 0, backend, classroom, hidden, taskSpecs: { [id]: result.spec } })}`;
  }, [result, settings, backend, classroom, hidden]);
  const loadExample = async (file: string) => {
    try {
      const res = await fetch(`${import.meta.env.BASE_URL}tasks/${file}.json`);
      if (!res.ok) throw new Error(String(res.status));
      setText(await res.text());
      setMessage(null);
    } catch {
      setMessage(`The example ${file}.json could not be loaded.`);
    }
  };
  const loadData = async (f: File) => {
    const raw = await f.text();
    const r = /\.csv$/i.test(f.name) ? parseDataCsv(raw) : parseDataJsonl(raw);
    if (!r.ok) {
      setMessage(`${f.name.slice(0, 80)} was not loaded: ${r.error}`);
      return;
    }
    setText(specText({ name: nameOf(text), title: f.name.replace(/\.[a-z]+$/i, '').replace(/[^\x20-\x7e]|[<>&]/g, '').slice(0, 60) || 'my data', data: r.data }));
    setMessage(`Loaded ${r.data.length} prompt–answer pairs from ${f.name.slice(0, 80)} into "data" (the check below says whether they make a task).`);
  };
  const use = async () => {
    if (!result.ok) return;
    setBusy(true);
    const err = await lab.custom.use(JSON.parse(deferred));
    setBusy(false);
    if (err) setMessage(err);
    else onClose();
  };
  return (
    <section className="card task-editor" aria-label="New task" data-testid="task-editor">
      <div className="task-editor-head">
        <h2>New task</h2>
        <span className="note">A task is data: a prompt template with variables, and the answer as an expression the lab evaluates itself (the language is described in the lab’s docs/custom-tasks.md).</span>
        <button className="small" onClick={onClose} aria-label="Close the task editor">✕ Close</button>
      </div>
      <div className="row examples-row">
        Start from:{' '}
        <button className="small" onClick={() => { setText(specText(EXAMPLE_SPEC)); setMessage(null); }}>the 7 times table</button>
        {EXAMPLES.map((e) => <button key={e.file} className="small" onClick={() => void loadExample(e.file)}>{e.label}</button>)}
        <label className="file">Load data (CSV/JSONL) <input type="file" accept=".csv,.jsonl,.json,.txt,text/csv" data-testid="load-task-data" onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void loadData(f);
          e.target.value = '';
        }} /></label>
      </div>
      <div className="task-editor-grid">
        <div>
          <label htmlFor="task-spec-text" className="spec-label">Task spec (JSON)</label>
          <textarea id="task-spec-text" data-testid="task-spec-text" spellCheck={false} rows={9} value={text} onChange={(e) => setText(e.target.value)}
            aria-describedby="task-spec-status" aria-invalid={!result.ok} />
          <p id="task-spec-status" className={`spec-status ${result.ok ? 'ok' : 'bad'}`} data-testid="spec-status" role="status" aria-live="polite">
            {result.ok ? `✓ ${specSummary(result.spec, result.stats)}` : `✗ ${result.error}`}
          </p>
          <p className="note">
            Variables: <code>[lo, hi]</code>, <code>{'{ "choice": [...] }'}</code>, <code>{'{ "string": { "alphabet": "abc", "length": [1, 5] } }'}</code>.
            Answer: <code>+ - * / %</code>, <code>min max abs</code>, <code>len reverse sort count first last</code>; optional <code>scratchpad</code> steps and difficulty <code>levels</code>.
          </p>
        </div>
        <div>
          <Examples spec={spec} />
        </div>
      </div>
      <div className="row">
        <button className="primary" disabled={!result.ok || busy} onClick={() => void use()} data-testid="use-task">Use this task</button>
        <span className="note">The run switches to it from a fresh start; a cold start then makes its base.</span>
      </div>
      {link && (
        <div className="row share-row">
          <label htmlFor="spec-share-link">Share link (carries the spec):</label>
          <input id="spec-share-link" data-testid="spec-share-link" readOnly value={link} onFocus={(e) => e.target.select()} />
          <button className="small" onClick={() => { void navigator.clipboard?.writeText(link).then(() => setMessage('Link copied: it opens the lab on this task.'), () => setMessage('Select the link and copy it.')); }}>Copy</button>
          {link.length > LONG_LINK && <span className="note" data-testid="spec-link-long">This link has {link.length} characters: mail programs and some servers cut links that long; share the spec as a file instead.</span>}
        </div>
      )}
      {message && <p className="notice" role="status" data-testid="task-editor-message">{message}</p>}
    </section>
  );
}
