// Test helper: a contract evaluation (the lesson's held-out prompts read in full) with a seeded pattern of results.
import type { RunRecord } from '../claims.ts';
import { Rng } from '../../model/rng.ts';
import { passAtK } from '../../tasks/metrics.ts';

/** A contract evaluation of P prompts: each prompt's greedy answer and G samples right with probability p (a seeded pattern). */
export function contractEval(step: number, P: number, greedyRate: number, passRate: number, seed: number, G = 8): RunRecord['evals'][number] {
  const rng = new Rng(seed);
  const greedy = Array.from({ length: P }, () => (rng.next() < greedyRate ? 1 : 0));
  const correct = Array.from({ length: P }, () => { let c = 0; for (let i = 0; i < G; i++) if (rng.next() < passRate) c++; return c; });
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const pass: Record<string, number> = {};
  for (let k = 1; k <= G; k *= 2) pass[String(k)] = mean(correct.map((c) => passAtK(G, c, k)));
  return { step, heldout_accuracy: mean(greedy), pass_at_k: pass, contract: true, per_prompt: { greedy, correct, G } };
}
