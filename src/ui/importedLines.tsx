/**
 * The imported run (TRL, src/store/importedRun.ts) on the lab's charts: its lines beside the live
 * run's, dashed and labelled "<series>, TRL run: <name>"; the doctor's marks (a vertical line
 * where each stop signal first fires, on the chart it concerns); and the x axis in steps or in
 * tokens generated (num_tokens) for every per-step chart. Plain functions return recharts
 * elements (Line, ReferenceLine), placed by the charts among their own children.
 */
import { useMemo } from 'react';
import { Line, ReferenceLine, XAxis, YAxis } from 'recharts';
import type { StepMetrics } from '../rl/metrics.ts';
import type { DoctorFinding } from '../rl/doctor.ts';
import { onTokenAxis, useImported, type ImportedRunView, type XAxisMode } from '../store/importedRun.ts';
import { stepLine, type LinePoint } from '../store/thin.ts';
import { AXIS, atStep, fin, type TipEntry } from './ChartCard.tsx';
import { C } from './palette.ts';

/** One line the imported run draws on a chart (`right`: on a 0–1 axis at the right, e.g. a share on a token-length chart). */
export interface TrlSeries {
  name: string;
  value: (m: StepMetrics) => number;
  color: string;
  dash?: string;
  right?: boolean;
}

/** The lab's x axis in tokens: the per-step histories keyed by num_tokens instead of the step. */
export function useOnAxis<M extends { step: number }>(history: readonly M[], steps: readonly StepMetrics[]): readonly M[] {
  const x = useImported((s) => s.xAxis);
  return useMemo(() => (x === 'tokens' ? onTokenAxis(history, steps) : history), [x, history, steps]);
}

const X_LABEL: Record<XAxisMode, string> = { step: 'step', tokens: 'tokens' };

/** The per-step charts' x axis, in steps or tokens. */
export function useXAxis() {
  const x = useImported((s) => s.xAxis);
  return useMemo(() => <XAxis dataKey="step" type="number" domain={['dataMin', 'dataMax']} tick={AXIS} allowDecimals={false} tickFormatter={x === 'tokens' ? compact : undefined} label={{ value: X_LABEL[x], position: 'insideBottomRight', offset: -4, fontSize: 14 }} />, [x]);
}
const compact = (v: number) => (Math.abs(v) >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : Math.abs(v) >= 1e3 ? `${(v / 1e3).toFixed(0)}k` : String(v));

/** The imported run as the x axis shows it (steps or tokens), and where each finding falls on it. */
export interface TrlOnAxis {
  run: ImportedRunView;
  steps: readonly StepMetrics[];
  evals: readonly ImportedRunView['evals'][number][];
  /** Each finding's first step on the x axis (its num_tokens in tokens mode). */
  at: (f: DoctorFinding) => number | null;
}

export function useTrl(): TrlOnAxis | null {
  const run = useImported((s) => s.run);
  const x = useImported((s) => s.xAxis);
  return useMemo(() => {
    if (!run) return null;
    const tokens = x === 'tokens';
    const steps = tokens ? onTokenAxis(run.steps, run.steps) : run.steps;
    const evals = tokens ? onTokenAxis(run.evals, run.steps) : run.evals;
    const at = (f: DoctorFinding) => (tokens ? fin(atStep(run.steps, f.firstStep)?.num_tokens ?? NaN) : f.firstStep);
    return { run, steps, evals, at };
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

/** The recharts lines (dashed: another run; a right axis when a series needs one). */
export function trlLineElements(lines: readonly TrlLine[]) {
  const right = lines.some((l) => l.right);
  return [
    ...(right ? [<YAxis key="trl-right" yAxisId="right" orientation="right" domain={[0, 1]} tick={AXIS} width={40} />] : []),
    ...lines.map((l, i) => <Line key={`trl${i}`} data={l.line} dataKey="v" name={l.name} yAxisId={l.right ? 'right' : 0} stroke={l.color} strokeDasharray={l.dash ?? '9 4'} strokeWidth={2.5} dot={false} isAnimationActive={false} connectNulls />),
  ];
}

/** The imported run's values at the hovered step (the tooltip). */
export function trlTip(trl: TrlOnAxis | null, lines: readonly TrlLine[], step: number): TipEntry[] {
  if (!trl || !lines.length) return [];
  const m = atStep(trl.steps, step);
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
