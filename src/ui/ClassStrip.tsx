/**
 * The class's numbers as strip plots (recharts): one point per seed on one axis, each drawn by what
 * its own run showed — a mark and a colour, both in the legend (never colour alone) — with the
 * class's mean and its 90 % interval across students as a shaded band (pool.ts) and the lines the
 * number is read against (a claim's threshold; a contrast's zero and ±margin). A variant's strip
 * marks each run held ✓, failed ✗ or unclear (its own mark: unclear is not a failure); the
 * contrast's strip marks each seed's difference by that seed's own verdict on the question. Points
 * are spread up and down by their seed only, so the same paste draws the same picture. The legend
 * is drawn as recharts draws one (an icon and a name in its colour), so the slide's PNG
 * (panelPng.ts) keeps its colours.
 */
import type { CSSProperties, ReactNode } from 'react';
import { ReferenceArea, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Symbols, Tooltip, XAxis, YAxis, ZAxis } from 'recharts';
import type { LessonPool, VariantPool } from '../class/pool.ts';
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

type Shape = 'circle' | 'diamond' | 'triangle' | 'square';
/** How one kind of point is drawn and named: its mark, colour (fill, and as text on white) and words. */
interface Kind { label: string; shape: Shape; color: string; text: string }

/** A variant's runs: held, failed, unclear (each its own mark). */
export const RUN_KINDS = {
  holds: { label: '✓ held', shape: 'circle', color: C.green, text: TEXT.green },
  fails: { label: '✗ failed', shape: 'diamond', color: C.vermillion, text: TEXT.vermillion },
  unclear: { label: '? unclear', shape: 'triangle', color: C.grey, text: C.grey },
} as const satisfies Record<string, Kind>;

/** A seed's contrast, by its own verdict on the question: as the lesson claims, against it, unclear, or two codes' numbers (no verdict of their own). */
export const PAIR_KINDS = {
  agrees: { label: '✓ as the lesson claims', shape: 'circle', color: C.green, text: TEXT.green },
  against: { label: '✗ against it', shape: 'diamond', color: C.vermillion, text: TEXT.vermillion },
  unclear: { label: '? unclear on its seed', shape: 'triangle', color: C.grey, text: C.grey },
  seen: { label: 'judged on its seed', shape: 'square', color: C.purple, text: TEXT.purple },
  paired: { label: 'two codes, no verdict of their own', shape: 'square', color: C.sky, text: '#1c6a99' },
} as const satisfies Record<string, Kind>;

interface Point { x: number; y: number; z: number; seed: number; kind: string }

function Tip({ active, payload, kinds }: { active?: boolean; payload?: { payload: Point }[]; kinds: Record<string, Kind> }) {
  const p = active ? payload?.[0]?.payload : undefined;
  if (!p) return null;
  return <div className="chart-tooltip">seed {p.seed}: {axisTick(p.x)} {kinds[p.kind]?.label}</div>;
}

/** A legend entry as recharts draws one (icon, then the name in its colour): the slide's PNG reads it in colour. */
function LegendEntry({ kind, n }: { kind: Kind; n: number }) {
  const sym = kind.shape === 'circle' ? 'circle' : kind.shape === 'diamond' ? 'diamond' : kind.shape === 'triangle' ? 'triangle' : 'square';
  return (
    <span className="recharts-legend-item class-legend-item">
      <svg width={14} height={14} viewBox="0 0 14 14" aria-hidden="true" className="recharts-surface-icon"><Symbols cx={7} cy={7} type={sym} size={70} fill={kind.color} /></svg>
      <span className="recharts-legend-item-text" style={{ '--kind-text': kind.text } as CSSProperties}>{kind.label} ({n})</span>
    </span>
  );
}

interface Line { x: number; label?: string; dash?: boolean }

/**
 * One strip: `points` by kind (`kinds`: how each is drawn; the legend lists those present), the
 * class's band (`band`: mean and interval, or null), the `lines` to read against, a caption.
 */
