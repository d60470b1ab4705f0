/**
 * npm run doctor -- FILE|DIR [FILE|DIR …]
 *
 * The GRPO run doctor on a run trained elsewhere: TRL's trainer_state.json, a JSONL (or JSON
 * list) of its log entries, completion logs (completions_NNNNN.parquet), or a whole output
 * folder (only those files are read: never the model's weights). The lab's stop signals run step
 * by step on it (src/rl/doctor.ts), and the diagnosis is printed as JSONL:
 *   one line per signal that fires: {"signal", "label", "chart", "first_step", "last_step", "spans", "at_end", "message", "evidence"}
 *   one summary line:               {"summary": true, "run", "sources", "logged_steps", …, "checked", "not_checked", "keys_used", "keys_known", "keys_renamed", "keys_unknown", "notices"}
 * "checked": false with "not_checked" (one sentence) when no signal could fire (no training log, too few logged steps):
 * then an empty list of signals says nothing about the run.
 * A file the lab cannot read: one sentence on stderr, exit 2. Exit 0 otherwise (signals or not).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { diagnose, type Diagnosis, type TrlRun } from '../src/rl/doctor.ts';
import { importTrlFiles, MAX_LISTED, MAX_LOG_BYTES, selectImportFiles, type TrlFile } from '../src/persist/trlImport.ts';

const USAGE = 'usage: npm run doctor -- FILE|DIR [FILE|DIR ...]  (trainer_state.json, log JSONL, completions_NNNNN.parquet, or a TRL output folder)';

/**
 * The files under the arguments: a folder's files listed by name and size, and only those the
 * import's one rule keeps (selectImportFiles, the page's too) read; a file given by name is read
 * (a log of another name is recognised by its content).
 */
export function collect(args: string[]): { files: TrlFile[]; error: string | null } {
  const listed: { name: string; size: number; path: string; given: boolean }[] = [];
  const walk = (root: string, dir: string, depth: number): void => {
    if (depth > 8) return;
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (listed.length > MAX_LISTED) return;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(root, p, depth + 1);
      else if (e.isFile()) listed.push({ name: relative(root, p) || e.name, size: statSync(p).size, path: p, given: false });
    }
  };
  for (const a of args) {
    let st;
    try {
      st = statSync(a);
    } catch {
      return { files: [], error: `${a.slice(0, 80)} was not imported: no such file or folder.` };
    }
    if (st.isDirectory()) walk(a, a, 0);
    else listed.push({ name: a.split('/').pop() ?? a, size: st.size, path: a, given: true });
  }
  const read = new Set(selectImportFiles(listed).read);
  const files = listed.map((f) => ({ name: f.name, size: f.size, bytes: read.has(f) || (f.given && f.size <= MAX_LOG_BYTES) ? new Uint8Array(readFileSync(f.path)) : new Uint8Array(0) }));
  return { files, error: null };
}

/** The diagnosis as JSONL lines (the summary last). */
export function doctorLines(run: TrlRun, d: Diagnosis): string[] {
  const lines = d.findings.map((f) => JSON.stringify({ signal: f.id, label: f.label, chart: f.chart, first_step: f.firstStep, last_step: f.lastStep, spans: f.spans, at_end: f.atEnd, message: f.message, evidence: f.evidence }));
  lines.push(JSON.stringify({
    summary: true,
    run: run.name,
    sources: run.sources.map((s) => `${s.file} (${s.kind})`),
    logged_steps: run.train.length,
    steps: run.train.length ? [run.train[0].step, run.train[run.train.length - 1].step] : null,
    evaluations: run.evals.length,
    completion_logs: run.completions.map((c) => c.step),
    reward_funcs: run.rewardFuncs,
    accuracy_key: d.accuracyKey,
    accuracy_note: d.accuracyNote,
    heldout_key: d.heldoutKey,
    mixed_groups: '1 - frac_reward_zero_std (valid for pass/fail rewards)',
    window: d.window,
    length_rise: d.options.lengthRise,
    checked_every: d.checkedEvery,
    min_span: d.minSpan,
    checked: d.notChecked === null,
    not_checked: d.notChecked,
    signals_fired: d.findings.map((f) => f.id),
    keys_used: run.keys.used,
    keys_known: run.keys.known,
    keys_renamed: run.keys.renamed,
    keys_unknown: run.keys.unknown,
    notices: run.notices,
  }));
  return lines;
}

export async function main(argv: string[]): Promise<{ code: number; out: string[]; err: string | null }> {
  if (!argv.length || argv.some((a) => a === '--help' || a === '-h')) return { code: argv.length ? 0 : 2, out: [], err: USAGE };
  const { files, error } = collect(argv);
  if (error) return { code: 2, out: [], err: error };
  const r = await importTrlFiles(files, argv.length === 1 ? argv[0].replace(/\/+$/, '').split('/').pop() : undefined);
  if (!r.ok) return { code: 2, out: [], err: r.error };
  return { code: 0, out: doctorLines(r.run, diagnose(r.run)), err: null };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await main(process.argv.slice(2));
  for (const l of r.out) process.stdout.write(`${l}\n`);
  if (r.err) process.stderr.write(`${r.err}\n`);
  process.exitCode = r.code;
}
