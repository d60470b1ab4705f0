/**
 * The imported run (TRL, src/store/importedRun.ts) on the lab's charts: its lines beside the live
 * run's, dashed and labelled "<series>, TRL run: <name>"; the doctor's marks (a vertical line
 * where each stop signal first fires, on the chart it concerns); and the x axis in steps, in % of each run's steps, or in
 * tokens generated (num_tokens) for every per-step chart. Plain functions return recharts
 * elements (Line, ReferenceLine), placed by the charts among their own children. With an import the
 * x axis is by default % of each run's steps (a 6-step browser run and a 500-step import both span
 * the width, and the axis says so); every tick is a short number (chartHooks.ts axisTick).
 */
import { useMemo } from 'react';
import { Line, ReferenceLine, XAxis, YAxis } from 'recharts';
import type { StepMetrics } from '../rl/metrics.ts';
import type { DoctorFinding } from '../rl/doctor.ts';
import { onAxis, useImported, type ImportedRunView, type XAxisMode } from '../store/importedRun.ts';
import { stepLine, type LinePoint } from '../store/thin.ts';
import { AXIS, X_BAND, atStep, fin, xName, type TipEntry } from './ChartCard.tsx';
import { axisTick } from './chartHooks.ts';
import { C } from './palette.ts';

/** One line the imported run draws on a chart (`right`: on an axis at the right, e.g. a share on a token-length chart). */
export interface TrlSeries {
  name: string;
  value: (m: StepMetrics) => number;
  color: string;
  dash?: string;
  right?: boolean;
}

/** The chosen x axis (store/importedRun.ts XAxisMode). */
export const useXMode = () => useImported((s) => s.xAxis);

/** The lab's x axis: the per-step histories keyed by the step, by % of the run's steps, or by num_tokens. */
export function useOnAxis<M extends { step: number }>(history: readonly M[], steps: readonly StepMetrics[]): readonly M[] {
  const x = useXMode();
  return useMemo(() => onAxis(x, history, steps), [x, history, steps]);
}

/** The axis label says what x is: with an import, "% of each run's steps" puts a 6-step browser run and a 500-step import side by side. */
export const X_LABEL: Record<XAxisMode, string> = { step: 'step', progress: "% of each run's steps", tokens: 'tokens' };

/**
 * The per-step charts' x axis, in steps, % of each run's steps, or tokens; ticks are short numbers
 * (axisTick), all shown (interval 0: no label is measured in the DOM at each redraw to drop
 * overlapping ones; recharts' five nice ticks never overlap). Not niceTicks="none": the axis then
 * ticks every row. includeHidden: the live lines are hidden recharts items (liveLines.tsx) whose steps span the axis.
 */
export function useXAxis() {
  const x = useXMode();
  return useMemo(() => (x === 'progress'
    ? <XAxis dataKey="step" type="number" domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} tick={AXIS} tickFormatter={axisTick} interval={0} includeHidden height={X_BAND} label={xName(X_LABEL[x])} />
    : <XAxis dataKey="step" type="number" domain={['dataMin', 'dataMax']} tick={AXIS} allowDecimals={false} tickFormatter={axisTick} interval={0} includeHidden height={X_BAND} label={xName(X_LABEL[x])} />), [x]);
}

/**
 * The entry of a history at a hovered x: the exact step (or token count) on those axes; in % of
 * each run's steps — where two runs' points rarely share an x — the nearest entry within half the
 * history's spacing, so the tooltip shows both runs at the same share of their steps.
 */
export function atX<M extends { step: number }>(mode: XAxisMode, history: readonly M[], x: number): M | undefined {
  if (mode !== 'progress') return atStep(history, x);
  const n = history.length;
  if (!n) return undefined;
  let lo = 0, hi = n; // the first entry at or after x
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (history[mid].step < x) lo = mid + 1;
    else hi = mid;
  }
  const best = [lo - 1, lo].filter((i) => i >= 0 && i < n).sort((a, b) => Math.abs(history[a].step - x) - Math.abs(history[b].step - x))[0];
  const half = n > 1 ? (history[n - 1].step - history[0].step) / (n - 1) / 2 : 0.5;
  return Math.abs(history[best].step - x) <= half + 1e-9 ? history[best] : undefined;
}