export function Strip({ id, caption, points, kinds, band, lines, height = 120, dot = 64 }: {
  id: string; caption: ReactNode; points: { x: number; seed: number; kind: string }[]; kinds: Record<string, Kind>;
  band: { value: number; lo: number; hi: number } | null; lines: Line[]; height?: number; dot?: number;
}) {
  const drawn: Point[] = points.filter((p) => Number.isFinite(p.x)).map((p) => ({ ...p, y: jitter(p.seed), z: 1 }));
  const xs = [...drawn.map((p) => p.x), ...lines.map((l) => l.x), ...(band ? [band.lo, band.hi] : [])].filter(Number.isFinite);
  const { domain, ticks } = niceAxis(Math.min(...xs), Math.max(...xs));
  const present = Object.entries(kinds).filter(([k]) => drawn.some((p) => p.kind === k));
  return (
    <figure className="class-strip" data-testid={id} data-points={drawn.length}>
      <figcaption data-png-line="t">{caption}</figcaption>
      <p className="class-legend" data-testid={`${id}-legend`}>
        {present.map(([k, kind]) => <LegendEntry key={k} kind={kind} n={drawn.filter((p) => p.kind === k).length} />)}
        {band && <span className="recharts-legend-item class-legend-item"><svg width={14} height={14} viewBox="0 0 14 14" aria-hidden="true"><rect x={1} y={2} width={12} height={10} fill={C.blue} fillOpacity={0.35} stroke={C.blue} /></svg>
          <span className="recharts-legend-item-text" style={{ '--kind-text': C.blue } as CSSProperties}>the class's mean and its 90 % interval</span></span>}
      </p>
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 20, right: 32, bottom: 4, left: 16 }}>
            <XAxis type="number" dataKey="x" domain={domain} ticks={ticks} tickFormatter={axisTick} />
            <YAxis type="number" dataKey="y" domain={[0, 1]} hide />
            <ZAxis type="number" dataKey="z" range={[dot, dot]} /> {/* every point the same size (recharts sizes a point by its z only) */}
            {band && <ReferenceArea x1={band.lo} x2={band.hi} y1={0} y2={1} fill={C.blue} fillOpacity={0.15} stroke="none" ifOverflow="extendDomain" data-testid={`${id}-interval`} />}
            {band && <ReferenceLine x={band.value} stroke={C.blue} strokeWidth={2} />}
            {lines.map((l, i) => <ReferenceLine key={i} x={l.x} stroke={C.black} strokeDasharray={l.dash ? '6 4' : undefined} label={l.label ? { value: l.label, position: 'top', fontSize: 11 } : undefined} />)}
            <Tooltip content={<Tip kinds={kinds} />} isAnimationActive={false} />
            {present.map(([k, kind]) => <Scatter key={k} name={kind.label} data={drawn.filter((p) => p.kind === k)} fill={kind.color} shape={kind.shape === 'square' ? 'square' : kind.shape} isAnimationActive={false} />)}
          </ScatterChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** One lesson variant's runs: each run's claim number by seed, against the claim's threshold, with the class's band. */
export function ClassStrip({ pool, height = 120, dot = 64, compact = false }: { pool: VariantPool; height?: number; dot?: number; /** The projector: the line above names the variant and its class mean; the caption only what is drawn. */ compact?: boolean }) {
  const c = pool.claim;
  if (!c) return null;
  const points = pool.runs.map((r) => ({ x: r.claim, seed: r.seed, kind: r.verdict }));
  const band = Number.isFinite(pool.mean.lo) && Number.isFinite(pool.mean.hi) ? pool.mean : null;
  const unmeasured = pool.runs.filter((r) => !Number.isFinite(r.claim)).length;
  return (
    <Strip id={`class-strip-${pool.variant}`} kinds={RUN_KINDS} points={points} band={band} height={height} dot={dot}
      lines={[{ x: c.threshold, label: thresholdText(c), dash: true }]}
      caption={<>{compact ? c.what : <><strong>{pool.name}</strong>: {c.what}</>} per seed; the claim puts it {thresholdText(c)} (dashed).{unmeasured > 0 && ` (${unmeasured} run${unmeasured === 1 ? '' : 's'} without the number)`}</>} />
  );
}

/** A pair's kind: its own verdict on the question against the lesson's claim (the lesson claims no order: judged, unclear), or two codes' numbers. */
function pairKind(outcome: number | null | undefined, expected: number | null): keyof typeof PAIR_KINDS {
  if (outcome === undefined) return 'paired';
  if (outcome === null) return 'unclear';
  if (expected === null) return 'seen';
  return outcome === expected ? 'agrees' : 'against';
}

/** The contrast the class predicted, seed by seed: asked − against, against zero and the lesson's ±margin, with the class's band. */
export function ContrastStrip({ lesson, asked, against, height = 120, dot = 64 }: { lesson: LessonPool; asked: string; against: string; height?: number; dot?: number }) {
  const c = lesson.contrast;
  if (!c || !lesson.pairs.length) return null;
  const expected = c.expected ?? null;
  const points = lesson.pairs.map((p) => ({ x: p.diff, seed: p.seed, kind: pairKind(p.outcome, expected) }));
  const band = Number.isFinite(c.lo) && Number.isFinite(c.hi) ? { value: c.value, lo: c.lo, hi: c.hi } : null;
  return (
    <Strip id="class-contrast-strip" kinds={PAIR_KINDS} points={points} band={band} height={height} dot={dot}
      lines={[{ x: 0, label: '0' }, { x: -c.margin, dash: true }, { x: c.margin, label: `±${String(c.margin)}`, dash: true }]}
      caption={<><strong>{asked} − {against}</strong>, seed by seed: a difference beyond ±{String(c.margin)} (dashed) counts.</>} />
  );
}
