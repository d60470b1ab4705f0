/**
 * The parts every chart card is made of: the card itself (title, question, stop signals, PNG
 * export, drawn only where a student can see it), the shared axes and legends, and the
 * per-step tooltip (the hovered step's exact values, from the whole history).
 */
import { memo, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { CartesianGrid, DefaultLegendContent, Legend, LineChart, type DefaultLegendContentProps, type CartesianGridProps } from 'recharts';
import type { ChartId } from '../rl/lessons.ts';
import { getLesson } from '../rl/lessons.ts';
import { useLab } from '../store/labStore.ts';
import { useImported } from '../store/importedRun.ts';
import { download } from '../store/exports.ts';
import { panelPng } from './panelPng.ts';
import { BodySize, PointingAt, Sized, useBoxSize, useLabDerived, type CardView } from './chartHooks.ts';
import { fmt } from './palette.ts';
import { useDrawTurn } from './drawTurns.ts';
import { withSteps, type LinePoint, type LineRow } from '../store/thin.ts';
import { liveLegendEntries, type LiveLine } from './liveLines.tsx';
import { chartFrame, sameFrame, withFrame } from '../store/chartFrame.ts';

/** The look of every tick label. */
const TICK_STYLE = { fontSize: 15, fill: '#111' };
/** The tick props recharts hands a tick renderer (the ones drawn here). */
interface TickProps { x?: number | string; y?: number | string; textAnchor?: 'start' | 'middle' | 'end' | 'inherit'; verticalAnchor?: string; payload?: { value?: unknown }; index?: number; tickFormatter?: (v: unknown, i: number) => string; className?: string }
/** recharts' Text places a one-line label by its vertical anchor so (capHeight 0.71em). */
const TICK_DY: Record<string, string> = { start: '0.71em', middle: '0.355em', end: '0em' };
/**
 * Every chart's tick label (the axes' `tick`), drawn as the plain SVG text recharts' Text draws for
 * a one-line label, with its classes: recharts' Text measures each label's words in the DOM when
 * it mounts (a forced layout), and on a sliding x axis every label is new at every redraw.
 */
export function AXIS(p: TickProps) {
  const v = p.payload?.value;
  const label = p.tickFormatter ? p.tickFormatter(v, p.index ?? 0) : String(v ?? '');
  return (
    <text x={p.x} y={p.y} textAnchor={p.textAnchor} fill={TICK_STYLE.fill} fontSize={TICK_STYLE.fontSize} stroke="none" className={`recharts-text ${p.className ?? 'recharts-cartesian-axis-tick-value'}`}>
      <tspan x={p.x} dy={TICK_DY[p.verticalAnchor ?? 'end'] ?? '0em'}>{label}</tspan>
    </text>
  );
}
/** A sentence with `key names` set as code (as text: never HTML). */
const withCode = (text: string) => text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
export const H = 230;
export const fin = (x: number) => (Number.isFinite(x) ? x : null);

/**
 * A chart card. `view` (useCardView) is the chart's: the chart reads the store through it
 * (useSeenLab), so while a run streams a card off screen keeps what it last drew (data-frozen).
 */
export const ChartCard = memo(function ChartCard({ id, view, title, question, points, children, controls, footer, height = H }: { id: ChartId; view: CardView; title: string; question: string; points: number; children: ReactNode; controls?: ReactNode; footer?: ReactNode; height?: number }) {
  const mine = useLabDerived((s) => s.signals, (all) => all.filter((sig) => sig.chart === id));
  const imported = useImported((s) => s.run);
  const doctor = useMemo(() => imported?.diagnosis.findings.filter((f) => f.chart === id) ?? [], [imported, id]);
  const lessonId = useLab((s) => s.lessonId);
  const highlight = lessonId ? getLesson(lessonId)?.charts.includes(id) : false;
  const ref = useRef<HTMLDivElement>(null);
  const [pointing, setPointing] = useState(false); // the tooltip is mounted only then (ChartTooltip)
  // The chart's data changes as the pointer comes in (PointedLineChart: from the frame to the rows).
  // recharts keeps the hovered row by its index, found in the data it has when it handles the pointer
  // (the mouse events that follow this pointer event): the change lands first, synchronously, or the
  // tooltip would name the frame's first step wherever the pointer is.
  const point = () => flushSync(() => setPointing(true));
  const size = useBoxSize(ref); // known before the chart's first data: the chart mounts at its size in its turn (Sized)
  // The chart as drawn on its last turn: one chart per task (drawTurns.ts). It is drawn while it has
  // no points too, hidden behind "No data yet": mounting a recharts chart takes several render passes
  // (40–60 ms of main-thread work a chart here), an update with new points a fraction of that, so the
  // mount is paid once as the page opens, not at the first step of every run, when the engine
  // competes for the same cores (a 2-core machine stretched those mounts to 150–250 ms tasks).
  // A card whose run is reset keeps its last drawing, hidden, and updates it from there at the new
  // run's first points: nothing is drawn for an empty chart nobody sees, but once, as its mount.
  const has = points > 0;
  const next = useMemo(() => ({ chart: children, has }), [children, has]);
  const last = useRef<typeof next | null>(null);
  const drawing = useDrawTurn<typeof next | null>(has || !last.current ? next : last.current, null, view.live, pointing);
  last.current = drawing;
  const shown = has && drawing?.has ? null : <p className="empty">{has ? 'Drawing…' : 'No data yet: press Play or Step.'}</p>;
  // (a hidden chart is not pointed at: no tooltip is mounted in it, and it does not redraw for the pointer)
  async function png() {
    const card = ref.current?.closest('section');
    if (card) download(`rlvr-lab-${id}.png`, await panelPng(card), 'image/png');
  }
  return (
    <section className={`chart-card${highlight ? ' highlight' : ''}`} data-testid={`chart-${id}`} data-points={points} data-frozen={!view.live || undefined} aria-label={title} ref={view.ref}>
      <header>
        <h3 data-png-line="h">{title}</h3>
        <button className="small" onClick={() => void png()} aria-label={`Save the ${title} chart as PNG`} disabled={!points}>PNG</button>
      </header>
      <p className="question">{question}</p>
      {controls}
      {mine.map((sig) => (
        <div key={sig.id} className="signal" role="alert" data-testid={`signal-${sig.id}`}>
          <strong>⚠ Stop signal (step {sig.step}):</strong> {sig.message}
          <div className="evidence">{sig.readout}</div>
        </div>
      ))}
      {doctor.map((f) => (
        <div key={f.id} className="signal doctor" data-testid={`doctor-${f.id}`}>
          <strong>⚑ Run doctor, {imported!.label} (from step {f.firstStep}{f.atEnd ? ', still at its end' : ''}): {f.label}.</strong> {withCode(f.message)}
        </div>
      ))}
      <div className="chart-body" ref={ref} style={{ height }} data-pointing={pointing || undefined} data-blank={shown ? true : undefined}
        onPointerEnter={point} onPointerLeave={() => setPointing(false)}
        onFocus={point} onBlur={(e) => { if (!e.currentTarget.contains(e.relatedTarget)) setPointing(false); }}>
        <BodySize.Provider value={size}><PointingAt.Provider value={pointing && !shown}>{drawing?.chart}{shown}</PointingAt.Provider></BodySize.Provider>
      </div>
      {footer}
    </section>
  );
});

/**
 * An x axis's band and its name: the tick labels at the top of the band, the axis's name ("step",
 * "pass rate p") under them at the right, inside the band, so it is drawn over neither the last
 * tick's label nor the legend below the band (page.spec checks every chart for both).
 */
export const X_BAND = 44;
export const xName = (value: string) => ({ value, position: 'insideBottomRight' as const, offset: 6, fontSize: 14 });
export const LEGEND_STYLE = { fontSize: 14 };
/** A share's y axis: 0 to 1 with fixed ticks (no nice-tick search at each redraw). */
export const UNIT: [number, number] = [0, 1];
export const UNIT_TICKS = [0, 0.25, 0.5, 0.75, 1];
/**
 * A legend in the order the lines are declared (recharts sorts by name otherwise): `names` are
 * their names in order, the live lines' first (`live`: drawn by LiveLines, their entries made
 * from their looks, ahead of recharts' own items). The element is kept while the names are the
 * same: a new sorter would make recharts store new legend settings and draw the chart once more.
 */
export function useLegendIn(names: readonly string[], live: readonly LiveLine[] = NO_LIVE) {
  const key = names.join('\n');
  return useMemo(() => {
    const mine = liveLegendEntries(live);
    const content = live.length ? (p: DefaultLegendContentProps) => <DefaultLegendContent {...p} payload={[...mine, ...(p.payload ?? [])]} /> : undefined;
    return <Legend wrapperStyle={LEGEND_STYLE} itemSorter={(item) => names.indexOf(String(item.value))} content={content} />;
  }, [key, live]);
}
const NO_LIVE: readonly LiveLine[] = [];
export const margin = { top: 8, right: 16, bottom: 4, left: 0 };

/** One entry of a per-step tooltip: a series' exact value at the hovered step (undefined: the series has no point there). */
export interface TipEntry {
  name: string;
  color: string;
  value: number | null | undefined;
}

/**
 * The tooltip of a per-step chart: the hovered step and every series' exact value there, read
 * from the whole history (the lines are thinned, so a step one line keeps another may not);
 * `head` names the hovered x (the x axis may be % of each run's steps, or tokens).
 */
export function stepTip(at: (step: number) => TipEntry[], head: (x: number) => string = (x) => `step ${x}`) {
  return function StepTip({ active, label }: { active?: boolean; label?: unknown }) {
    if (!active || typeof label !== 'number') return null;
    const entries = at(label).filter((e) => e.value !== undefined);
    return (
      <div className="chart-tip" data-testid="chart-tip">
        <strong>{head(label)}</strong>
        {entries.map((e) => <span key={e.name} style={{ color: e.color }}>{e.name}: {fmt(e.value)}</span>)}
      </div>
    );
  };
}

/** The recorded metrics of `step` in a history (in step order), if it is there. */
export function atStep<M extends { step: number }>(history: readonly M[], step: number): M | undefined {
  let lo = 0, hi = history.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = history[mid].step;
    if (s === step) return history[mid];
    if (s < step) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/**
 * A per-step LineChart. The live run's lines are the chart's rows (`rows`: chartRows, each line's
 * value under lineKey(i) at steps shared by all lines), drawn by LiveLines through recharts'
 * scales (liveLines.tsx: recharts knows them as one hidden item). recharts' data is the rows'
 * frame (chartFrame.ts, or `frame` where the chart makes its own: the advantages' bars): it stays
 * the same object until a line leaves it, so a redraw of a streaming run recomputes nothing in
 * recharts and redraws only the live lines. Lines that change rarely (evaluations, finished runs,
 * an import) carry their own `data`; `others` are those lines' points. While the pointer or focus
 * is on the chart, recharts gets the rows, the others' steps and the frame (the tooltip finds the
 * hovered step among the rows; the axes stay as they are). `keyboard`: recharts' own arrow keys
 * over the rows (off where the chart has its own walk: the advantages').
 */
export function PointedLineChart({ rows, others = NONE, frame: made, margin: m = margin, keyboard = true, children }: { rows: readonly LineRow[]; others?: readonly (readonly LinePoint[])[]; frame?: LineRow[]; margin?: typeof margin; keyboard?: boolean; children: ReactNode }) {
  const pointing = useContext(PointingAt);
  const frame = useKept(made ?? chartFrame(rows));
  const data = useMemo(() => (pointing ? withFrame(withSteps(rows, others), frame) : frame), [pointing, rows, others, frame]);
  return (
    <Sized>
      <LineChart data={data as LineRow[]} margin={m} accessibilityLayer={keyboard}>{children}</LineChart>
    </Sized>
  );
}
const NONE: readonly (readonly LinePoint[])[] = [];
/** The frame, the same object while it is the same (sameFrame). */
function useKept(next: LineRow[]): readonly LineRow[] {
  const kept = useRef<LineRow[]>([]);
  if (!sameFrame(kept.current, next)) kept.current = next;
  return kept.current;
}
type Lines<K extends 'verticalCoordinatesGenerator' | 'horizontalCoordinatesGenerator'> = NonNullable<CartesianGridProps[K]>;
type GridAxis = Parameters<Lines<'verticalCoordinatesGenerator'>>[0]['xAxis'];
/**
 * Where a grid draws its lines along an axis: at the axis's ticks, through its scale, and at the
 * plot's two edges. This is where recharts' own generator puts them, without its detour: it runs
 * the axis's tick layout again (getTicks), which measures every tick label in the DOM, a forced
 * layout in each chart's every redraw (10–40 ms a chart on a 2-core machine, in the profile).
 */
function gridLines(axis: GridAxis, from: number, size: number): number[] {
  const scale = axis?.scale;
  const lines: number[] = [];
  if (scale) {
    for (const v of axis.ticks ?? axis.niceTicks ?? scale.ticks?.(axis.tickCount) ?? []) {
      const at = scale.map(v);
      if (typeof at === 'number' && Number.isFinite(at)) lines.push(at);
    }
  }
  for (const edge of [from, from + size]) if (!lines.includes(edge)) lines.push(edge);
  return lines;
}
const vertical: Lines<'verticalCoordinatesGenerator'> = ({ xAxis, offset }) => gridLines(xAxis, offset.left, offset.width);
const horizontal: Lines<'horizontalCoordinatesGenerator'> = ({ yAxis, offset }) => gridLines(yAxis, offset.top, offset.height);
/** The charts' grid: one element, so a redraw does not render it anew. */
export const grid = <CartesianGrid strokeDasharray="3 3" verticalCoordinatesGenerator={vertical} horizontalCoordinatesGenerator={horizontal} />;
