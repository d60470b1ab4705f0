/**
 * The lessons' claims that more than one variant shares, built from claims.ts's parts: lesson 1's
 * mixed groups (by G), lesson 2's length weighting (by loss type), lesson 3's entropy (with and
 * without a leash), lesson 5's matched tokens and lesson 8's numbers. lessons.ts holds the lessons themselves, as data.
 */
import { fmt2, signed } from './format.ts';
import { claim, contractEvals, early, heldout, heldoutGreedy, late, overall, type Claim, type ClaimNumber, type RunRecord } from './claims.ts';
import { matchedTokensSummary } from './matchedTokens.ts';
import { detectStopSignals } from './stopSignals.ts';
import type { EvalMetrics } from './metrics.ts';

/** Held-out accuracy (greedy) at the start and at the end (the contract's two evaluations): lesson 1's G = 2 reading. */
const greedyHeldout = (r: RunRecord) => { const g = heldoutGreedy(r); return { heldout_greedy_start: g.start, heldout_greedy_end: g.end }; };

const diff = (end: string, start: string) => (e: Record<string, number>) => e[end] - e[start];
const key = (k: string) => (e: Record<string, number>) => e[k];
/** A claim number above (strictly) or at or below a threshold. */
export const above = (what: string, of: ClaimNumber['of'], threshold: number): ClaimNumber => ({ what, of, threshold, side: 'above' });
export const below = (what: string, of: ClaimNumber['of'], threshold: number): ClaimNumber => ({ what, of, threshold, side: 'below' });
export const HELDOUT_GAIN = 'held-out pass@1 (sampled), end − start';
export const THINK_RISE = 'thinking share, late − early';
export const heldoutGain = diff('heldout_pass1_end', 'heldout_pass1_start');
export { diff as numberDiff, key as numberKey };
const LONG_SHORT = 'long/short Δ log π per token of wrong answers';
const POOL_WHAT = 'training reward\'s rise − held-out pass@1\'s rise';
const ENTROPY_FALL = 'entropy fall (nats), early − late';

/** Lesson 1's verdict step, every G (contract.ts: the variants of a lesson run the same steps). */
export const MIXED_STEPS = 40;
/** Lesson 3's verdict step, both variants. */
export const ENTROPY_STEPS = 30;
/** Lesson 9: the held-out gain both variants claim (dynamic sampling and none, judged alike: the lesson compares their costs). */
export const DYNAMIC_GAIN = 0;

/**
 * Mixed groups follow G, and so does what a step teaches. G = 2: most groups are all-pass or
 * all-fail, the few mixed ones carry the signal, and AdamW still moves the weights about as far
 * each step, so the updates are mostly noise and held-out greedy accuracy falls (seeds 2–6 at 30
 * steps: it fell on all five). G ≥ 8: most groups mix and held-out pass@1 rises, judged at 50
 * steps. One 50-step run per seed judged at 30, 40 and 50 (CPU reference, seeds 2–16): G = 8 held
 * on 10, 14 and 15 of 15, G = 16 on 14, 13 and 15 of 15 (at 30 it failed on unseen seeds 10 and 11,
 * which `npm run lessons -- --seeds 7,8,9,10,11` caught) — at this scale held-out pass@1 moves a few
 * points per ten steps, and its 32 prompts read it ±0.04 from one evaluation to the next. Both
 * judged on held-out accuracy, which a run that learned nothing leaves where it was. The batch-rate
 * prediction 1 − p̄^G − (1 − p̄)^G is quoted, not judged (the share sits below it by Jensen's gap).
 */
