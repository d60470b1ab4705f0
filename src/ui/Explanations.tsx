import { getLesson } from '../rl/lessons.ts';
import { useLab } from '../store/labStore.ts';
import { useBlind } from './Predict.tsx';

/**
 * The text under the lab: each chart and the question it answers, in the chapter's terms. It
 * explains outcomes (a larger G, GRPO's length weighting, thinking that pays), so while the lesson
 * on screen waits for the student's prediction it waits too.
 */
export function Explanations() {
  const lessonId = useLab((s) => s.lessonId);
  const blind = useBlind(lessonId ? getLesson(lessonId) : undefined);
  if (blind) {
    return (
      <section className="explanations card" aria-label="What the charts answer" data-testid="explanations" data-blind="true">
        <h2>What you are looking at</h2>
        <p>What each chart shows, and why, opens here once you have predicted (the question on the lesson card).</p>
      </section>
    );
  }
  return (
    <section className="explanations card" aria-label="What the charts answer" data-testid="explanations">
      <h2>What you are looking at</h2>
      <p>
        Each step, the policy (a tiny character-level transformer) answers P prompts G times each — a <em>group</em> per prompt. A
        verifier checks every answer and gives a reward. GRPO needs no value network: an answer's <em>advantage</em> is its reward
        measured against its own group, A<sub>i</sub> = (r<sub>i</sub> − mean)/(std + ε). The update makes answers with A &gt; 0 more likely
        and answers with A &lt; 0 less likely, through the clipped ratio ρ = π<sub>θ</sub>/π<sub>old</sub> and an optional KL leash β to the
        base model π<sub>ref</sub>.
      </p>
      <dl>
        <dt>Reward and held-out accuracy</dt><dd>Is it learning, and does it generalise? Training reward can rise by memorising or by gaming a weak verifier; only strict accuracy on held-out prompts says the skill transfers.</dd>
        <dt>All-pass / all-fail / mixed groups</dt><dd>How much of the batch teaches? A group with equal rewards has zero advantages. The dashed line is the prediction 1 − p̄<sup>G</sup> − (1 − p̄)<sup>G</sup> from the batch pass rate.</dd>
        <dt>Group advantages</dt><dd>What this update pushes up and down, answer by answer.</dd>
        <dt>Theory panel</dt><dd>Where the prompts sit on the capability boundary: prompts near p = 0 or p = 1 give no signal; a larger G widens the useful band.</dd>
        <dt>Entropy</dt><dd>Is the policy still exploring? When entropy collapses the groups stop mixing and learning stalls.</dd>
        <dt>Length of correct vs incorrect answers</dt><dd>Is the objective paying for length? GRPO's per-answer mean dilutes the penalty of long wrong answers; Dr. GRPO removes that bias. A scratchpad that grows together with accuracy is the good kind of growth.</dd>
        <dt>Thinking (tasks with a scratchpad)</dt><dd>Does thinking pay, and does it spread? The share of answers that write their working before “|”, and how often answers with and without it are right. Where thinking answers are right more often they get the positive advantages, and the share grows — the R1-Zero story; where it does not pay, it recedes.</dd>
        <dt>KL and clip fractions</dt><dd>How far the policy has moved from the base, and how often the clip range ε, ε_high stops the gradient.</dd>
        <dt>pass@k</dt><dd>Does RL find new solutions or sharpen known ones? pass@k is the chance that one of k samples is right; pass@G is best-of-G.</dd>
      </dl>
      <p>Warnings marked ⚠ are the chapter's stop signals: reward rising while held-out accuracy is flat, length rising without accuracy, mixed groups vanishing, entropy collapsing — and one more: held-out accuracy falling below where the run started. Each is shown on the chart it concerns, with the numbers that triggered it.</p>
    </section>
  );
}
