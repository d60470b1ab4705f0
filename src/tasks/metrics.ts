/**
 * Evaluation metrics over groups of samples.
 */

/**
 * Unbiased pass@k (Chen et al. 2021, "Evaluating Large Language Models Trained on Code"):
 * with n samples of which c are correct, the probability that at least one of k samples drawn
 * without replacement is correct,
 *   pass@k = 1 − C(n−c, k) / C(n, k) = 1 − ∏_{i=n−c+1}^{n} (1 − k / i),
 * computed in the product form, which never forms the huge binomials. 1 when n − c < k.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 1 || c < 0 || c > n || k < 1 || k > n) {
    throw new Error(`passAtK: need integers 0 <= c <= n, 1 <= k <= n; got n=${n}, c=${c}, k=${k}`);
  }
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/**
 * Probability that a group of G independent samples, each correct with probability p, is
 * mixed (some right, some wrong), so its group-normalized advantages are nonzero:
 *   1 − p^G − (1 − p)^G.
 * Its complement is what TRL logs as frac_reward_zero_std (for a 0/1 reward).
 */
export function mixedGroupProbability(p: number, G: number): number {
  if (!(p >= 0 && p <= 1) || !Number.isInteger(G) || G < 1) throw new Error(`mixedGroupProbability: need 0 <= p <= 1 and integer G >= 1; got p=${p}, G=${G}`);
  return 1 - p ** G - (1 - p) ** G;
}
