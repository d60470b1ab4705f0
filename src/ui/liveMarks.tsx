/**
 * The marks of the charts fed by the latest rollout (the group advantages' bars, the theory
 * chart's prompts), drawn as plain SVG through recharts' scales, as liveLines.tsx draws the
 * per-step lines: those charts get a new rollout at every step, and as recharts items (a <Bar>
 * with a <Cell> an answer, a <Scatter>) every redraw made recharts recompute the whole chart.
 * recharts keeps only what changes rarely (the axes' frame, the curve); these layers sit inside
 * the chart's svg.recharts-surface (so the card's PNG shows them), in recharts' z-layers.
 */
import { memo } from 'react';
import { DefaultZIndexes, Symbols, ZIndexLayer, useXAxisScale, useYAxisScale } from 'recharts';
import type { AdvantageBar } from '../store/advantageBars.ts';
import { VERDICT } from './palette.ts';

/** A pixel to 1/100 px (short path text, drawn the same). */
const px = (v: number) => Math.round(v * 100) / 100;

/** The bars of one colour as one SVG path: a rectangle a bar from 0 to its value, a pixel's gap between neighbours. */
export function barsPath(bars: readonly AdvantageBar[], x: (v: number) => number, y: (v: number) => number): string {
  const y0 = y(0);
  let d = '';
  for (const b of bars) {
    if (b.advantage === null || b.advantage === 0) continue;
    const x0 = x(b.x - 0.5) + 0.5, x1 = x(b.x + 0.5) - 0.5, y1 = y(b.advantage);
    if (![x0, x1, y0, y1].every(Number.isFinite)) continue;
    d += `M${px(x0)},${px(y0)}H${px(Math.max(x0 + 1, x1))}V${px(y1)}H${px(x0)}Z`;
  }
  return d;
}

const KINDS = ['correct', 'wrong', 'unparseable'] as const;

/**
 * The advantages' bars (one path a verdict, in its colour) and, up to `maxMarks` answers, each
 * answer's verdict mark above a bar that rises or below one that falls (drawn where A = 0 too:
 * an all-equal group draws no bar, but its marks).
 */
export const LiveBars = memo(function LiveBars({ bars, maxMarks, at = null }: { bars: readonly AdvantageBar[]; maxMarks: number; at?: AdvantageBar | null }) {
  const xs = useXAxisScale();
  const ys = useYAxisScale();
  if (!xs || !ys) return null;
  const x = (v: number) => xs(v) ?? NaN, y = (v: number) => ys(v) ?? NaN;
  return (
    <>
      <ZIndexLayer zIndex={DefaultZIndexes.bar}>
        <g className="recharts-layer recharts-bar live-bars">
          {KINDS.map((k) => {
            const d = barsPath(bars.filter((b) => b.kind === k), x, y);
            return d ? <path key={k} className="recharts-rectangle recharts-bar-rectangle" d={d} fill={VERDICT[k].color} data-kind={k} /> : null;
          })}
        </g>
      </ZIndexLayer>
      {at && <AnswerOutline bar={at} x={x} y={y} />}
      {bars.length <= maxMarks && (
        <ZIndexLayer zIndex={DefaultZIndexes.scatter}>
          <g className="recharts-layer verdict-marks">
            {bars.map((b) => (b.advantage === null ? null : (
              <text key={b.x} x={px(x(b.x))} y={px(y(b.advantage) + (b.advantage < 0 ? 16 : -5))} textAnchor="middle" fontSize={13} fill="#000" className="verdict-mark">{VERDICT[b.kind].mark}</text>
            )))}
          </g>
        </ZIndexLayer>
      )}
    </>
  );
});

/** The answer the keyboard is on: an outline around its slot, from its bar's end to the zero line (and its verdict mark). */
function AnswerOutline({ bar, x, y }: { bar: AdvantageBar; x: (v: number) => number; y: (v: number) => number }) {
  const x0 = x(bar.x - 0.5), x1 = x(bar.x + 0.5), ya = y(bar.advantage ?? 0), y0 = y(0);
  if (![x0, x1, ya, y0].every(Number.isFinite)) return null;
  const top = Math.min(ya, y0) - 20, bottom = Math.max(ya, y0) + 20; // room for the mark above or below
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.scatter}>
      <rect className="answer-outline" data-testid="answer-outline" x={px(x0)} y={px(top)} width={px(Math.max(2, x1 - x0))} height={px(bottom - top)} fill="none" stroke="#000" strokeWidth={2} />
    </ZIndexLayer>
  );
}

/** Points drawn as recharts' Scatter draws them (its symbol, size 64), at (x, y) through the axes' scales. */
export const LiveSymbols = memo(function LiveSymbols({ points, type, fill }: { points: readonly { x: number; y: number }[]; type: 'diamond' | 'circle'; fill: string }) {
  const xs = useXAxisScale();
  const ys = useYAxisScale();
  if (!xs || !ys) return null;
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.scatter}>
      <g className="recharts-layer recharts-scatter live-symbols">
        {points.map((p, i) => {
          const cx = xs(p.x), cy = ys(p.y);
          return cx === undefined || cy === undefined ? null : <Symbols key={i} type={type} size={64} cx={px(cx)} cy={px(cy)} fill={fill} />;
        })}
      </g>
    </ZIndexLayer>
  );
});