export const mixedClaim = (G: number): Claim => claim(G <= 2 ? {
  text: 'With G = 2 most groups are all-pass or all-fail and carry no signal, yet AdamW moves the weights about as far every step: the updates are mostly noise, and held-out accuracy (greedy) falls.',
  steps: MIXED_STEPS,
  promisesWreck: true, // the failure it exists to show
  measure: (r) => ({ frac_mixed: overall(r, (m) => m.frac_mixed), mixed_predicted: overall(r, (m) => m.mixed_predicted), ...greedyHeldout(r) }),
  // −0.05, not 0: "falls" is not "stays" (a null run's change is exactly 0). Seeds 1–6 (CPU, 40 steps): −0.22 to −0.37, every interval below −0.16
  number: below('held-out accuracy (greedy), end − start', diff('heldout_greedy_end', 'heldout_greedy_start'), -0.05),
  sentence: (e) => `mixed share ${fmt2(e.frac_mixed)} (the batch-rate formula: ${fmt2(e.mixed_predicted)}), held-out accuracy (greedy) ${fmt2(e.heldout_greedy_start)} → ${fmt2(e.heldout_greedy_end)}`,
  hint: 'Held-out accuracy held up on this seed: run longer, or compare with G = 8 on the same seed (its accuracy rises).',
} : {
  text: `With G = ${G} most groups mix passes and failures, so most prompts teach: held-out pass@1 (sampled) rises by more than three points by the verdict's step.`,
  steps: MIXED_STEPS,
  measure: (r) => ({ frac_mixed: overall(r, (m) => m.frac_mixed), mixed_predicted: overall(r, (m) => m.mixed_predicted) }),
  number: above(HELDOUT_GAIN, heldoutGain, 0.03),
  sentence: (e) => `mixed share ${fmt2(e.frac_mixed)} (the batch-rate formula: ${fmt2(e.mixed_predicted)}), held-out pass@1 (sampled) ${fmt2(e.heldout_pass1_start)} → ${fmt2(e.heldout_pass1_end)}`,
  hint: 'The pass rate may sit far from the boundary on this seed: try another seed, or more steps.',
});

/**
 * Lesson 2, on the engine's own update: in each group with two wrong answers of different lengths,
 * the change in log π per token that the update gave the longest and the shortest (measured by
 * the policy loss itself at the start of the second inner epoch, µ ≥ 2), averaged over the run;
 * long/short is the ratio of the two averages. The weighting is not all that decides it: tokens
 * differ in how far one step moves them (on this base a short wrong answer's tokens move more
 * under either objective: in a Dr. GRPO run the long one still moved less per token in about
 * 70 % of the groups), and another group's push reaches every answer through the shared weights,
 * so a single run's ratio is noisy. Measured on seeds 1–6 (CPU reference): at 10 steps GRPO
 * 0.17–0.49, Dr. GRPO 0.40–1.05; at 15 to 20 steps GRPO 0.18–0.40, Dr. GRPO 0.42–0.60. Both
 * claims are judged against one threshold between those ranges, LENGTH_RATIO_AT (0.41): GRPO's
 * ratio at or below it, Dr. GRPO's above it, so one ratio can no longer hold under both (they
 * used to be "below a half" and "above a third": a ratio of 0.4 held under both, and on fresh
 * seed 1009 GRPO's 0.50 sat above Dr. GRPO's 0.39). The comparison itself — Dr. GRPO's ratio
 * above GRPO's on the same seed — is the lesson's question, judged as its contrast (contrast.ts).
 */
