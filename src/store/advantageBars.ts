/**
 * The group-advantages chart's geometry, from the latest rollout: one bar a sampled answer at a
 * slot on a numeric x axis (the groups in prompt order, an empty slot between two groups), the
 * prompts' tick labels, and the y frame the bars are drawn in.
 *
 * The chart streams: a new rollout at every step. recharts gets only the layout (its ticks, which
 * change only when G or the prompts per step do) and the frame (the bars' extent with 0, out to
 * the next tick: it changes only when a bar leaves it, or the bars fill less than half of it), so a redraw moves the bars, drawn as
 * one SVG layer (liveMarks.tsx), and recharts recomputes nothing.
 */
import { FRAME_KEY } from './chartFrame.ts';
import type { LineRow } from './thin.ts';

/** One answer's bar: its slot, advantage (null where not finite), verdict and place in its group. */
export interface AdvantageBar {
  x: number;
  advantage: number | null;
  kind: 'correct' | 'wrong' | 'unparseable';
  /** "P3" for a group's first answer, "P3.2" for its second. */
  label: string;
  /** Its prompt and its place in the group (1-based), of the group's `of` answers. */
  prompt: number;
  answer: number;
  of: number;
}

export interface AdvantageLayout {
  bars: AdvantageBar[];
  /** Slots on the x axis: answers and the gaps between groups. */
  slots: number;
  /** The x of every labelled prompt's first answer (at most 8 prompts labelled, so names stay readable). */
  ticks: number[];
  /** A slot's prompt name ("P3"), for the axis' ticks. */
  tickLabel: (x: number) => string;
  /** What the layout depends on: the number of answers in each group. */
  key: string;
}

interface Answer { advantage: number; correct: boolean; formatOk: boolean }

const kindOf = (a: Answer): AdvantageBar['kind'] => (a.correct ? 'correct' : a.formatOk ? 'wrong' : 'unparseable');

/** The bars of a rollout's groups, in prompt order. */
export function advantageLayout(groups: readonly { answers: readonly Answer[] }[]): AdvantageLayout {
  const every = Math.max(1, Math.ceil(groups.length / 8));
  const bars: AdvantageBar[] = [];
  const ticks: number[] = [];
  const names = new Map<number, string>();
  let x = 0;
  groups.forEach((g, p) => {
    if (p > 0) x++; // the gap between two groups
    if (p % every === 0) { ticks.push(x); names.set(x, `P${p + 1}`); }
    g.answers.forEach((a, i) => {
      bars.push({ x: x++, advantage: Number.isFinite(a.advantage) ? a.advantage : null, kind: kindOf(a), label: i === 0 ? `P${p + 1}` : `P${p + 1}.${i + 1}`, prompt: p + 1, answer: i + 1, of: g.answers.length });
    });
  });
  return { bars, slots: x, ticks, tickLabel: (v) => names.get(v) ?? '', key: groups.map((g) => g.answers.length).join(',') };
}

/** The smallest 1, 2, 2.5 or 5 × 10^k at least v (v > 0). */
function ladderAtLeast(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v * (1 - 1e-9)) return Number((m * p).toPrecision(12));
  return 10 * p;
}

/** The tick step of a span: the smallest round step that cuts it into at most 5. */
const tickStep = (span: number) => ladderAtLeast(span / 5);

/**
 * The frame the bars are drawn in: two rows at the first and last slot's outer edges, their values
 * the lowest and highest advantage with 0, out to the ticks' step (advantageTicks); [] without bars.
 * Where every advantage is 0 (no group mixed), the frame is −1 to 1. `kept`, the frame drawn now,
 * stays while the bars fit in it and fill at least half its height: the extremes change at every
 * step (one pass in 8 is +2.47, two are +1.51), and an axis that followed them would jump with them.
 */
export function advantageFrame(layout: AdvantageLayout, kept: readonly LineRow[] = []): LineRow[] {
  if (!layout.bars.length) return [];
  let lo = 0, hi = 0;
  for (const b of layout.bars) {
    if (b.advantage === null) continue;
    lo = Math.min(lo, b.advantage);
    hi = Math.max(hi, b.advantage);
  }
  const right = layout.slots - 0.5;
  if (kept.length === 2 && kept[1].step === right) {
    const [a, z] = [kept[0][FRAME_KEY] as number, kept[1][FRAME_KEY] as number];
    if (lo >= a && hi <= z && (hi - lo) * 2 >= z - a) return kept as LineRow[];
  }
  if (lo === 0 && hi === 0) [lo, hi] = [-1, 1];
  const step = tickStep(hi - lo);
  const out = (v: number, up: boolean) => Number(((up ? Math.ceil(v / step - 1e-9) : Math.floor(v / step + 1e-9)) * step).toPrecision(12)) || 0;
  return [{ step: -0.5, [FRAME_KEY]: out(lo, false) } as LineRow, { step: right, [FRAME_KEY]: out(hi, true) } as LineRow];
}

/**
 * The y ticks of a frame: the multiples of the smallest round step (1, 2, 2.5 or 5 × 10^k) that
 * both ends are multiples of, at most 6 steps from end to end (0 among them); its ends alone where none is.
 */
export function advantageTicks(frame: readonly LineRow[]): number[] {
  if (frame.length !== 2) return [];
  const a = frame[0][FRAME_KEY] as number, z = frame[1][FRAME_KEY] as number;
  const whole = (v: number) => Math.abs(v - Math.round(v)) < 1e-6;
  for (let step = ladderAtLeast((z - a) / 6); step <= z - a; step = ladderAtLeast(step * 1.01)) {
    if (!whole(a / step) || !whole(z / step)) continue;
    const ticks: number[] = [];
    for (let k = Math.round(a / step); k <= Math.round(z / step); k++) ticks.push(Number((k * step).toPrecision(12)) || 0);
    return ticks;
  }
  return [a, z];
}

/**
 * The keyboard's walk over the answers (the chart focused): → and ← one answer on or back, Home
 * and End the first and the last; from none, → and Home start at the first, ← and End at the last.
 * The answer it lands on (an index into the layout's bars), or undefined for any other key.
 */
export function walkKey(key: string, at: number | null, n: number): number | undefined {
  if (n === 0) return undefined;
  if (key === 'Home') return 0;
  if (key === 'End') return n - 1;
  if (key === 'ArrowRight') return at === null ? 0 : Math.min(n - 1, at + 1);
  if (key === 'ArrowLeft') return at === null ? n - 1 : Math.max(0, at - 1);
  return undefined;
}
