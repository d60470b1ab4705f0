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
export const LiveBars = memo(function LiveBars({ bars, maxMarks }: { bars: readonly AdvantageBar[]; maxMarks: number }) {
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
