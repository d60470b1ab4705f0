/**
 * The lab's lessons, as data: each is one click that loads a base checkpoint (via its task and
 * difficulty, see bases.ts), sets the knobs, and says what to watch and why, in the chapter's
 * terms. A lesson may offer variants (the comparison it is about, e.g. GRPO vs Dr. GRPO): the
 * page shows one button per variant, each a set of settings applied on top of the lesson's.
 *
 * Bases are chosen for their sampled pass rate at τ = 1 (what GRPO's groups see): every shipped
 * base (bases.ts) was fine-tuned until about 20 % of its samples pass — the capability boundary.
 *
 * Pure data, no React: the page, the URL (`lesson=<id>`) and the tests (lessons.test.ts, one
 * check per lesson on a micro model that its effect appears) all read this table.
 */
import type { Settings } from './settings.ts';
import { claim, early, late, type Claim } from './claims.ts';
import { fmt2 } from './format.ts';
import type { LessonContrast } from './contrast.ts';
import { above, below, dynamicClaim, entropyClaim, forgettingClaim, hackingClaim, lengthClaim, matchedTokensClaim, mixedClaim, numberDiff, numberKey, poolClaim, processMeasure, processSentence, THINK_RISE } from './lessonClaims.ts';
import { pin } from './contract.ts';

/** The charts a lesson points at (the ids of the lab's chart cards). */
export type ChartId = 'reward' | 'groups' | 'advantages' | 'entropy' | 'length' | 'thinking' | 'kl' | 'passk' | 'theory' | 'tokens';

export interface LessonVariant {
  label: string;
  /** A few words naming the variant where space is short (an overlay's legend: "3 · β = 0"); else the label. */
  short?: string;
  settings: Partial<Settings>;
  /** What this variant's run must show, checked live on the run's own metrics (claims.ts). */
  claim: Claim;
}

export interface Lesson {
  id: string;
  title: string;
  /** The base checkpoint is the shipped one for this task and difficulty (bases.ts), else a fresh init. */
  base: { task: string; difficulty: number };
  /** Settings on top of the defaults (the base's task and difficulty are set too). */
  settings: Partial<Settings>;
  /** The comparison the lesson is about; the first variant is what the lesson starts with. */
  variants: LessonVariant[];
  /** What to watch and why (a few sentences). */
  watch: string;
  /** The charts that show the effect. */
  charts: ChartId[];
  /**
   * The claim is about groups and updates, not about this task: the lesson may run on a task of
   * one's own (a `spec:` task, from its own base), and is judged there too.
   */
  ownTask?: boolean;
  /** The number its variants are compared by on one seed, and which variant should give the higher one (contrast.ts). */
  contrast?: LessonContrast;
  /**
   * Phrases of its explanation (`watch`, and the presenter's captions for it) that state the
   * outcome: nothing on the page or the projector may show them before the class predicts (a lesson
   * with a question: its blind state, e2e/lab-blind.spec.ts). Each one is in the explanation (lessons.test.ts).
   */
  reveals?: string[];
}

const gain = (e: Record<string, number>) => e.heldout_pass1_end - e.heldout_pass1_start;