export const LENGTH_RATIO_AT = 0.41;
export const lengthClaim = (lossType: 'grpo' | 'dr_grpo'): Claim => claim({
  text: lossType === 'grpo'
    ? 'Within a group, a long wrong answer is pushed down much less per token than a short wrong one, because GRPO divides each answer by its own length: on the engine\'s own update, its Δ log π per token is at most about two fifths of the short one\'s, where Dr. GRPO\'s stays above.'
    : 'Dr. GRPO divides every answer by the same constant, so a long wrong answer\'s tokens are weighted like a short one\'s: on the engine\'s own update, its Δ log π per token is above about two fifths of the short one\'s, where GRPO\'s stays at or below (tokens also differ in how far a step moves them, so it stays under 1).',
  steps: 15,
  measure: (r) => {
    const long = overall(r, (m) => m.wrong_dlogp_long_per_token);
    const short = overall(r, (m) => m.wrong_dlogp_short_per_token);
    const pairs = r.steps.reduce((a, m) => a + (m.wrong_pairs ?? 0), 0);
    const less = r.steps.reduce((a, m) => a + (m.wrong_pairs_long_moved_less ?? 0), 0);
    return { dlogp_long_per_token: long, dlogp_short_per_token: short, long_over_short: short < 0 ? long / short : NaN, pairs, long_moved_less: pairs ? less / pairs : NaN, wrong_length_early: early(r, (m) => m.length_incorrect_mean), wrong_length_late: late(r, (m) => m.length_incorrect_mean) };
  },
  number: lossType === 'grpo' ? below(LONG_SHORT, key('long_over_short'), LENGTH_RATIO_AT) : above(LONG_SHORT, key('long_over_short'), LENGTH_RATIO_AT),
  sentence: (e) => `Δ log π per token after the update: long wrong answers ${fmt3(e.dlogp_long_per_token)}, short ones ${fmt3(e.dlogp_short_per_token)} (long/short ${fmt2(e.long_over_short)}; the long one moved less in ${fmt2(e.long_moved_less)} of ${e.pairs} groups); wrong answers' length ${fmt2(e.wrong_length_early)} → ${fmt2(e.wrong_length_late)}`,
  hint: 'No group had two wrong answers of different lengths yet, or µ is 1 (the measure needs a second inner epoch): run a few more steps.',
});
const fmt3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '–');

/**
 * Lesson 5, at equal tokens (matchedTokens.ts): after T training tokens the trained held-out pass@1
 * a (mean of the last two evaluations) is above the base's best-of-1, and best-of-N on the base
 * (step-0 evaluation) matches it at N between 1 and G samples a question, so training pays for
 * itself after T / (N·L̄₀ − L̄) questions. Measured on seeds 2–6, 40 steps: a − pass@1 of the base
 * 0.10–0.14 (GRPO), 0.09–0.12 (RFT); N 1.6–2.2; 9k–18k questions.
 */
export const matchedTokensClaim = (name: string): Claim => claim({
  text: `At equal tokens: after T training tokens, ${name}'s held-out pass@1 (sampled) beats the base's best-of-1 by more than five points, and best-of-N on the base matches it at some N between 1 and G samples a question (N× the tokens of one answer). So best-of-N is the cheaper way to that accuracy for up to T / (N·L̄₀ − L̄) questions; past them ${name}'s training has paid for itself.`,
  steps: 40,
  measure: matchedTokensSummary,
  number: above('held-out pass@1: trained − base', diff('pass1_trained', 'pass1_base'), 0.05),
  sentence: (e) => `after ${e.training_tokens.toLocaleString('en')} training tokens, held-out pass@1 (sampled) ${fmt2(e.pass1_base)} → ${fmt2(e.pass1_trained)}; ` +
    (Number.isFinite(e.samples_to_match) ? `best-of-N on the base matches it at N ≈ ${e.samples_to_match.toFixed(1)} (best-of-${e.G}: ${fmt2(e.passG_base)}), ` : `best-of-${e.G} on the base (${fmt2(e.passG_base)}) does not reach it, `) +
    `answers ${e.answer_tokens_base.toFixed(1)} → ${e.answer_tokens_trained.toFixed(1)} tokens: ` +
    (!(e.pass1_trained > e.pass1_base) ? 'training has not beaten the base yet, so it has not paid for anything'
      : Number.isFinite(e.break_even_questions) ? `training pays for itself after about ${Math.round(e.break_even_questions).toLocaleString('en')} questions` : 'no break-even at these numbers'),
  hint: 'Run more steps (the verdict needs evaluations at step 0 and after training, with pass@k): the gain in pass@1 is a few points per ten steps at this scale.',
});

