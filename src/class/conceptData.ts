/**
 * Predict → observe → explain, and a concept question before and after (issue 49): per lesson, as
 * data in one place, the "Why?" asked after the verdict and the concept question pair. Read through
 * concepts.ts, which computes every answer key with the lab's own code and builds the choices.
 *
 *   explain   a prompt and 3–4 reasons, one right and the others misconceptions a student of the
 *             GRPO chapter actually holds, each with `why` (shown after the click, marked against the
 *             choice), and the lesson's explanation. The share code carries the chosen reason's index
 *             in `reasons` as written here (concepts.ts reasonOrder shuffles it for display).
 *   concept   one transfer question that a run does not answer by reading a number off the screen,
 *             asked before the lesson's first Play (pre) and after the explain step (post): the same
 *             question (`ask`) with its numbers changed. Each is a KeySpec: which of the lab's formulas
 *             answers it and with what numbers (concepts.ts answerKey), never a typed answer; the wrong
 *             choices come from the misconceptions' formulas on the same numbers (concepts.ts).
 *
 * Written for students: no code and no field names. A pre question must not state its lesson's
 * outcome (Lesson.reveals; concepts.test.ts checks). Lesson 5 has no prediction (no contrast), yet
 * a verdict per variant: it gets an explain question and a concept pair like the others.
 */

/** Which of the lab's formulas answers a concept question, with its numbers (concepts.ts answerKey computes it). */
export type KeySpec =
  /** How often a group of G, each answer right with probability p, mixes (teaches): tasks/metrics.ts mixedGroupProbability. */
  | { kind: 'mixed'; p: number; G: number }
  /** The share of groups dynamic sampling drops (all pass or all fail): 1 − mixedGroupProbability. */
  | { kind: 'dropped'; p: number; G: number }
  /** Per-token weight of a long answer against a short one under GRPO's per-answer mean: model/objective.ts aggregationWeights. */
  | { kind: 'tokenWeight'; long: number; short: number }
  /** What the clipped surrogate counts for one token (ratio, advantage, ε): model/objective.ts policyObjective. */
  | { kind: 'clip'; ratio: number; advantage: number; epsilon: number }
  /** The GRPO advantage of answer `paid` (paid by a weak verifier, wrong when graded strictly): rl/advantages.ts groupAdvantages. */
  | { kind: 'hackAdvantage'; rewards: number[]; paid: number }
  /** Questions after which training has paid for itself against best-of-n: rl/matchedTokens.ts breakEvenQuestions. */
  | { kind: 'breakEven'; trainingTokens: number; n: number; baseTokens: number; trainedTokens: number }
  /** The total GRPO advantage of a group's scratchpad answers (`think` then `direct` rewards): groupAdvantages. */
  | { kind: 'thinkAdvantage'; think: number[]; direct: number[] }
  /** k3 for one sampled token with d = log π_ref − log π_θ: policyObjective's per-token KL. */
  | { kind: 'k3'; d: number }
  /** An answer's process reward: rl/processReward.ts mixProcessReward. */
  | { kind: 'processReward'; outcome: 0 | 1; steps: number; right: number; w: number }
  /** The small-pool lesson's gap (its contrast, lessons.ts) for a policy that learns m of P prompts by heart from base rate p. */
  | { kind: 'poolGap'; base: number; pool: number; memorized: number }
  /** The leash's β·k3 for one sampled token (advantage 0): policyObjective's loss. */
  | { kind: 'leash'; beta: number; d: number }
  /** No formula exists: typed by hand, with why (none in this table; concepts.test.ts lists any that appear). */
  | { kind: 'hand'; value: number; why: string };

export interface Reason {
  text: string;
  right: boolean;
  /** Why it is right, or what is wrong with it: shown after the click. */
  why: string;
}

export interface ExplainData {
  prompt: string;
  /** 3–4 reasons, exactly one right; the share code carries the chosen one's index here. */
  reasons: Reason[];
  /** The lesson's explanation, shown after the click. */
  explanation: string;
}

export interface ConceptData {
  /** The idea the question tests, in a few words (the class view's heading for its numbers). */
  idea: string;
  /** The question for a given set of numbers: pre and post read alike but for the numbers. */
  ask: (k: KeySpec) => string;
  pre: KeySpec;
  post: KeySpec;
}