export const LESSONS: Lesson[] = [
  {
    id: 'mixed-groups',
    title: '1. Mixed groups at the capability boundary',
    base: { task: 'add', difficulty: 2 },
    settings: pin({ numGenerations: 2, promptsPerStep: 16, formatReward: 0, evalEvery: 5 }),
    variants: [
      { label: 'G = 2', settings: { numGenerations: 2 }, claim: mixedClaim(2) },
      { label: 'G = 8', settings: { numGenerations: 8 }, claim: mixedClaim(8) },
      { label: 'G = 16', settings: { numGenerations: 16 }, claim: mixedClaim(16) },
    ],
    watch:
      'A group teaches only if it mixes passes and failures: then its advantages are non-zero. With pass rate p, ' +
      'P(mixed) = 1 − p^G − (1 − p)^G. Switch G from 2 to 16 and watch the mixed fraction (groups chart) beside the ' +
      'dashed prediction: a larger group finds the rare success (or failure) that makes the prompt useful. The ' +
      'prediction uses the batch\'s pass rate p̄; but easy prompts are passed by every answer and hard ones by none, ' +
      'and averaging the formula over prompts gives less than the formula at the average (it is concave: Jensen). So ' +
      'the observed share sits below the dashed line, further at large G. Left running, G = 2 also shows why a small ' +
      'group fails: few groups carry a signal, yet AdamW moves the weights about as far every step, so the updates are ' +
      'mostly noise and held-out accuracy (greedy) falls after a few tens of steps, while at G = 8 or 16 held-out pass@1 (sampled) rises. The format ' +
      'reward is off: with it, std scaling would push "wrong but well-formed" over "unparseable" as hard as right over wrong.',
    charts: ['groups', 'theory', 'advantages'],
    reveals: ['a larger group finds', 'few groups mix', 'widens', 'small group fails'],
    contrast: { what: 'mixed share of the groups', of: (e) => e.frac_mixed, rank: [0, 1, 2], margin: 0.05 }, // seeds 2–6: G = 16 − G = 2 by +0.54 to +0.66
    ownTask: true,
  },
  {
    id: 'length-bias',
    title: '2. Answer length under GRPO vs Dr. GRPO',
    base: { task: 'digitsum', difficulty: 1 },
    settings: pin({ maxCompletionLength: 14, lossType: 'grpo', advantage: 'grpo', formatReward: 0 }),
    variants: [
      { label: 'GRPO (per-answer mean, std scaling)', short: 'GRPO', settings: { lossType: 'grpo', advantage: 'grpo' }, claim: lengthClaim('grpo') },
      { label: 'Dr. GRPO (sum / max length, no std)', short: 'Dr. GRPO', settings: { lossType: 'dr_grpo', advantage: 'dr_grpo' }, claim: lengthClaim('dr_grpo') },
    ],
    watch:
      'On the digit-sum base some answers think ("7,12,20|20", about ten tokens) and some answer directly (two). ' +
      'GRPO averages each answer\'s token losses over its own length |o_i|: in a group, a long wrong answer gets the same ' +
      'total push-down as a short wrong one, spread over more tokens, so each of its tokens is pushed less — the ' +
      'verdict below measures it on the engine\'s own update: how far log π of the longest and the shortest wrong answer ' +
      'of each group moved, per token (the policy loss reads it at the start of the second inner epoch, µ = 2). Dr. GRPO ' +
      'divides every answer by the same constant (max length) and drops the std scaling: every wrong token of a group ' +
      'is weighted alike. The weighting is not the only thing that decides how far a token moves: on this base a short ' +
      'answer\'s tokens move more under either objective, so even under Dr. GRPO the long/short ratio stays below 1, but ' +
      'it is about twice as high as under GRPO on the same seed. One run is noisy (another group\'s push reaches every answer ' +
      'through the shared weights), so run both variants on the same seed and compare (the class pool compares them across ' +
      'seeds). The length drift this causes is ' +
      'small and noisy at this scale: watch the length chart under each variant, over more steps.',
    charts: ['length', 'reward'],
    reveals: ['twice as high', 'pushed less', 'down less'],
    contrast: { what: 'long/short Δ log π per token of wrong answers', of: (e) => e.long_over_short, rank: [0, 1], margin: 0.05 }, // seeds 1–6 at 15 steps: GRPO 0.18–0.40, Dr. GRPO 0.42–0.60
  },
  {
    id: 'entropy-collapse',
    title: '3. Entropy: β = 0 and a wide ε vs a KL leash',
    base: { task: 'add', difficulty: 2 },
    // η = 5e-4: µ = 4 inner epochs of 1e-3 each (4e-3 of AdamW travel a batch) made the policy drift without learning (training
    // reward flat, seeds 2–6); half the step per inner epoch learns, and the entropy still falls, over 30 steps (lessonClaims.ts entropyClaim)
    settings: pin({ beta: 0, epsilon: 0.5, epsilonHigh: 0.5, numIterations: 4, learningRate: 0.0005 }),
    variants: [
      {
        label: 'β = 0, ε = 0.5 (no leash)', short: 'β = 0', settings: { beta: 0, epsilon: 0.5, epsilonHigh: 0.5 },
        claim: entropyClaim(false),
      },
      {
        label: 'β = 1, ε = 0.2 (KL leash)', short: 'β = 1', settings: { beta: 1, epsilon: 0.2, epsilonHigh: 0.2 },
        claim: entropyClaim(true),
      },
    ],
    watch:
      'Several inner epochs (µ = 4) push the policy toward whatever was rewarded, and the next-token entropy falls: the ' +
      'policy stops exploring. A strong KL leash β·KL(π_θ ‖ π_ref) with a narrow ε holds it near the base and keeps the ' +
      'entropy up. Compare the two variants on the entropy and KL charts (the previous run stays as an overlay). At this ' +
      'scale the leash slows the collapse; it does not undo it.',
    charts: ['entropy', 'kl', 'groups'],
    reveals: ['keeps the entropy up', 'slows the collapse', 'falls little', 'stays small'],
    contrast: { what: 'entropy fall (nats, first to last steps)', of: (e) => e.entropy_early - e.entropy_late, rank: [1, 0], margin: 0.02 }, // a step's entropy wanders a few hundredths by itself; seeds 2–6: β = 0 − β = 1 by +0.02 to +0.15
  },
  {
    id: 'reward-hacking',
    title: '4. A weak verifier vs a strict one',
    base: { task: 'digitsum', difficulty: 1 },
    settings: pin({ weakVerifier: 'anywhere', maxCompletionLength: 14, formatReward: 0, learningRate: 0.001, numIterations: 1 }),
    variants: [
      {
        label: 'Weak verifier (answer anywhere)', short: 'weak verifier', settings: { weakVerifier: 'anywhere' },
        claim: hackingClaim(true),
      },
      {
        label: 'Strict verifier', short: 'strict verifier', settings: { weakVerifier: 'strict' },
        claim: hackingClaim(false),
      },
    ],
    watch:
      'The weak verifier pays whenever the right number appears anywhere in the answer, so a scratchpad whose running ' +
      'sum is right followed by a wrong answer ("6,15,19|18"), hedges and dumps of digits earn reward without being ' +
      'right. Accuracy is always graded strictly, so the reward chart shows the gap. GRPO reinforces what is paid: the ' +
      'gap widens and answers grow. Run it longer and the answers turn into digit dumps: reward stays up while strict ' +
      'accuracy falls. The strict variant is the control.',
    charts: ['reward', 'length'],
    reveals: ['gap widens', 'answers grow', 'sits above accuracy', 'digit dumps'],
    contrast: { what: 'strict accuracy of the last steps', of: (e) => e.accuracy_end, rank: [0, 1], margin: 0.03 }, // seeds 2–6: strict − weak by +0.36 to +0.45
  },
  {
    id: 'grpo-vs-best-of-n',
    title: '5. GRPO vs best-of-N at matched tokens',
    base: { task: 'add', difficulty: 2 },
    settings: pin({ numGenerations: 8, evalEvery: 5 }),
    variants: [
      { label: 'GRPO', settings: { algorithm: 'grpo' }, claim: matchedTokensClaim('GRPO') },
      { label: 'Rejection-sampling fine-tuning', short: 'RFT', settings: { algorithm: 'rft' }, claim: matchedTokensClaim('RFT') },
    ],
    watch:
      'Best-of-N needs no training: sample N answers and keep a verified one. Its success rate is pass@N — but it pays ' +
      'N× the tokens of one answer for every question, forever. GRPO and rejection-sampling fine-tuning (RFT: ' +
      'cross-entropy on the verified answers only) pay their rollouts\' tokens T once, at training time (the same per ' +
      'step for both), then answer with one sample. The matched-tokens chart puts all three on one axis: the generated ' +
      'tokens it takes to serve Q questions (choose Q). The trained curve starts at best-of-1 and moves right by T, up ' +
      'by held-out pass@1 (sampled); best-of-N on the base moves right N× per question. For few questions best-of-N is cheaper; ' +
      'past T / (N·L̄₀ − L̄) questions (L̄: tokens an answer) training has paid for itself — the verdict computes it for ' +
      'this run. Run GRPO, then RFT: the previous run stays on the chart. RFT only imitates the successes; GRPO also ' +
      'learns from the failures: every answer of a mixed group has a non-zero advantage.',
    charts: ['tokens', 'passk', 'reward'],
  },
  {
    id: 'scratchpad',
    title: '6. A thinking scratchpad: when does it spread?',
    base: { task: 'modsum', difficulty: 2 },
    settings: pin({ maxCompletionLength: 18, formatReward: 0, rewardMode: 'outcome', promptsPerStep: 16 }),
    variants: [
      {
        label: 'Last digit of the sum (running sums of one digit)', short: 'last digit', settings: { task: 'modsum', difficulty: 2 },
        claim: claim({
          text: 'Where thinking pays, it spreads: the share of answers that write a scratchpad rises, and answers grow longer.',
          steps: 16,
          measure: (r) => ({ think_early: early(r, (m) => m.think_fraction), think_late: late(r, (m) => m.think_fraction), length_early: early(r, (m) => m.mean_length), length_late: late(r, (m) => m.mean_length) }),
          number: above(THINK_RISE, numberDiff('think_late', 'think_early'), 0.15),
          sentence: (e) => `thinking share ${fmt2(e.think_early)} → ${fmt2(e.think_late)}, answer length ${fmt2(e.length_early)} → ${fmt2(e.length_late)} tokens`,
          hint: 'Run more steps: the share grows as thinking answers win their groups.',
        }),
      },
      {
        label: 'Whole digit sum (running sums up to 45)', short: 'whole sum', settings: { task: 'digitsum', difficulty: 2 },
        claim: claim({
          text: 'Where thinking does not pay, it does not spread: the policy moves (KL above 0), yet the scratchpad share does not rise.',
          steps: 16,
          measure: (r) => ({ think_early: early(r, (m) => m.think_fraction), think_late: late(r, (m) => m.think_fraction) }),
          number: below(THINK_RISE, numberDiff('think_late', 'think_early'), 0.05), // falsifiable: a run where thinking spreads fails (lessons.test.ts)
          sentence: (e) => `thinking share ${fmt2(e.think_early)} → ${fmt2(e.think_late)}`,
          hint: 'Thinking is paying on this run after all: compare the accuracy with and without a scratchpad on the thinking chart.',
        }),
      },
    ],
    watch:
      'Only the final answer is graded; writing running sums first ("7,2,0,3|3") is allowed, never asked for, and the ' +
      'base does it in about half of its answers. The task: the last digit of the sum of 5 digits. Answered directly it ' +
      'needs all five digits at once, which this 2-layer model barely manages; written out, each step adds one digit to ' +
      'the previous step, mod 10. Thinking answers are right more often, so in a mixed group they get the positive ' +
      'advantages, and thinking spreads: the share rises and answers grow longer — R1-Zero\'s growing responses at toy ' +
      'scale. The second variant is the control: the whole digit sum, whose running sums reach 45 and which this model ' +
      'cannot yet write reliably. There thinking does not pay, and it does not spread. Length grows where it pays, not ' +
      'because RL likes length. Watch the thinking chart.',
    charts: ['thinking', 'length', 'reward'],
    reveals: ['pays', 'spreads', 'grow longer'],
    contrast: { what: 'rise of the thinking share', of: (e) => e.think_late - e.think_early, rank: [1, 0], margin: 0.05 }, // seeds 2–6: pays − does not by +0.52 to +0.78
  },
  {
    id: 'kl-estimators',
    title: '7. KL estimators: k1 vs k3 vs the exact KL',
    base: { task: 'add', difficulty: 2 },
    settings: pin({ beta: 0.05, klEstimator: 'k3', learningRate: 0.0003, numIterations: 1, warmupSteps: 0 }),
    variants: (['k3', 'k1'] as const).map((k) => ({
      label: k === 'k3' ? 'k3 = e^d − d − 1' : 'k1 = −d',
      short: k,
      settings: { klEstimator: k },
      claim: claim({
        text: `The ${k} estimator's token mean tracks the exact KL (summed over the vocabulary) once π_θ has moved: within a third of it on average.`,
        steps: 10,
        measure: (r) => {
          const moved = r.steps.filter((m) => m.kl_exact > 1e-3);
          const err = moved.map((m) => Math.abs(m.kl - m.kl_exact) / m.kl_exact);
          return { steps_moved: moved.length, relative_error: err.length ? err.reduce((a, b) => a + b, 0) / err.length : NaN, kl_late: late(r, (m) => m.kl), kl_exact_late: late(r, (m) => m.kl_exact) };
        },
        number: below('mean relative error to the exact KL', numberKey('relative_error'), 1 / 3),
        sentence: (e) => `${k} ${fmt2(e.kl_late)} vs exact ${fmt2(e.kl_exact_late)} nats (mean relative error ${fmt2(e.relative_error)})`,
        hint: 'π_θ has barely moved from π_ref yet: run more steps.',
      }),
    })),
    watch:
      'Per sampled token, with d = log π_ref − log π_θ, k1 = −d is unbiased but often negative; k3 = e^d − d − 1 is ' +
      'unbiased and never negative. The exact KL sums over the whole small vocabulary (51 tokens), so the estimators can ' +
      'be checked against it. While π_θ stays close to π_ref k3 has the lower variance; far from it, e^d\'s tail makes k3 ' +
      'the noisier one. Watch the KL chart: the estimator\'s line beside the exact KL (dashed), under each estimator; the ' +
      'step-through\'s heat-map shows the per-token KL.',
    charts: ['kl', 'entropy'],
    reveals: ['lower variance', 'the noisier one', 'tracks the exact KL'],
    contrast: { what: 'mean relative error of the estimator to the exact KL (lower is closer)', of: (e) => e.relative_error, rank: [0, 0], margin: 0.05 }, // the lesson says which wins depends on how far π_θ moved
  },
  {
    id: 'process-reward',
    title: '8. Process vs outcome reward: paying for the steps',
    base: { task: 'digitsum', difficulty: 2 },
    settings: pin({ maxCompletionLength: 18, formatReward: 0, promptsPerStep: 16, processWeight: 0.5 }),
    variants: [
      {
        label: 'Outcome reward: only the answer is paid', short: 'outcome reward', settings: { rewardMode: 'outcome' },
        claim: claim({
          text: 'Paid only for the answer, the scratchpad recedes on this task: its running sums are often wrong, so direct answers win their groups and the share of answers that think falls.',
          steps: 20,
          measure: (r) => processMeasure(r),
          number: below(THINK_RISE, numberDiff('think_late', 'think_early'), -0.15),
          sentence: (e) => processSentence(e),
          hint: 'Run more steps: the share falls as direct answers win their groups.',
        }),
      },
      {
        label: 'Process reward (w = 0.5): right steps are paid too', short: 'process reward', settings: { rewardMode: 'process' },
        claim: claim({
          text: 'Paid for its right steps, a scratchpad earns reward even when its answer is wrong: the share of answers that think rises, and the reward sits above strict accuracy by the step credit.',
          steps: 20,
          measure: (r) => processMeasure(r),
          number: above(THINK_RISE, numberDiff('think_late', 'think_early'), 0.15),
          sentence: (e) => processSentence(e),
          hint: 'Run more steps, or raise the process weight w: the share rises as scratchpads win their groups.',
        }),
      },
    ],
    watch:
      'Under process reward an answer that writes running sums ("7,12,20|20") earns (1 − w)·r_outcome + w·(share of its ' +
      'steps that are right: its step score); a direct answer keeps its outcome reward, so a right direct answer still earns 1. The task ' +
      'is lesson 6\'s control, the whole digit sum, whose running sums reach 45 and which this model often writes wrong. ' +
      'Paid only for the answer, thinking loses its groups and recedes, and accuracy rises on direct answers. Paid for ' +
      'its right steps, a scratchpad with a wrong answer still earns something, so thinking spreads — same base, same ' +
      'prompts, only the reward differs. What is paid is what grows: the step credit lifts the reward above accuracy, but within the ' +
      'lesson\'s steps strict accuracy rises less under process reward than under outcome reward on most seeds: the ' +
      'steps it pays are not yet the way to the answer. A dense reward shapes the route; where the route is the way to ' +
      'the answer (lesson 6\'s one-digit steps) both rewards spread thinking. Run both variants, compare the thinking chart.',
    charts: ['thinking', 'reward', 'length'],
    reveals: ['spreads', 'recedes', 'rises less', 'what is paid is what grows'],
    contrast: { what: 'thinking share of the last steps', of: (e) => e.think_late, rank: [0, 1], margin: 0.05 },
  },
  {
    id: 'dynamic-sampling',
    title: '9. Dynamic sampling: resample until groups mix',
    base: { task: 'add', difficulty: 2 },
    settings: pin({ promptsPerStep: 16, numGenerations: 8, formatReward: 0, learningRate: 0.001, evalEvery: 5, maxResample: 3 }),
    variants: [
      { label: 'Dynamic sampling (resample until mixed, up to 3 rollouts)', short: 'dynamic sampling', settings: { dynamicSampling: true }, claim: dynamicClaim(true, 16, 8) },
      { label: 'No resampling', short: 'no resampling', settings: { dynamicSampling: false }, claim: dynamicClaim(false, 16, 8) },
    ],
    watch:
      'A group whose answers all pass or all fail has zero advantages: its tokens were generated and teach nothing. DAPO ' +
      'resamples: it drops such groups and draws new prompts until the batch is full of mixed ones (here at most three ' +
      'rollouts a step). The groups chart shows the mixed share near 1 under it. The price is on the tokens axis: the ' +
      'prompts drawn beyond the batch and the answers thrown away, every step. Whether it paid is a question of held-out ' +
      'accuracy per generated token, not per step: the verdict gives both, and the chapter asks to track rollout tokens, ' +
      'discarded samples and useful updates together. Run both variants on the same seed and compare the gain per 100k ' +
      'generated tokens (the tokens chart puts them on one axis). At this scale most groups already mix at G = 8, so ' +
      'resampling buys little for the tokens it costs: per generated token, which variant gains more depends on the seed ' +
      '(the line under the verdict gives ten). A harder base, or a smaller G, leaves more groups unmixed and makes it pay more.',
    charts: ['groups', 'passk', 'tokens'],
    reveals: ['mixed share near 1', 'buys little', 'depends on the seed'],
    contrast: { what: 'held-out pass@1 (sampled) gained per 100k generated tokens', of: (e) => (gain(e) / Math.max(1, e.tokens_generated)) * 1e5, rank: [0, 0], margin: 0.1 }, // no expected order: per token, which gains more depended on the seed at this scale (seeds 2–11 on WebGPU: higher under dynamic sampling on 4 of 10)
  },
  {
    id: 'small-pool',
    title: '10. Training reward on a small training pool',
    base: { task: 'add', difficulty: 2 },
    settings: pin({ promptsPerStep: 16, numGenerations: 8, formatReward: 0, learningRate: 0.001, evalEvery: 5 }),
    variants: [
      { label: 'A small training pool (16 prompts)', short: '16-prompt pool', settings: { trainPool: 16 }, claim: poolClaim(true) },
      { label: 'The whole training split (new prompts every step)', short: 'whole split', settings: { trainPool: 0 }, claim: poolClaim(false) },
    ],
    watch:
      'The training reward is measured on the prompts the policy trains on. With a pool of 16 prompts, every step ' +
      'draws from the same few questions, and the policy can learn their answers rather than addition: the reward ' +
      'climbs far more than held-out pass@1 (sampled, on prompts it never trains on), which stays flat, falls, or creeps ' +
      'up a few points. The chapter\'s rule: stop and investigate when training reward rises without held-out ' +
      'improvement. The verdict reads the gap, reward\'s rise minus held-out\'s rise; the lab also runs the rule as a ' +
      'stop signal on every run, which fires when held-out does not rise at all (on most seeds of the small pool, not ' +
      'where held-out creeps up). On the whole training split every step brings new prompts, and ' +
      'the reward and held-out accuracy move together (in 30 steps both rise a few points, or neither does). The format reward is off, so the reward is the training accuracy. ' +
      'Run both variants on the same seed; the previous run stays as an overlay on the reward chart.',
    charts: ['reward', 'passk', 'groups'],
    reveals: ['climbs far', 'move together', 'stays flat'],
    contrast: { what: 'training reward\'s rise minus held-out pass@1\'s rise', of: (e) => e.reward_late - e.reward_early - gain(e), rank: [1, 0], margin: 0.05 }, // seeds 2–6: small pool − whole split by +0.32 to +0.53
  },
  {
    id: 'forgetting',
    title: '11. Train on one task, watch another: with and without a leash',
    base: { task: 'add', difficulty: 2 },
    settings: pin({ watchTask: 'reverse', promptsPerStep: 16, numGenerations: 8, formatReward: 0, learningRate: 0.001, warmupSteps: 0, evalEvery: 5, measureKl: true }), // no warm-up: the drift is the lesson (lessons.test.ts)
    variants: [
      { label: 'β = 0 (no leash)', short: 'β = 0', settings: { beta: 0 }, claim: forgettingClaim(false) },
      { label: 'β = 0.1 (KL leash to the two-task base)', short: 'β = 0.1', settings: { beta: 0.1 }, claim: forgettingClaim(true) },
    ],
    watch:
      'The base solves two tasks, addition and reversing letters. GRPO trains on addition only; reversal is never in a ' +
      'batch, but at every evaluation the lab also measures held-out pass@1 on it (the dotted black line on the pass@k ' +
      'chart). A verifiable reward says nothing about what the policy should keep: without a leash the weights move ' +
      'wherever addition\'s reward pulls them, and reversal, which shares every weight, pays for it. The KL leash ' +
      'β·KL(π_θ ‖ π_ref) is measured on the answers the policy samples, which are additions: it holds the policy near ' +
      'the base there (watch the KL chart), and only indirectly anywhere else. At this scale it slows the forgetting of ' +
      'reversal on some seeds and not on others. Whether to use a reference penalty is a measured design choice: run ' +
      'both variants on the same seed and compare how far reversal falls, at the gain on addition each one bought.',
    charts: ['passk', 'kl', 'reward'],
    reveals: ['slows the forgetting', 'pays for it', 'reverse falls'],
    // the leash measured where the lesson is about it: reverse's change under β = 0.1 minus under β = 0 (both
    // from the same base, read on the same reverse prompts and draws). The chapter expects the leash to protect
    // (higher); at this scale it did on three of seeds 2–6 (reverse fell 0.03–0.13 at β = 0, 0.02–0.09 with it):
    // the fresh seeds judge it (src/rl/records/forgetting.json)
    contrast: { what: 'change in reverse\'s held-out pass@1 (never trained on)', of: (e) => e.watch_end - e.watch_start, rank: [0, 1], margin: 0.02 },
  },
];

export function getLesson(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

/**
 * The two variants a lesson's question compares (its contrast, contrast.ts): the second (asked)
 * against the first (against). Null for a lesson with no contrast or a single variant.
 */
export function lessonQuestionVariants(lesson: Lesson): { asked: number; against: number } | null {
  return lesson.contrast && lesson.variants.length >= 2 ? { asked: 1, against: 0 } : null;
}

/** The settings a lesson (and one of its variants) sets on top of a base. */
export function lessonSettings(lesson: Lesson, base: Settings, variant = 0): Settings {
  return { ...base, task: lesson.base.task, difficulty: lesson.base.difficulty, ...lesson.settings, ...(lesson.variants[variant]?.settings ?? {}) } as Settings;
}