/** Lesson 8's numbers (both variants): thinking share, step score (share of an answer's steps that are right, 0 for a direct answer), reward over strict accuracy. */
export const processMeasure = (r: RunRecord) => ({
  think_early: early(r, (m) => m.think_fraction), think_late: late(r, (m) => m.think_fraction),
  steps_right_early: early(r, (m) => m.process_reward), steps_right_late: late(r, (m) => m.process_reward),
  reward_over_accuracy: overall(r, (m) => m.reward - m.accuracy),
});
export const processSentence = (e: Record<string, number>) =>
  `thinking share ${fmt2(e.think_early)} → ${fmt2(e.think_late)}, step score ${fmt2(e.steps_right_early)} → ${fmt2(e.steps_right_late)}, ` +
  `strict accuracy ${fmt2(e.accuracy_start)} → ${fmt2(e.accuracy_end)}, reward − accuracy ${fmt2(e.reward_over_accuracy)}`;


/**
 * The training reward is not a stopping signal. A small training pool is memorised: the
 * training reward (the rollouts' accuracy on the pool's prompts, format reward off) climbs far
 * more than held-out pass@1, which may stay flat, fall, or creep up a few points. The verdict reads
 * the gap between the two rises (the lesson's contrast, contrast.ts): reward's rise minus held-out
 * pass@1's rise above POOL_GAP. The lab's stop signal "training reward rises without held-out
 * improvement" (stopSignals.ts) fires only where held-out did not rise at all, so it is reported,
 * not required (seed 8: reward 0.21 → 0.68 while held-out rose 0.26 → 0.31, and it stayed silent).
 * POOL_GAP was chosen on seeds 2–6 (CPU reference, 30 steps, η = 1e-3 after a 10-step warm-up):
 * the small pool's gap 0.27, 0.31, 0.48, 0.35, 0.52; the whole split's −0.07, −0.01, 0.04, −0.02,
 * −0.01 — 0.15 lies between them. Out of sample (seeds 7, 8, 9, same settings): 0.42, 0.42, 0.39
 * and −0.05, 0.03, −0.01. The whole training split is judged on the same gap, from the other side:
 * below POOL_GAP (the reward does not run ahead of held-out), with the signal silent. It is a control
 * (a run that learned nothing has no gap either), so it is judged only on a run that moved. It used to
 * ask held-out pass@1 to rise by 0.03 in 30 steps, which the lesson's own text does not promise ("both
 * rise a few points, or neither does"): on WebGPU seed 8 neither rose (reward 0.27 → 0.30, held-out
 * 0.26 → 0.26) and that claim failed. The small pool's claim fails for a run that learned nothing: its
 * reward does not rise.
 */
export const POOL_GAP = 0.15;
export const poolClaim = (small: boolean): Claim => claim(small ? {
  text: `On a small training pool the policy memorises its prompts: the training reward climbs far more than held-out pass@1 (sampled) — reward's rise minus held-out's rise is above fifteen hundredths. That is the chapter's "training reward rises without held-out improvement", whether or not held-out creeps up a little (the lab's stop signal fires only where it does not rise at all).`,
  steps: 30,
  promisesWreck: true, // held-out accuracy may fall: the failure it exists to show
  measure: (r) => ({ ...poolMeasure(r) }),
  number: above(POOL_WHAT, key('gap'), POOL_GAP),
  sentence: (e) => poolSentence(e),
  hint: 'Run more steps: the pool is memorised a little more each step.',
} : {
  text: 'On the whole training split every step brings new prompts: the training reward does not run ahead of held-out pass@1 (sampled) — reward\'s rise minus held-out\'s stays below fifteen hundredths, where the small pool\'s goes above — and the stop signal stays silent. In 30 steps both rise a few points, or neither does.',
  steps: 30,
  measure: (r) => ({ ...poolMeasure(r) }),
  number: below(POOL_WHAT, key('gap'), POOL_GAP), // falsifiable: a run whose reward runs ahead of held-out fails (lessons.test.ts)
  sentence: (e) => poolSentence(e),
  hint: 'The reward ran ahead of held-out on this run: compare the groups chart and the pool setting (0 is the whole split).',
});

