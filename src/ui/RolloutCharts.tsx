/**
 * The two charts fed by the latest rollout: each answer's group advantage, and each prompt's
 * place on the mixed-group curve. A new rollout comes at every step; recharts keeps the frame and
 * the curve, and the bars and points are drawn as SVG layers through its scales (liveMarks.tsx),
 * so a redraw does not make recharts recompute the chart. While the pointer or focus is on the
 * advantages, recharts gets the bars too, for its tooltip; the theory chart's tooltip reads the
 * curve and counts the prompts at the nearest pass rate a group can have.
 */
import { useCallback, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { ComposedChart, DefaultLegendContent, Legend, Line, ReferenceLine, XAxis, YAxis, type LegendPayload } from 'recharts';
import { mixedGroupProbability } from '../tasks/metrics.ts';
import { useLab } from '../store/labStore.ts';
import { advantageFrame, advantageLayout, advantageTicks, walkKey, type AdvantageBar, type AdvantageLayout } from '../store/advantageBars.ts';
import { lineKey, type LineRow } from '../store/thin.ts';
import { axisTick, ChartTooltip, Sized, useCardView, useSeenLab, useStable } from './chartHooks.ts';
import { AXIS, ChartCard, LEGEND_STYLE, PointedLineChart, UNIT, UNIT_TICKS, X_BAND, grid, margin, xName } from './ChartCard.tsx';
import { LIVE_ITEM } from './liveLines.tsx';
import { LiveBars, LiveSymbols } from './liveMarks.tsx';
import { C, TEXT, VERDICT, fmt } from './palette.ts';

/** The advantages chart's margin, one object: recharts stores a new margin (and recomputes the whole chart) whenever the object changes. */
const ADV_MARGIN = { ...margin, top: 18 };
/** Marks are drawn up to this many answers (beyond, they would overlap). */
const MAX_MARKS = 96;
const ZERO = <ReferenceLine y={0} stroke="#000" />;

/** The layout's ticks and their names, the same objects while the groups' sizes are the same (the x axis is then unchanged). */
function useAxisOf(layout: AdvantageLayout): Pick<AdvantageLayout, 'ticks' | 'tickLabel'> {
  const kept = useRef(layout);
  if (kept.current.key !== layout.key) kept.current = layout;
  return kept.current;
}

/** The hovered answer's name, verdict and advantage ("P3.2 · correct: 0.53"). */
function advantageTip(bars: readonly AdvantageBar[]) {
  return function AdvantageTip({ active, label }: { active?: boolean; label?: unknown }) {
    const b = active && typeof label === 'number' ? bars.find((x) => x.x === label) : undefined;
    if (!b) return null;
    return (
      <div className="chart-tip" data-testid="chart-tip">
        <strong>{b.label}</strong>
        <span style={{ color: VERDICT[b.kind].text }}>{VERDICT[b.kind].word}: {fmt(b.advantage)}</span>
      </div>
    );
  };
}

/** What the keyboard's walk says of an answer: "Prompt 3, answer 2 of 8: correct, A = 0.53". */
export const answerSaid = (b: AdvantageBar) => `Prompt ${b.prompt}, answer ${b.answer} of ${b.of}: ${VERDICT[b.kind].word}, A = ${fmt(b.advantage)}`;

export function AdvantagesChart() {
  const view = useCardView();
  const rollout = useSeenLab(view, (s) => s.lastRollout);
  const layout = useMemo(() => advantageLayout(rollout?.groups ?? []), [rollout]);
  // the keyboard's place among the answers, on this rollout's layout (a new rollout starts it afresh)
  const [walk, setWalk] = useState<{ layout: AdvantageLayout; at: number } | null>(null);
  const at = walk && walk.layout === layout ? layout.bars[walk.at] ?? null : null;
  // the keys are read where the chart is drawn, which may be a turn behind (drawTurns.ts): the
  // handler there is one that never changes and walks from where the walk is now
  const walkNow = useRef({ layout, at: at ? walk!.at : null });
  walkNow.current = { layout, at: at ? walk!.at : null };
  const onKey = useCallback((e: KeyboardEvent) => {
    const { layout, at } = walkNow.current;
    const next = walkKey(e.key, at, layout.bars.length);
    if (next === undefined) return;
    e.preventDefault();
    setWalk({ layout, at: next });
  }, []);
  const { ticks, tickLabel } = useAxisOf(layout);
  const rows = useMemo(() => layout.bars.map((b) => ({ step: b.x, [lineKey(0)]: b.advantage }) as LineRow), [layout]);
  const drawn = useRef<LineRow[]>([]);
  const frame = useMemo(() => (drawn.current = advantageFrame(layout, drawn.current)), [layout]);
  const yAxis = useMemo(() => <YAxis domain={['dataMin', 'dataMax']} ticks={advantageTicks(frame)} niceTicks="none" tick={AXIS} tickFormatter={axisTick} width={44} interval={0} includeHidden />, [frame]);
  const xAxis = useMemo(() => <XAxis dataKey="step" type="number" domain={['dataMin', 'dataMax']} ticks={ticks} tickFormatter={tickLabel} tick={AXIS} interval={0} />, [ticks, tickLabel]);
  const tip = useMemo(() => advantageTip(layout.bars), [layout]);
  const body = useMemo(() => (
    <PointedLineChart rows={rows} frame={frame} margin={ADV_MARGIN} keyboard={false}>
      {grid}
      {xAxis}
      {yAxis}
      {ZERO}
      <ChartTooltip content={tip} />
      {LIVE_ITEM}
      <LiveBars bars={layout.bars} maxMarks={MAX_MARKS} at={at} />
    </PointedLineChart>
  ), [rows, frame, xAxis, yAxis, tip, layout, at]);
  return (
    <ChartCard id="advantages" view={view} title={`Group advantages, step ${rollout?.step ?? '–'}`} question="Which answers does this update push up (A > 0) or down (A < 0)? One bar per sample, grouped by prompt; ✓ correct, ✗ wrong, ∅ unparseable." points={layout.bars.length}
      footer={<p className="answer-walk" data-testid="answer-walk" role="status">{at ? answerSaid(at) : ''}</p>}>
      {/* walked answer by answer with the keyboard (role "application": the page's own arrow keys stay out), each answer announced below */}
      <div className="walk" role="application" tabIndex={0} onKeyDown={onKey}
        aria-label="Group advantages, one bar per answer: → and ← walk the answers, Home and End go to the first and the last">
        {body}
      </div>
    </ChartCard>
  );
}

const PROMPTS = "this step's prompts";
/** The theory chart's legend: the curve and the prompts (drawn by LiveSymbols, not a recharts item). */
function theoryLegend(G: number) {
  const payload: LegendPayload[] = [
    { value: `P(mixed), G = ${G}`, type: 'line', color: C.blue, dataKey: 'curve', payload: { strokeWidth: 2.5 } },
    { value: PROMPTS, type: 'diamond', color: C.vermillion, dataKey: 'prompt' },
  ];
  return <Legend wrapperStyle={LEGEND_STYLE} content={(p) => <DefaultLegendContent {...p} payload={payload} />} />;
}

/** One prompt of the latest step: its pass rate p and P(mixed) at p for its group's size. */
interface PromptPoint { p: number; prompt: number }

/**
 * The theory chart's tooltip at the hovered pass rate p: the curve's height there, and how many of
 * this step's prompts had the nearest pass rate a group of G can have (k of G correct).
 */
function theoryTip(G: number, points: readonly PromptPoint[]) {
  return function TheoryTip({ active, label }: { active?: boolean; label?: unknown }) {
    if (!active || typeof label !== 'number') return null;
    const k = Math.round(label * G);
    const here = points.filter((q) => Math.round(q.p * G) === k).length;
    return (
      <div className="chart-tip" data-testid="chart-tip">
        <strong>pass rate p = {fmt(label)}</strong>
        <span style={{ color: C.blue }}>P(mixed), G = {G}: {fmt(mixedGroupProbability(label, G))}</span>
        <span style={{ color: TEXT.vermillion }}>{here} of {points.length} prompts at {k} of {G} correct (p = {fmt(k / G)})</span>
      </div>
    );
  };
}

export function TheoryChart() {
  const view = useCardView();
  const G = useLab((s) => s.settings.numGenerations);
  const rollout = useSeenLab(view, (s) => s.lastRollout);
  const curve = useMemo(() => Array.from({ length: 101 }, (_, i) => ({ p: i / 100, curve: mixedGroupProbability(i / 100, G) })), [G]);
  const legendEl = useMemo(() => theoryLegend(G), [G]);
  const points = useStable(useMemo((): PromptPoint[] => (rollout ? rollout.groups.map((g) => {
    const p = g.answers.filter((a) => a.correct).length / g.answers.length;
    return { p, prompt: mixedGroupProbability(p, rollout.G) };
  }) : []), [rollout]));
  const marks = useMemo(() => points.map((q) => ({ x: q.p, y: q.prompt })), [points]);
  const tip = useMemo(() => theoryTip(G, points), [G, points]);
  const body = useMemo(() => (
    <Sized>
      <ComposedChart margin={margin}>
        {grid}
        <XAxis dataKey="p" type="number" domain={UNIT} tick={AXIS} tickFormatter={axisTick} interval={0} height={X_BAND} label={xName('pass rate p')} />
        <YAxis domain={UNIT} ticks={UNIT_TICKS} niceTicks="none" tick={AXIS} tickFormatter={axisTick} width={44} interval={0} />
        <ChartTooltip content={tip} />
        {legendEl}
        <Line data={curve} dataKey="curve" name={`P(mixed), G = ${G}`} stroke={C.blue} strokeWidth={2.5} dot={false} isAnimationActive={false} />
        <LiveSymbols points={marks} type="diamond" fill={C.vermillion} />
      </ComposedChart>
    </Sized>
  ), [curve, marks, G, legendEl, tip]);
  return (
    <ChartCard id="theory" view={view} title={`Theory: P(mixed) = 1 − p^G − (1 − p)^G, G = ${G}`} question="Where are this step's prompts on the curve? Points: each prompt's pass rate in the latest step. Prompts near p = 0 or 1 teach nothing. The curve bends down (it is concave), so the average height of the points is below the curve's height at their average p: why 1 − p̄^G − (1 − p̄)^G from the batch pass rate over-predicts the mixed share when prompts differ in difficulty (Jensen's gap, on the groups chart)." points={points.length}>
      {body}
    </ChartCard>
  );
}
