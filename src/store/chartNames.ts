/**
 * Each chart as a student finds it on the page: the start of its card's title (page.spec checks
 * each card's title against it). A lesson's "Watch:" line names its charts with these.
 */
import type { ChartId } from '../rl/lessons.ts';

export const CHART_NAMES: Record<ChartId, string> = {
  reward: 'Reward and held-out accuracy',
  groups: 'All-pass / all-fail / mixed groups',
  advantages: 'Group advantages',
  entropy: 'Entropy',
  length: 'Answer length',
  thinking: 'Thinking',
  kl: 'KL to π_ref and clip fractions',
  passk: 'pass@k on held-out prompts',
  theory: 'Theory: P(mixed)',
  tokens: 'Baselines at matched tokens',
};

/** A lesson's charts, named as their cards are titled: “A”, “B” and “C”. */
export function chartList(ids: readonly ChartId[]): string {
  const q = ids.map((id) => `“${CHART_NAMES[id]}”`);
  return q.length > 1 ? `${q.slice(0, -1).join(', ')} and ${q.at(-1)}` : (q[0] ?? '');
}