export interface LessonConceptData {
  explain: ExplainData;
  concept: ConceptData;
}

/** A share as the questions write it: "95 %", "1.7 %". */
export const pct = (x: number) => `${+(x * 100).toFixed(x < 0.1 ? 1 : 0)} %`;
const num = (x: number) => (x < 0 ? `−${-x}` : String(x));
const plus = (x: number) => (x > 0 ? `+${x}` : num(x));
const thousands = (x: number) => x.toLocaleString('en');

/** The ask for one kind of spec (the table below states each question once, for both of its sets of numbers). */
function ask<K extends KeySpec['kind']>(_kind: K, f: (k: Extract<KeySpec, { kind: K }>) => string): (k: KeySpec) => string {
  return (k) => f(k as Extract<KeySpec, { kind: K }>);
}

const r = (text: string, why: string, right = false): Reason => ({ text, right, why });

export const LESSON_CONCEPTS: Record<string, LessonConceptData> = {
  'mixed-groups': {
    explain: {
      prompt: 'Why does a group of 2 answers teach so much less than a group of 8?',
      reasons: [
        r('A bigger group is a bigger batch: G = 8 sees four times the answers, so it simply learns faster.', 'More answers help only because more groups mix. An all-pass group of 8 teaches exactly as little as one of 2: its advantages are all zero.'),
        r('With two answers, most groups come out all-pass or all-fail. Their advantages are zero, so few groups carry a signal, and the step the optimizer still takes is mostly noise.', 'A group teaches only when it mixes a pass and a failure. At G = 2 near the capability boundary that is rare, yet the weights move about as far every step.', true),
        r('With only two answers to each prompt, the model overfits to them.', 'Overfitting needs a signal to fit. Most groups of 2 give none (their advantages are zero): the update is noise, not memorization.'),
        r('With two answers each advantage is large (±0.71), so every step is too big and overshoots.', 'An all-pass or all-fail group has zero advantages whatever G is, and at G = 2 most groups are such. The few mixed ones are not what goes wrong.'),
      ],
      explanation: 'A group teaches only when it mixes passes and failures: then its advantages are non-zero. With pass rate p a group of G answers mixes with probability 1 − p^G − (1 − p)^G, small at G = 2 and large at G = 8. With few mixed groups the optimizer still moves the weights about as far each step, so the updates are mostly noise.',
    },
    concept: {
      idea: 'how often a group teaches',
      ask: ask('mixed', (k) => `The model solves a prompt ${pct(k.p)} of the time, and GRPO samples a group of G = ${k.G} answers to it. How often does that group teach the model anything?`),
      pre: { kind: 'mixed', p: 0.95, G: 4 },
      post: { kind: 'mixed', p: 0.9, G: 8 },
    },
  },
  'length-bias': {
    explain: {
      prompt: 'Why are a long wrong answer\'s tokens pushed down less under GRPO than under Dr. GRPO?',
      reasons: [
        r('Dr. GRPO drops the division by the group\'s standard deviation, so its advantages are bigger and every token moves more.', 'That scales long and short answers alike: the long/short ratio the verdict reads does not change with it.'),
        r('GRPO divides each answer\'s loss by that answer\'s own length, so a long answer\'s push is shared by more tokens and each gets less; Dr. GRPO divides every answer by the same constant.', 'Per token, GRPO weighs a 10-token answer a fifth as much as a 2-token one in the same group; Dr. GRPO weighs them alike.', true),
        r('Long answers are wrong more often, so GRPO has learned to leave them alone.', 'The weighting is in the objective, not learned: at the very first step GRPO already gives each token of a long answer less weight.'),
        r('Dr. GRPO punishes long answers on purpose, to make answers shorter.', 'Dr. GRPO treats every token alike, long answer or short; it is GRPO\'s per-answer mean that treats them differently.'),
      ],
      explanation: 'GRPO averages each answer\'s token losses over its own length, so in a group a long wrong answer gets the same total push-down as a short one, spread over more tokens: each of its tokens is pushed less. Dr. GRPO divides every answer by the same constant (the maximum length), so every wrong token is weighted alike.',
    },
    concept: {
      idea: 'how GRPO weighs a long answer\'s tokens',
      ask: ask('tokenWeight', (k) => `Under GRPO, one group holds two wrong answers with the same advantage: one of ${k.long} tokens and one of ${k.short}. How much is each token of the long answer weighted, compared with each token of the short one?`),
      pre: { kind: 'tokenWeight', long: 10, short: 2 },
      post: { kind: 'tokenWeight', long: 12, short: 3 },
    },
  },
  'entropy-collapse': {
    explain: {
      prompt: 'Why does the entropy fall less with β = 1 and ε = 0.2 than with β = 0 and ε = 0.5?',
      reasons: [
        r('The KL term is an entropy bonus: it pays the model for staying unsure.', 'The KL term pays for staying near the base, whatever the base\'s entropy. An entropy bonus is a different term, and it is off here.'),
        r('With β = 1 the reward stops mattering, so the policy does not learn at all.', 'The leashed run still moves (the verdict checks its KL is above 0): the leash slows the narrowing, it does not stop learning.'),
        r('The KL term pulls the policy back toward the base wherever it drifts, and the narrow ε stops any one update from moving a token\'s probability far, so the policy cannot narrow onto the rewarded answers as fast.', 'Both hold the policy near where it started: the KL term at every step, the clip within each step\'s inner epochs.', true),
        r('A narrow ε throws away every answer whose probability changed, so the leashed run trains on fewer answers.', 'The clip only stops the push on a token whose ratio has already left the range in the direction its advantage pushes; the rest of the answer still trains.'),
      ],
      explanation: 'Several inner epochs push the policy toward whatever was rewarded, and the next-token entropy falls: the policy stops exploring. A strong KL leash pulls it back toward the base at every step, and a narrow clip range limits how far each update can move a token\'s probability, so the entropy falls more slowly. At this scale the leash slows the collapse; it does not undo it.',
    },
    concept: {
      idea: 'what the clip does to one token',
      ask: ask('clip', (k) => `A token's probability is now ${k.ratio} times what it was when its answer was sampled, its answer's advantage is ${plus(k.advantage)}, and ε = ${k.epsilon}. What does the clipped objective count for this token?`),
      pre: { kind: 'clip', ratio: 1.5, advantage: 1, epsilon: 0.2 },
      post: { kind: 'clip', ratio: 1.8, advantage: 1, epsilon: 0.5 },
    },
  },
  'reward-hacking': {
    explain: {
      prompt: 'Why does strict accuracy end lower under the weak verifier than under the strict one?',
      reasons: [
        r('The weak verifier pays less, so the model has less to learn from.', 'It pays more, not less: the reward sits above strict accuracy. What it pays for is the trouble.'),
        r('The strict verifier is harder to satisfy, and a harder reward always teaches more.', 'A reward teaches whatever it pays for. The strict verifier helps because it pays only right answers, not because it is hard.'),
        r('Longer answers are always less accurate, and the weak run\'s answers just happened to grow.', 'They grew because long answers full of numbers are paid more often by the weak verifier: the growth is what the reward bought, not chance.'),
        r('The weak verifier pays wrong answers that contain the right number somewhere; in their groups those get positive advantages, so GRPO spreads hedges and digit dumps, which strict grading marks wrong.', 'GRPO reinforces what is paid: a paid wrong answer is pushed up like a right one.', true),
      ],
      explanation: 'The weak verifier pays whenever the right number appears anywhere in the answer, so a scratchpad with a wrong final answer, hedges and dumps of digits earn reward without being right. GRPO reinforces what is paid: the gap between reward and strict accuracy widens and answers grow. The strict verifier pays only right answers, so what spreads is right answers.',
    },
    concept: {
      idea: 'the advantage of a paid wrong answer',
      ask: ask('hackAdvantage', (k) => `The weak verifier pays the ${k.rewards.length} answers of one group ${k.rewards.join(', ')}. Answer ${k.paid + 1} is a dump of digits that is wrong but contains the right number, so it is paid. Under GRPO, what advantage does it get?`),
      pre: { kind: 'hackAdvantage', rewards: [1, 1, 1, 0], paid: 2 },
      post: { kind: 'hackAdvantage', rewards: [0, 1, 0, 0], paid: 1 },
    },
  },
  'grpo-vs-best-of-n': {
    explain: {
      prompt: 'Why is best-of-N the cheaper way to the trained model\'s accuracy for a few questions, but training the cheaper way for many?',
      reasons: [
        r('Best-of-N pays N answers\' tokens for every question, every time; training pays its tokens once and then answers with one sample, so its one-off cost is shared by more and more questions.', 'A one-off bill against a bill per question: past T / (N·L̄₀ − L̄) questions the one-off bill is the smaller.', true),
        r('Best-of-N gets less accurate the more questions it answers.', 'Its pass rate is pass@N on every question, the first or the ten-thousandth: only its cost grows.'),
        r('GRPO also learns from its failures, so it needs fewer tokens than sampling does.', 'That is GRPO against RFT. The crossover is about cost: a training bill paid once against N answers paid for every question.'),
        r('The trained model writes much shorter answers, and that alone is what pays.', 'Shorter answers help a little, but even at equal lengths best-of-N pays N answers a question, forever, and the trained model one.'),
      ],
      explanation: 'Best-of-N needs no training, but it pays N answers\' tokens for every question, forever. Training pays its rollouts\' tokens T once, then answers with one sample. For few questions best-of-N is cheaper; past T / (N·L̄₀ − L̄) questions training has paid for itself.',
    },
    concept: {
      idea: 'when training pays for itself',
      ask: ask('breakEven', (k) => `Training cost ${thousands(k.trainingTokens)} tokens. Best-of-${k.n} on the base matches the trained model's accuracy; the base's answers average ${k.baseTokens} tokens, the trained model's ${k.trainedTokens}. After about how many questions has training paid for itself?`),
      pre: { kind: 'breakEven', trainingTokens: 120_000, n: 3, baseTokens: 8, trainedTokens: 6 },
      post: { kind: 'breakEven', trainingTokens: 200_000, n: 2, baseTokens: 10, trainedTokens: 7 },
    },
  },
  'scratchpad': {
    explain: {
      prompt: 'Why does the scratchpad spread on the last digit of the sum but not on the whole sum?',
      reasons: [
        r('The reward pays for writing a scratchpad on the last-digit task.', 'Only the final answer is graded, on both tasks; nothing pays for a scratchpad. Thinking spreads only where it makes the answer right.'),
        r('RL always makes answers longer; the last-digit run just had more time.', 'Both variants run the same steps, and on the whole sum thinking does not spread: length grows where it pays, not because RL likes length.'),
        r('Thinking spreads only on easy tasks, and the whole sum is easy without it.', 'The whole sum is the harder one for this model. Thinking fails to spread there because its running sums are often wrong, so scratchpad answers lose their groups.'),
        r('On the last digit, answers that write running sums are right more often, so in mixed groups they get the positive advantages and thinking spreads; on the whole sum this model writes the running sums wrong, so thinking does not win its groups.', 'In a mixed group GRPO pushes up the answers that beat the group\'s mean: thinking spreads exactly where it makes answers right more often.', true),
      ],
      explanation: 'Only the final answer is graded. On the last digit of the sum each written step adds one digit, which this model manages, so thinking answers are right more often: in mixed groups they get the positive advantages and thinking spreads. On the whole sum the running sums reach 45 and are often wrong: thinking does not pay, and it does not spread.',
    },
    concept: {
      idea: 'which answers a group pushes up',
      ask: ask('thinkAdvantage', (k) => `In a group of ${k.think.length + k.direct.length} answers, ${k.think.length} write a scratchpad (${k.think.filter((x) => x === 1).length} of them right) and ${k.direct.length} answer directly (${k.direct.filter((x) => x === 1).length} of them right). Under GRPO, what is the total advantage of the ${k.think.length} scratchpad answers?`),
      pre: { kind: 'thinkAdvantage', think: [1, 1, 1, 0], direct: [1, 0, 0, 0] },
      post: { kind: 'thinkAdvantage', think: [1, 1, 1, 1, 0], direct: [1, 0, 0] },
    },
  },
  'kl-estimators': {
    explain: {
      prompt: 'How can the mean of k1 or k3 over the sampled tokens track the exact KL, which sums over the whole vocabulary?',
      reasons: [
        r('k1 and k3 also sum over the vocabulary, like the exact KL.', 'They read only the sampled token\'s log-probabilities: that is why they are cheap, and why a single token is noisy.'),
        r('Both are unbiased: averaged over tokens sampled from π_θ, each one\'s mean is the exact KL, though a single token\'s value is off.', 'An estimator is judged by its average over samples; one token says little, their mean says the KL.', true),
        r('k1 can be negative, so its mean cannot be a KL; only k3 tracks it.', 'A single k1 can be negative; averaged over tokens sampled from π_θ it is the KL, which never is.'),
        r('k3 is never negative, so it is exact.', 'Never negative means lower variance while π_θ is near π_ref, not exactness; far from it e^d\'s tail makes k3 the noisier one.'),
      ],
      explanation: 'Per sampled token, with d = log π_ref − log π_θ, k1 = −d is unbiased but often negative; k3 = e^d − d − 1 is unbiased and never negative. Averaged over tokens sampled from π_θ both give the KL, which the lab can check against the exact sum over its 51-token vocabulary. Near π_ref k3 varies less; far from it, e^d\'s tail makes it the noisier one.',
    },
    concept: {
      idea: 'k3 for one token',
      ask: ask('k3', (k) => `For one sampled token, log π_ref − log π_θ = ${num(k.d)}. What does k3 give for this token?`),
      pre: { kind: 'k3', d: 0.5 },
      post: { kind: 'k3', d: -1 },
    },
  },
  'process-reward': {
    explain: {
      prompt: 'Why does thinking spread under process reward and recede under outcome reward, on the same base?',
      reasons: [
        r('Process reward makes the model more accurate, and more accurate models think more.', 'Within the lesson\'s steps strict accuracy rises less under process reward on most seeds: what grows is what is paid, the steps.'),
        r('Under process reward a scratchpad with a wrong answer still earns credit for its right steps, so it beats a wrong direct answer in its group and gets a positive advantage; under outcome reward its often-wrong running sums lose to direct answers.', 'What is paid is what grows: paying for right steps makes scratchpads win their groups.', true),
        r('Process reward pays for length, so longer answers win.', 'It pays the share of the written steps that are right, not their number: a long scratchpad of wrong sums earns nothing extra.'),
        r('Outcome reward punishes scratchpads directly.', 'Outcome reward ignores the scratchpad. Thinking recedes only because its answers are right less often than direct ones on this task.'),
      ],
      explanation: 'Under process reward an answer that writes running sums earns (1 − w)·(its outcome) + w·(the share of its steps that are right), so a scratchpad with a wrong answer still earns something and beats a wrong direct answer in its group: thinking spreads. Paid only for the answer, thinking\'s often-wrong sums lose their groups and it recedes. Same base, same prompts, only the reward differs.',
    },
    concept: {
      idea: 'what process reward pays',
      ask: ask('processReward', (k) => `Process reward with w = ${k.w}: an answer writes ${k.steps} running sums, ${k.right} of them right, and its final answer is wrong. What reward does it earn?`),
      pre: { kind: 'processReward', outcome: 0, steps: 5, right: 3, w: 0.5 },
      post: { kind: 'processReward', outcome: 0, steps: 5, right: 4, w: 0.3 },
    },
  },
  'dynamic-sampling': {
    explain: {
      prompt: 'Why does dynamic sampling buy little here for the tokens it costs?',
      reasons: [
        r('Mixed groups teach less than all-pass groups, so keeping only mixed ones slows learning.', 'An all-pass group has zero advantages: it teaches nothing. Mixed groups are the only ones that teach.'),
        r('Dynamic sampling throws away the hard prompts, so the model never learns them.', 'It drops the groups that teach nothing anyway (all pass or all fail); whether they were kept or not, those groups moved nothing.'),
        r('At G = 8 on this base most groups already mix, so few are dropped: resampling adds prompts drawn and answers thrown away to every step for little extra signal.', 'Its gain is the groups it turns from unmixed to mixed; where nearly all mix already, it pays tokens for little.', true),
        r('Resampling asks the same prompts again and again, so the model memorizes them.', 'It draws new prompts from the training split until the batch is full of mixed groups, not the same ones again.'),
      ],
      explanation: 'A group whose answers all pass or all fail has zero advantages. Dynamic sampling drops such groups and draws new prompts until the batch is full of mixed ones, paying for the extra prompts and the thrown-away answers every step. At G = 8 on this base most groups already mix, so it buys little per generated token; a harder base or a smaller G leaves more groups unmixed and makes it pay more.',
    },
    concept: {
      idea: 'how many groups dynamic sampling drops',
      ask: ask('dropped', (k) => `Dynamic sampling drops every group whose answers all pass or all fail. At a pass rate of ${pct(k.p)} with G = ${k.G}, what share of the groups does it drop?`),
      pre: { kind: 'dropped', p: 0.8, G: 4 },
      post: { kind: 'dropped', p: 0.6, G: 8 },
    },
  },
  'small-pool': {
    explain: {
      prompt: 'Why does the training reward climb far above held-out accuracy on the small pool?',
      reasons: [
        r('The 16 pool prompts happen to be easier.', 'They are drawn from the same training split as every other prompt. What sets them apart is that the policy sees them every step, and the reward on them rises as it learns their answers.'),
        r('Held-out accuracy is graded more strictly than the training reward.', 'The format reward is off: the training reward is the training accuracy, graded the same way.'),
        r('Fewer prompts means fewer answers a step, so the model learns less.', 'Each step samples as many answers either way: the pool changes which questions are asked, not how many.'),
        r('With 16 prompts every step repeats the same questions, so the policy can learn their answers rather than addition; prompts it never trains on gain little.', 'Training reward is read on the prompts trained on: it rises as they are memorized, and held-out accuracy shows what was learned.', true),
      ],
      explanation: 'The training reward is measured on the prompts the policy trains on. With a pool of 16 prompts every step draws the same few questions, and the policy can learn their answers rather than addition: the reward climbs far more than held-out accuracy. The chapter\'s rule: stop and investigate when training reward rises without held-out improvement.',
    },
    concept: {
      idea: 'training reward against held-out accuracy',
      ask: ask('poolGap', (k) => `The base solves ${pct(k.base)} of additions. On a pool of ${k.pool} training prompts, the policy learns the answers to ${k.memorized} of them by heart and learns nothing else. What gap does the lesson's verdict read (the training reward's rise minus held-out accuracy's rise)?`),
      pre: { kind: 'poolGap', base: 0.2, pool: 16, memorized: 8 },
      post: { kind: 'poolGap', base: 0.3, pool: 20, memorized: 6 },
    },
  },
  'forgetting': {
    explain: {
      prompt: 'Why does the KL leash protect reversal only a little, and not on every seed?',
      reasons: [
        r('The leash keeps every task exactly as the base had it.', 'It measures the KL on the sampled additions only; nothing in the loss looks at reversal.'),
        r('Reversal is in the training batch with wrong rewards, and that is what hurts it.', 'Reversal is never in a batch: it falls because the weights it shares with addition move.'),
        r('β = 0.1 is too small to do anything.', 'The leashed run\'s KL stays well below the unleashed one\'s (the verdict checks it stays under a fifth of a nat): the leash works where it is measured.'),
        r('The leash is measured on the answers the policy samples, which are additions: it holds the policy near the base there, and reversal, which shares every weight, only indirectly.', 'A verifiable reward says nothing about what to keep, and the leash only looks where the policy samples.', true),
      ],
      explanation: 'GRPO trains on addition only; reversal is never in a batch, yet it shares every weight, so it pays for what addition\'s reward pulls. The KL leash is measured on the answers the policy samples, which are additions: it holds the policy near the base there, and only indirectly anywhere else. At this scale it slows the forgetting of reversal on some seeds and not on others.',
    },
    concept: {
      idea: 'how hard the leash pulls on one token',
      ask: ask('leash', (k) => `With β = ${k.beta} and the k3 estimator, a sampled token of an addition answer has log π_ref − log π_θ = ${num(k.d)}. How much does the leash add to the loss for this token?`),
      pre: { kind: 'leash', beta: 0.1, d: -1 },
      post: { kind: 'leash', beta: 0.05, d: -2 },
    },
  },
};