function poolMeasure(r: RunRecord): Record<string, number> {
  const fired = detectStopSignals([...r.steps], [...r.evals] as EvalMetrics[]).some((s) => s.id === 'reward-without-heldout');
  const reward_early = early(r, (m) => m.reward), reward_late = late(r, (m) => m.reward);
  const h = heldout(r); // the held-out reading claim() adds as heldout_pass1_start / _end
  return { reward_early, reward_late, gap: h ? reward_late - reward_early - (h.end - h.start) : NaN, signal_fired: fired ? 1 : 0 };
}
const poolSentence = (e: Record<string, number>) =>
  `training reward ${fmt2(e.reward_early)} → ${fmt2(e.reward_late)}, held-out pass@1 (sampled) ${fmt2(e.heldout_pass1_start)} → ${fmt2(e.heldout_pass1_end)}: reward's rise minus held-out's ${fmt2(e.gap)}; the stop signal ${e.signal_fired === 1 ? 'fired' : 'did not fire'}`;

/**
 * Dynamic sampling (DAPO): resample until the batch's groups are mixed. Every kept group teaches
 * (mixed share near 1), at a price the verdict counts: the prompts drawn beyond the batch and the
 * generated tokens of the groups it discarded. Whether it paid is read against the run's tokens:
 * held-out pass@1 gained per 100k generated tokens (compare the two variants on the same seed:
 * the token axis makes them comparable). Without it, some groups are all-pass or all-fail and
 * teach nothing, and no token is spent on a discarded group. That variant is a control: what it
 * shows (unmixed groups kept, nothing discarded) a run that learned nothing shows too, so it is
 * judged only on a run that moved; its held-out pass@1 is reported, not required. It used to ask
 * held-out pass@1 to rise by 0.02 in 30 steps: that held on seeds 2–6 but on 3 of 5 unseen seeds
 * (CPU, seeds 7–11: seeds 8 and 11 read 0.26 → 0.26 and 0.29 → 0.30), the runs where plain GRPO
 * at this scale gains nothing in 30 steps (lesson 10's whole split is the same run, and says
 * so). Dynamic sampling's claim fails for a run that learned nothing (held-out pass@1 does not rise).
 */
export const dynamicClaim = (on: boolean, P: number, G: number): Claim => claim({
  text: on
    ? 'Resampling until groups are mixed makes nearly every kept group teach, at a price: prompts drawn and answers discarded every step. Held-out pass@1 (sampled) rises; the verdict counts what it cost in generated tokens.'
    : 'Without resampling, the all-pass and all-fail groups stay in the batch and teach nothing, yet the mixed ones still teach: held-out pass@1 (sampled) rises, with no prompt drawn beyond the batch and no answer discarded. The verdict counts the generated tokens, so the two variants compare per token.',
  steps: 30,
  measure: (r) => {
    const drawn = overall(r, (m) => m.prompts_drawn);
    const tokens = r.steps.reduce((a, m) => a + (m.tokens_generated ?? 0), 0);
    return { frac_mixed: overall(r, (m) => m.frac_mixed), prompts_drawn: drawn, answers_discarded: Math.max(0, drawn - P) * G, tokens_generated: tokens };
  },
  number: above(HELDOUT_GAIN, heldoutGain, DYNAMIC_GAIN),
  sentence: (e) => {
    const gain = e.heldout_pass1_end - e.heldout_pass1_start;
    const per100k = (gain / Math.max(1, e.tokens_generated)) * 1e5;
    return `mixed share ${fmt2(e.frac_mixed)}, ${fmt2(e.prompts_drawn)} prompts drawn and ${fmt2(e.answers_discarded)} answers discarded a step, ${Math.round(e.tokens_generated).toLocaleString('en')} tokens generated; held-out pass@1 (sampled) ${fmt2(e.heldout_pass1_start)} → ${fmt2(e.heldout_pass1_end)}: ${signed(per100k)} per 100k generated tokens`;
  },
  hint: on
    ? 'Held-out pass@1 moves a few points per ten steps at this scale: run more steps, or compare both variants on the same seed.'
    : 'Resampling is on in this run: the variant keeps every group it draws (Dynamic sampling off).',
});

