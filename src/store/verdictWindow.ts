/**
 * What a lesson verdict's held-out figures are: "0.44 → 0.23" in a verdict is the first
 * evaluation against the mean of the last two (src/rl/claims.ts, heldout; lesson 1's greedy
 * reading too), while the status line above the charts shows the latest evaluation alone. The
 * lesson card says so beside the verdict, with the evaluations that mean is made of.
 */
import { heldoutMeasure } from '../rl/stopSignals.ts';
import type { LabState } from './labStore.ts';

type Evals = LabState['evals'];
const two = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const and = (xs: string[]) => (xs.length === 2 ? `${xs[0]} and ${xs[1]}` : xs.join(''));

/**
 * The note for a verdict sentence, or null when it quotes no held-out figure (or there are fewer
 * than two evaluations). Each held-out measure the sentence names (accuracy (greedy), pass@1
 * (sampled)) gets its start and the values its end is the mean of.
 */
export function heldoutWindowNote(sentence: string, evals: Evals): string | null {
  if (evals.length < 2 || !sentence.includes('→') || !/held-out/.test(sentence)) return null;
  const tail = evals.slice(Math.max(1, evals.length - 2));
  const measures: [string, (e: Evals[number]) => number][] = [];
  if (/accuracy \(greedy\)/.test(sentence)) measures.push(['accuracy (greedy)', (e) => e.heldout_accuracy]);
  if (/pass@1/.test(sentence) && heldoutMeasure(evals).sampled) measures.push(['pass@1 (sampled)', (e) => e.pass_at_k!['1']]);
  if (!measures.length) return null;
  const first = evals[0];
  const window = tail.length === 2
    ? `the first evaluation (step ${first.step}) → the mean of the last two evaluations (steps ${and(tail.map((e) => String(e.step)))})`
    : `the first evaluation (step ${first.step}) → the last (step ${tail[0].step})`;
  const values = measures.map(([name, of]) => `${name} ${two(of(first))} → ${tail.length === 2 ? `mean of ${and(tail.map((e) => two(of(e))))}` : two(of(tail[0]))}`);
  return `Held-out figures here: ${window}; ${values.join(', ')}.`;
}
