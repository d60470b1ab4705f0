/**
 * One lesson variant's pooled runs as a strip plot (recharts): each run's claim number is a point
 * (one per seed; ✓ held in green, ✗ not in vermillion, each with its mark in the legend, never
 * colour alone) on one axis, against the claim's threshold as a dashed line, with the class's mean
 * and its 90 % interval across students as a shaded band (pool.ts). Points are spread up and down
 * by their seed only, so the same paste draws the same picture.
 */
import { CartesianGrid, ReferenceArea, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis } from 'recharts';
import type { VariantPool } from '../class/pool.ts';
import { thresholdText } from '../class/claimNumber.ts';
import { axisTick } from './chartHooks.ts';
import { C, TEXT } from './palette.ts';

/** A seed's height in the strip, in [0.15, 0.85]: a hash of the seed, not a random draw. */
const jitter = (seed: number) => 0.15 + ((Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0) % 1000) / 1000 * 0.7;

/** Round ticks (1, 2 or 5 × a power of ten) over a little more than [lo, hi]. */
export function niceAxis(lo: number, hi: number): { domain: [number, number]; ticks: number[] } {
  const span = hi - lo || Math.abs(hi) || 1;
  const raw = span / 5, p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const ka = Math.floor((lo - span * 0.05) / step), kb = Math.ceil((hi + span * 0.05) / step);
  const at = (k: number) => Number((k * step).toPrecision(12)); // k · step, not a running sum: 0 is 0, not 1.39e−17
  const ticks: number[] = [];
  for (let k = ka; k <= kb && ticks.length < 20; k++) ticks.push(at(k));
  return { domain: [at(ka), at(kb)], ticks };
}

interface Point { x: number; y: number; z: number; seed: number; held: boolean }

function Tip({ active, payload }: { active?: boolean; payload?: { payload: Point }[] }) {
  const p = active ? payload?.[0]?.payload : undefined;
  if (!p) return null;
  return <div className="chart-tooltip">seed {p.seed}: {axisTick(p.x)} {p.held ? '✓ held' : '✗ not held'}</div>;
}

/** `height`: the plot's in px; `dot`: each point's area in px² (larger on the projector). */
export function ClassStrip({ pool, height = 120, dot = 64 }: { pool: VariantPool; height?: number; dot?: number }) {
  const c = pool.claim;
  if (!c) return null;
  const points: Point[] = pool.runs.filter((r) => Number.isFinite(r.claim)).map((r) => ({ x: r.claim, y: jitter(r.seed), z: 1, seed: r.seed, held: r.held }));
  const band = Number.isFinite(pool.mean.lo) && Number.isFinite(pool.mean.hi) ? pool.mean : null;
  const xs = [...points.map((p) => p.x), c.threshold, ...(band ? [band.lo, band.hi] : [])];
  const { domain, ticks } = niceAxis(Math.min(...xs), Math.max(...xs));
  const unmeasured = pool.runs.length - points.length;
  return (
    <figure className="class-strip" data-testid={`class-strip-${pool.variant}`} data-points={points.length}>
      <figcaption data-png-line="t">
        <strong>{pool.name}</strong>: {c.what} per seed; the claim puts it {thresholdText(c)} (dashed).{' '}
        <span style={{ color: TEXT.green }}>● ✓ held</span> <span style={{ color: TEXT.vermillion }}>◆ ✗ not held</span>
        {band && <span style={{ color: C.blue }}> ▮ the class's mean and its 90 % interval</span>}
        {unmeasured > 0 && ` (${unmeasured} run${unmeasured === 1 ? '' : 's'} without the number)`}
      </figcaption>
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 20, right: 32, bottom: 4, left: 16 }}>
            <CartesianGrid strokeDasharray="2 4" vertical={false} horizontal={false} />
            <XAxis type="number" dataKey="x" domain={domain} ticks={ticks} tickFormatter={axisTick} name={c.what} />
            <YAxis type="number" dataKey="y" domain={[0, 1]} hide />
            <ZAxis type="number" dataKey="z" range={[dot, dot]} /> {/* every point the same size (recharts sizes a point by its z only) */}
            {band && <ReferenceArea x1={band.lo} x2={band.hi} y1={0} y2={1} fill={C.blue} fillOpacity={0.15} stroke="none" ifOverflow="extendDomain" data-testid={`class-interval-${pool.variant}`} />}
            {band && <ReferenceLine x={band.value} stroke={C.blue} strokeWidth={2} />}
            <ReferenceLine x={c.threshold} stroke={C.black} strokeDasharray="6 4" label={{ value: thresholdText(c), position: 'top', fontSize: 11 }} />
            <Tooltip content={<Tip />} isAnimationActive={false} />
            <Scatter name="held" data={points.filter((p) => p.held)} fill={C.green} isAnimationActive={false} />
            <Scatter name="not held" data={points.filter((p) => !p.held)} fill={C.vermillion} shape="diamond" isAnimationActive={false} />
          </ScatterChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