/** The tooltip's heading for a hovered x: "step 12", "50% of each run's steps" (each run's nearest point), "1.2M tokens". */
export function useXHead(): (x: number) => string {
  const x = useXMode();
  return useMemo(() => (x === 'progress' ? (v: number) => `${axisTick(v)}% of each run's steps` : x === 'tokens' ? (v: number) => `${axisTick(v)} tokens` : (v: number) => `step ${v}`), [x]);
}

/** The imported run as the x axis shows it (steps or tokens), and where each finding falls on it. */
export interface TrlOnAxis {
  run: ImportedRunView;
  mode: XAxisMode;
  steps: readonly StepMetrics[];
  evals: readonly ImportedRunView['evals'][number][];
  /** Each finding's first step on the x axis (its num_tokens in tokens mode). */
  at: (f: DoctorFinding) => number | null;
}

export function useTrl(): TrlOnAxis | null {
  const run = useImported((s) => s.run);
  const x = useXMode();
  return useMemo(() => {
    if (!run) return null;
    const steps = onAxis(x, run.steps, run.steps);
    const evals = onAxis(x, run.evals, run.steps);
    const at = (f: DoctorFinding) => (x === 'step' ? f.firstStep : fin(onAxis(x, [{ step: f.firstStep }], run.steps)[0]?.step ?? NaN));
    return { run, mode: x, steps, evals, at };
  }, [run, x]);
}

/** Each series' thinned line and its legend name. */
export interface TrlLine extends TrlSeries {
  line: LinePoint[];
}
export function trlLines(trl: TrlOnAxis | null, series: readonly TrlSeries[] | undefined): TrlLine[] {
  if (!trl || !series) return [];
  return series.map((sr) => ({ ...sr, name: `${sr.name}, ${trl.run.label}`, line: stepLine(trl.steps, sr.value) }));
}

/** The recharts lines (dashed: another run; a right axis, 0–1 unless given, when a series needs one). */
export function trlLineElements(lines: readonly TrlLine[], rightDomain: [number | 'auto', number | 'auto'] = [0, 1]) {
  const right = lines.some((l) => l.right);
  return [
    ...(right ? [<YAxis key="trl-right" yAxisId="right" orientation="right" domain={rightDomain} tick={AXIS} tickFormatter={axisTick} width={44} interval={0} />] : []),
    ...lines.map((l, i) => <Line key={`trl${i}`} data={l.line} dataKey="v" name={l.name} yAxisId={l.right ? 'right' : 0} stroke={l.color} strokeDasharray={l.dash ?? '9 4'} strokeWidth={2.5} dot={false} isAnimationActive={false} connectNulls />),
  ];
}

/** The imported run's values at the hovered step (the tooltip). */
export function trlTip(trl: TrlOnAxis | null, lines: readonly TrlLine[], step: number): TipEntry[] {
  if (!trl || !lines.length) return [];
  const m = atX(trl.mode, trl.steps, step);
  return lines.map((l) => ({ name: l.name, color: l.color, value: m ? fin(l.value(m)) : undefined }));
}

/** The doctor's marks on one chart: a vertical line where each of its signals first fires. */
export function doctorMarks(trl: TrlOnAxis | null, chart: string) {
  if (!trl) return [];
  return trl.run.diagnosis.findings.filter((f) => f.chart === chart).flatMap((f) => {
    const x = trl.at(f);
    return x === null ? [] : [<ReferenceLine key={`doc-${f.id}`} x={x} stroke={C.vermillion} strokeWidth={2} strokeDasharray="3 3" className="doctor-mark" label={{ value: `⚑ ${f.label}`, position: 'insideTopLeft', fontSize: 12, fill: C.vermillion }} />];
  });
}