/**
 * Forgetting without a leash. From a base that solves add and reverse, GRPO trains on add only;
 * reverse is evaluated at every evaluation (held-out pass@1, never trained on), in full on the
 * contract's prompts at step 0 and at the verdict step (the same prompts and draws at both ends, so
 * its change is resampled in pairs like every held-out reading). Measured (WebGPU, 30 steps, seeds
 * 2–6): reverse fell 0.03–0.13 at β = 0. The KL leash (β = 0.1) is computed on the answers the
 * policy samples — add's — so what it holds is the policy there: the KL to π_ref over the last
 * steps stayed at 0.09–0.17 (β = 0: 0.23–1.41; seeds 2–6, the figures the threshold of a fifth of a
 * nat was read from). Each variant's claim is about what its β does: β = 0, reverse falls; the
 * leash, the KL stays below a fifth of a nat (a number that moves with β, unlike add's gain, which
 * it used to judge). Whether the leash protects reverse is the lesson's contrast (lessons.ts),
 * judged on both runs of a seed. A run that learned nothing fails both: reverse does not move, and
 * a policy that never left π_ref fails any claim.
 */
export const LEASH_KL = 0.2;
export const forgettingClaim = (leash: boolean): Claim => claim({
  text: leash
    ? 'The KL leash holds the policy near the two-task base where it samples, on add: the KL to π_ref over the last steps stays below a fifth of a nat. Whether that protects reverse, which it never samples, is what the comparison with β = 0 on the same seed asks.'
    : 'Without a leash, training on add costs reverse, which it never trains on: reverse\'s held-out pass@1 (sampled) falls by more than two hundredths, and the policy drifts from the two-task base.',
  steps: 30,
  promisesWreck: true, // forgetting is the effect it shows
  measure: (r) => {
    // reverse read in full at step 0 and at the verdict step (the contract's evaluations), else the first and last readings
    const c = contractEvals(r);
    const w = r.evals.map((e) => e.watch?.pass1 ?? NaN);
    return { watch_start: c ? c.start.watch?.pass1 ?? NaN : w.length ? w[0] : NaN, watch_end: c ? c.end.watch?.pass1 ?? NaN : w.length >= 2 ? w[w.length - 1] : NaN, kl_late: late(r, (m) => m.kl) };
  },
  number: leash ? below('KL to π_ref over the last steps (nats)', key('kl_late'), LEASH_KL) : below('reverse\'s held-out pass@1, end − start (never trained on)', diff('watch_end', 'watch_start'), -0.02),
  sentence: (e) => `add (trained): held-out pass@1 ${fmt2(e.heldout_pass1_start)} → ${fmt2(e.heldout_pass1_end)}; reverse (never trained on): ${fmt2(e.watch_start)} → ${fmt2(e.watch_end)}; KL to π_ref ${fmt2(e.kl_late)}`,
  hint: leash ? 'Raise β: the leash is the KL term\'s weight.' : 'Run more steps: the drift grows with every update.',
});

/**
 * Lesson 3: the next-token entropy without a leash (β = 0, ε = 0.5, µ = 4) and with one (β = 1,
 * ε = 0.2). A step's entropy wanders by a few hundredths from its sampled answers alone (a null
 * run's does): a tenth of a nat is the effect. The leash is a control: judged only on a run that
 * moved (KL above 0). At η = 1e-3 a step's four inner epochs moved the policy without teaching it
 * (CPU, seeds 2–6, 20 steps: training reward 0.34 → 0.36 on average, KL 0.25–0.28, held-out greedy on
 * its 32 prompts 0.84 → 0.50 on seed 5, and 0.53 → 0.25 on unseen seed 8); at η = 5e-4 the reward rose
 * (0.33 → 0.39) at a lower KL, but in 20 steps the entropy fell only 0.06–0.12, so the claim is judged
 * at 30 steps (seeds 2–4: falls 0.12–0.14, between 3-step windows). Judged between quarter windows
 * (steps 1–7 against 24–30) with an interval, seeds 1–6 (CPU) read β = 0's fall at 0.10–0.12 (lower
 * ends 0.069–0.098) and the leash's at 0.02–0.04 (upper ends 0.053–0.071): ENTROPY_FALL_AT, 0.075
 * nats, lies between them, and both claims are judged against it.
 */
