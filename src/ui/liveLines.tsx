/**
 * The live run's per-step lines, drawn as plain SVG through recharts' own scales.
 *
 * A recharts <Line> is costly at each redraw of a streaming run: its animation wrapper measures
 * the path in the DOM (getTotalLength, a forced layout), its label list, curve, dots and active
 * dot re-render, and even hidden it recomputes its points through its own selectors, for every
 * line of every visible chart (page-bench --profile: most of a redraw's React render). Here a
 * chart's live lines are ONE hidden recharts item (LIVE_ITEM, reading liveExtent: each row's
 * lowest and highest live value), which keeps them in both axes' domains (the axes take
 * `includeHidden`) and gives the tooltip an entry wherever a live line has a value (ChartTooltip
 * takes `includeHidden`), as the <Line>s did; their legend entries come from their looks
 * (liveLegendEntries, placed by useLegendIn). LiveLines draws them all at once: one <path> a
 * line (and a line's dots), in the z-layers and with the classes of recharts' lines, inside the
 * chart's svg.recharts-surface (so the card's PNG shows them), from the chart's rows through the
 * axes' scales (useXAxisScale, useYAxisScale). A null value is skipped and the line joins its
 * neighbours (connectNulls), as the <Line>s did. While the pointer or focus is on the chart, the
 * hovered step's dots are drawn as recharts' active dots.
 */
import { memo, useContext } from 'react';
import { DefaultZIndexes, Line, ZIndexLayer, useActiveTooltipDataPoints, useXAxisScale, useYAxisScale, type LegendPayload } from 'recharts';
import { lineKey, type LineRow } from '../store/thin.ts';
import { PointingAt } from './chartHooks.ts';

/** How one live line looks: its legend name, colour, dashes, width and dots (lineKey(i) is its value in the rows). */
export interface LiveLine {
  name: string;
  color: string;
  dash?: string;
  width?: number;
  dot?: { r: number };
}

/** A data value to a pixel (an axis' scale); undefined outside its domain. */
export type Scale = (v: number) => number | undefined;

/** The width a live line is drawn at where its look does not say (recharts' lines here: 2.5). */
export const LIVE_WIDTH = 2.5;

/**
 * The pixels of line `i` through the rows: each row where the line has a value, in row order;
 * rows without one (null) are skipped, so the line joins its neighbours (connectNulls).
 */
export function livePoints(rows: readonly LineRow[], i: number, x: Scale, y: Scale): [number, number][] {
  const k = lineKey(i);
  const out: [number, number][] = [];
  for (const r of rows) {
    const v = r[k];
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    const px = x(r.step), py = y(v);
    if (px === undefined || py === undefined || !Number.isFinite(px) || !Number.isFinite(py)) continue;
    out.push([px, py]);
  }
  return out;
}

/** A pixel to 1/100 px: the path's text is short (a double's 17 digits take longer to write and parse) and draws the same. */
const px = (v: number) => Math.round(v * 100) / 100;

/** An SVG path through the points, straight segments (recharts' 'linear' curve); '' under two points (nothing to draw). */
export function livePath(points: readonly [number, number][]): string {
  if (points.length < 2) return '';
  let d = `M${px(points[0][0])},${px(points[0][1])}`;
  for (let j = 1; j < points.length; j++) d += `L${px(points[j][0])},${px(points[j][1])}`;
  return d;
}

/**
 * A row's lowest and highest live value ([lo, hi]; null where no live line has one): the value
 * the one recharts item of the live lines reads. recharts takes a [lo, hi] value into an axis'
 * domain as both ends, and the tooltip shows where it is not null.
 */
export function liveExtent(row: LineRow): [number, number] | null {
  let lo = Infinity, hi = -Infinity;
  for (const k in row) {
    if (k === 'step') continue;
    const v = row[k];
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : null;
}

/**
 * The chart's live lines as recharts knows them: one hidden <Line> reading liveExtent of the
 * chart's rows. recharts draws nothing for it (LiveLines does) and lists it nowhere (legendType
 * none), but keeps its values in the axes' domains and its tooltip entry (with includeHidden).
 */
export const LIVE_ITEM = <Line key="live" hide dataKey={liveExtent} legendType="none" dot={false} activeDot={false} isAnimationActive={false} />;

/** The live lines' legend entries, as recharts makes a <Line>'s (its name, colour and look). */
export function liveLegendEntries(lines: readonly LiveLine[]): LegendPayload[] {
  return lines.map((l, i) => ({ value: l.name, type: 'line', color: l.color, dataKey: lineKey(i), inactive: false, payload: { stroke: l.color, strokeDasharray: l.dash, strokeWidth: l.width ?? LIVE_WIDTH } }));
}

/** A chart's live lines, drawn from its rows (chartRows) through its axes' scales; memoised on the rows, the looks and the scales. */
export const LiveLines = memo(function LiveLines({ rows, lines }: { rows: readonly LineRow[]; lines: readonly LiveLine[] }) {
  const xs = useXAxisScale();
  const ys = useYAxisScale();
  const pointing = useContext(PointingAt);
  const x: Scale | null = xs ? (v) => xs(v) : null;
  const y: Scale | null = ys ? (v) => ys(v) : null;
  const pts = x && y ? lines.map((_, i) => livePoints(rows, i, x, y)) : [];
  return (
    <>
      <ZIndexLayer zIndex={DefaultZIndexes.line}>
        {pts.map((p, i) => (
          <g key={i} className="recharts-layer recharts-line live-line">
            {p.length > 1 && <path className="recharts-curve recharts-line-curve" d={livePath(p)} fill="none" stroke={lines[i].color} strokeWidth={lines[i].width ?? LIVE_WIDTH} strokeDasharray={lines[i].dash} />}
          </g>
        ))}
      </ZIndexLayer>
      {/* a line's dots above the axes, as recharts draws them (its scatter layer); no layer where no line has dots */}
      {lines.some((l) => l.dot) && <ZIndexLayer zIndex={DefaultZIndexes.scatter}>
        {pts.map((p, i) => {
          const l = lines[i];
          return l.dot ? (
            <g key={i} className="recharts-layer recharts-line-dots">
              {p.map(([cx, cy], j) => <circle key={j} className="recharts-dot recharts-line-dot" cx={cx} cy={cy} r={l.dot!.r} fill="#fff" stroke={l.color} strokeWidth={l.width ?? LIVE_WIDTH} strokeDasharray={l.dash} />)}
            </g>
          ) : null;
        })}
      </ZIndexLayer>}
      {pointing && x && y && <LiveActiveDots lines={lines} x={x} y={y} />}
    </>
  );
});

/** The hovered step's dots, as recharts draws a line's active dot (r 4, the line's colour, a white ring). */
function LiveActiveDots({ lines, x, y }: { lines: readonly LiveLine[]; x: Scale; y: Scale }) {
  const active = useActiveTooltipDataPoints<LineRow>();
  const row = active?.find((r) => r && typeof r === 'object' && 'step' in r);
  if (!row) return null;
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.activeDot}>
      {lines.map((l, i) => {
        const [p] = livePoints([row], i, x, y);
        return p ? <g key={i} className="recharts-layer recharts-active-dot"><circle className="recharts-dot" cx={p[0]} cy={p[1]} r={4} fill={l.color} stroke="#fff" strokeWidth={2} /></g> : null;
      })}
    </ZIndexLayer>
  );
}