export const ENTROPY_FALL_AT = 0.075;
const entropyMeasure = (r: RunRecord) => ({ entropy_early: early(r, (m) => m.entropy), entropy_late: late(r, (m) => m.entropy), kl_late: late(r, (m) => m.kl) });
const entropySentence = (e: Record<string, number>) => `entropy ${fmt2(e.entropy_early)} → ${fmt2(e.entropy_late)} nats, KL to π_ref ${fmt2(e.kl_late)}`;
export const entropyClaim = (leash: boolean): Claim => (leash
  ? claim({
    text: 'A strong KL leash with a narrow ε keeps π_θ near π_ref: the policy moves (KL above 0), but the KL stays small and the entropy falls by at most 0.075 nats.',
    steps: ENTROPY_STEPS,
    measure: entropyMeasure,
    number: below(ENTROPY_FALL, diff('entropy_early', 'entropy_late'), ENTROPY_FALL_AT),
    sentence: entropySentence,
    hint: 'Raise β: the leash is the KL term\'s weight.',
  })
  : claim({
    text: 'Without a leash the next-token entropy falls by more than 0.075 nats: the policy narrows onto what was rewarded, and π_θ drifts from π_ref.',
    steps: ENTROPY_STEPS,
    promisesWreck: true, // the failure it exists to show
    measure: entropyMeasure,
    number: above(ENTROPY_FALL, diff('entropy_early', 'entropy_late'), ENTROPY_FALL_AT),
    sentence: entropySentence,
    hint: 'Run more steps: the entropy falls a little with every update. (A larger η makes it fall faster, but at µ = 4 the policy then drifts without learning.)',
  }));

/**
 * Lesson 4's verdict step, both verifiers (compared at the same length). The strict control rises
 * ~0.005 a step and three steps' 32 prompts read it ±0.04: at 20 steps its rise missed 0.05 on
 * seeds 3 and 11 though held-out rose; at 30 it was 0.08–0.19 on seeds 2–6 (README, lesson 4).
 */
export const HACKING_STEPS = 30;

/** Lesson 4: the weak verifier's gap widens (the wreck it exists to show); under the strict one, strict accuracy rises. */
export const hackingClaim = (weak: boolean): Claim => claim(weak ? {
  text: 'The weak verifier pays wrong answers that contain the right number somewhere: reward sits above strict accuracy, and GRPO reinforces the paid-wrong answers, so the gap widens.',
  steps: HACKING_STEPS,
  promisesWreck: true, // the failure it exists to show
  measure: (r) => ({ gap_early: early(r, (m) => m.reward - m.accuracy), gap_late: late(r, (m) => m.reward - m.accuracy) }),
  number: above('reward − strict accuracy, late − early', diff('gap_late', 'gap_early'), 0.03),
  sentence: (e) => `reward − strict accuracy ${fmt2(e.gap_early)} → ${fmt2(e.gap_late)}`,
  hint: 'Run longer or at η = 2e-3: the hack grows as the paid-wrong answers are reinforced.',
} : {
  text: 'The strict verifier pays only right answers, so what GRPO spreads is right answers: strict accuracy rises by more than three points (under the weak verifier, on the same seed, it falls while the reward climbs).',
  steps: HACKING_STEPS,
  measure: (r) => ({ reward_early: early(r, (m) => m.reward), reward_late: late(r, (m) => m.reward) }),
  // a rise of more than three points, as lesson 1's G = 8 claims: seeds 1–6 (CPU, 30 steps, quarter windows) 0.08–0.14, lower ends 0.041–0.098
  number: above('strict accuracy, end − start', diff('accuracy_end', 'accuracy_start'), 0.03),
  sentence: (e) => `strict accuracy ${fmt2(e.accuracy_start)} → ${fmt2(e.accuracy_end)}, reward ${fmt2(e.reward_early)} → ${fmt2(e.reward_late)}`,
  hint: 'Run a few more steps: at this scale accuracy rises about a point every two steps, and a step\'s 32 prompts move it by ±0.05.',
});
