/**
 * The class tour: a walk of about fifteen minutes through the live run, in eight stops. Each stop
 * points at one element of the page (a data-testid: the card puts a spotlight on it, scrolled into
 * view; in the presenter view, the item the presenter shows) and says in one to three sentences
 * what it shows, with this run's own numbers — never figures from a run done once. Where the
 * numbers do not exist yet, the stop says what to press and names the action that does it.
 *
 *   1 reward-contract   the verifier's verdict on real sampled answers: right 1, wrong the format reward, unparseable 0
 *   2 advantages        one group's A_i = (r_i − mean)/σ
 *   3 mixed-groups      lesson 1: the mixed share against 1 − p̄^G − (1 − p̄)^G
 *   4 one-update        the update phase: this batch's gradient alone against AdamW's step
 *   5 objectives        the same batch under GRPO, Dr. GRPO, DAPO and GSPO
 *   6 thinking          lesson 6: thinking spreads where it pays
 *   7 hacking           lesson 4: a weak verifier's reward against strict accuracy
 *   8 when-to-stop      the stop signals; training reward against held-out accuracy
 *
 * Pure data and pure functions of the lab's state: the card (src/ui/ClassTour.tsx) renders them,
 * the controller (src/lab/tour.ts) moves the page and runs the actions through the session.
 */
import { estimatorWords, rewardStd } from '../rl/advantages.ts';
import { adamSentence } from './updateWords.ts';
import { pushCounts } from '../rl/inspection.ts';
import { LESSONS, getLesson } from '../rl/lessons.ts';
import type { StepMetrics } from '../rl/metrics.ts';
import { DEFAULT_STOP_OPTIONS, heldoutMeasure, type StopSignal } from '../rl/stopSignals.ts';
import { SIGNAL_LABELS } from '../rl/doctor.ts';
import { PHASES, type AnswerView, type GroupView, type InspectorState, type LabState } from './labStore.ts';
import { firstLast, heldoutPoints, type PresenterChart } from './presenterView.ts';
import { contrastSentence } from '../rl/contrast.ts';
import { frozenFor, liveVerdict } from './verdictView.ts';

/** What a stop's button does (src/lab/tour.ts runs it through the session's own actions). */
export type TourAction =
  /** The step-through, on to this phase of a batch (a new batch when `fresh`, or when none is open). */
  | { kind: 'step-to'; phase: 'verdicts' | 'advantages' | 'update'; fresh?: boolean; label: string }
  /** A batch at its advantages (the next one if the open update is applied), then "Compare objectives on this batch". */
  | { kind: 'compare'; fresh?: boolean; label: string }
  /** Load a lesson (the Lessons bar's call). */
  | { kind: 'lesson'; lesson: string; label: string }
  /** Play, pausing by itself once this many steps are done. */
  | { kind: 'play-until'; step: number; label: string };

export interface TourSay {
  /** One to three sentences. */
  text: string;
  /** What to press now, if anything. */
  action?: TourAction;
  /** True when the text quotes the live run's numbers; false when it says what to press to get them. */
  live: boolean;
}

/** What the tour reads from the lab's state. */
export type TourInput = Pick<LabState, 'settings' | 'lessonId' | 'lessonVariant' | 'steps' | 'evals' | 'signals' | 'stepMode' | 'inspector'>
  /** The page's finished runs and the live run's origin: a stop quotes a lesson's contrast with a sibling variant (absent: none). The presenter view, when open: a stop names only buttons on the screen. */
  & Partial<Pick<LabState, 'runs' | 'liveOrigin' | 'stepsCompleted' | 'overlayRunId' | 'presenter' | 'verdict'>>;

export type TourView = { kind: 'chart'; chart: PresenterChart } | { kind: 'step'; phase: (typeof PHASES)[number] };

export interface TourStop {
  id: string;
  title: string;
  /** The data-testid of the element the stop highlights. */
  target: string;
  /** The element highlighted while `target` is not on the page (it appears with the stop's numbers). */
  fallback?: string;
  /** What the presenter view shows at this stop (and, for the step-through, the phase the page shows). */
  view: TourView;
  /** The stop's sentences on this state, and what to press. */
  say(s: TourInput): TourSay;
}

// ---- numbers as the card prints them ---------------------------------------------------------

const MINUS = '−';
/** Fixed decimals with a real minus sign ("−0.50"; a value that rounds to 0 has none). */
export const num = (x: number, d = 2): string => {
  if (!Number.isFinite(x)) return '–';
  const t = Math.abs(x).toFixed(d);
  return Number(t) === 0 || x > 0 ? t : MINUS + t;
};
/**
 * As the step-through's tables print a figure (palette.ts fmt): to 3 decimals, trailing zeros
 * dropped ("0.125", "−0.378", "0.5", "−1"), below 0.001 as "4.0e-4"; with a real minus sign, and
 * `plus` marks a positive one.
 */
export const shown = (x: number, plus = false): string => {
  if (!Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  const t = x !== 0 && (a < 1e-3 || a >= 1e5) ? a.toExponential(1) : String(Number(a.toFixed(3)));
  return t === '0' ? t : (x < 0 ? MINUS : plus ? '+' : '') + t;
};
/** A reward as the step-through shows it: "1", "0.1", "0". */
export const rew = (x: number): string => (x < 0 ? MINUS : '') + String(Number(Math.abs(x).toFixed(2)));
const quote = (t: string) => `“${t === '' ? '(empty)' : t.length > 28 ? `${t.slice(0, 27)}…` : t}”`;
const mean = (xs: number[]) => { const f = xs.filter(Number.isFinite); return f.length ? f.reduce((a, b) => a + b, 0) / f.length : NaN; };
const WINDOW = 3;
/** What a stop signal's chart is called where the tour names it without showing it. */
const CHART_NAMES: Record<StopSignal['chart'], string> = { reward: 'reward', length: 'answer-length', groups: 'mixed-groups', entropy: 'entropy' };
const first = (steps: readonly StepMetrics[], f: (m: StepMetrics) => number) => mean(steps.slice(0, WINDOW).map(f));
const last = (steps: readonly StepMetrics[], f: (m: StepMetrics) => number) => mean(steps.slice(-WINDOW).map(f));

// ---- the step-through's batch -----------------------------------------------------------------

/** The step-through's state as the page shows it (only in step mode). */
const shownInspector = (s: TourInput): InspectorState | null => (s.stepMode && s.inspector?.rollout ? s.inspector : null);
/** Phases computed: 3 once the verdicts are in, 4 with the advantages, 6 once the update is applied. */
const has = (ins: InspectorState | null, phase: (typeof PHASES)[number]): ins is InspectorState => !!ins && ins.computed > PHASES.indexOf(phase);
const focusOf = (ins: InspectorState) => Math.max(0, Math.min(ins.focus ?? 0, ins.rollout!.groups.length - 1));
const kindOf = (a: AnswerView) => (a.correct ? 'right' : a.formatOk ? 'wrong' : 'unparseable');
const spread = (g: GroupView) => g.answers.some((a) => a.reward !== g.answers[0].reward);

/** The group the tour talks about: the focused one (the step-through opens on one whose rewards differ). */
export function tourGroup(ins: InspectorState): { p: number; g: GroupView } {
  const p = focusOf(ins);
  return { p, g: ins.rollout!.groups[p] };
}

/**
 * The verifier's contract, then one real answer of each kind, all from the focused group: the
 * step-through shows that group's answers in full (the others only as n/G in the strip), so a stop
 * that named another prompt's answer would quote what is not on the screen.
 */
function rewardContract(s: TourInput): TourSay {
  const ins = shownInspector(s);
  const st = ins?.settings ?? s.settings;
  const contract = `The verifier's contract: a right answer earns 1, a well-formed wrong one the format reward (${rew(st.formatReward)} in this run), an unparseable one 0.`;
  if (!has(ins, 'verdicts')) {
    return { live: false, text: `${contract} Press “Sample and grade a batch” to see its verdicts on answers this policy samples now.`, action: { kind: 'step-to', phase: 'verdicts', label: 'Sample and grade a batch' } };
  }
  const { p, g } = tourGroup(ins);
  /** The first answer of the shown group that `is`. */
  const find = (is: (a: AnswerView) => boolean) => {
    const i = g.answers.findIndex(is);
    return i < 0 ? undefined : { a: g.answers[i], name: `o${i + 1} ${quote(g.answers[i].text)}` };
  };
  const says = (a: AnswerView) => { const r = a.reason.replace(/^(wrong|unparseable):\s*/i, ''); return r && r !== kindOf(a) ? ` (the verifier: “${r}”)` : ''; };
  // a wrong answer paid more than the format reward: a weak verifier's gap, or process reward's step credit
  const paid = (a: AnswerView) => kindOf(a) === 'wrong' && a.reward > st.formatReward + 1e-9;
  const parts: string[] = [];
  for (const k of ['right', 'wrong', 'unparseable'] as const) {
    const x = find((a) => kindOf(a) === k && !paid(a));
    parts.push(!x ? `none of its answers is ${k}${k === 'wrong' ? ' and paid only the format reward' : ''}` : `${x.name} is ${k}${k === 'right' ? '' : says(x.a)}: r = ${rew(x.a.reward)}`);
  }
  const hack = find(paid);
  const extra = !hack ? '' : st.weakVerifier !== 'strict'
    ? ` And ${hack.name} is wrong, yet the weak verifier (“${st.weakVerifier}”) pays it r = ${rew(hack.a.reward)}${says(hack.a)}.`
    : ` And ${hack.name} is wrong, yet ${st.rewardMode === 'process' ? 'its right steps earn it' : 'it earns'} r = ${rew(hack.a.reward)}.`;
  return { live: true, text: `${contract} Prompt ${p + 1}, ${quote(g.prompt)}: ${parts.join('; ')}.${extra}` };
}

function advantages(s: TourInput): TourSay {
  const ins = shownInspector(s);
  if (!has(ins, 'advantages')) {
    return { live: false, text: 'Each answer is judged against its own group: A_i = (r_i − mean)/σ over the G answers to one prompt. Press “Compute the advantages” to see them on a real group.', action: { kind: 'step-to', phase: 'advantages', label: 'Compute the advantages' } };
  }
  const st = ins.settings ?? s.settings;
  const { p, g } = tourGroup(ins);
  const r = g.answers.map((a) => a.reward);
  const m = mean(r);
  const sd = rewardStd(r);
  const A = g.answers.map((a) => shown(a.advantage, true)).join(', '); // as the step-through's table beside it prints them
  const groups = ins.rollout!.groups;
  const flat = groups.filter((x) => !spread(x)).length;
  const formula = st.advantage === 'grpo' && st.scaleRewards === 'group'
    ? `mean ${shown(m)}, σ ${shown(sd)}, so A_i = (r_i − ${shown(m)})/${shown(sd)}: A = ${A}.`
    : `mean ${shown(m)}; this run's advantages (${estimatorWords(st.advantage, st.scaleRewards)}) are A = ${A}.`;
  const text = `Prompt ${p + 1}'s ${r.length} answers earned r = ${r.map(rew).join(', ')}: ${formula} ` +
    `Above the group's mean is pushed up, below it down; ${flat} of the ${groups.length} groups in this batch have equal rewards, so every A there is 0: they teach nothing.`;
  return spread(g) ? { live: true, text } : { live: true, text, action: { kind: 'step-to', phase: 'advantages', fresh: true, label: 'Sample another batch' } };
}

/** A lesson's verdict step (the variant loaded), for "Play to step N". */
const verdictStep = (s: TourInput, id: string) => getLesson(id)?.variants[s.lessonVariant]?.claim.steps ?? 20;
/** "lesson 1" and "lesson 1, “Mixed groups at the capability boundary”" (the Lessons bar's order). */
const lessonNames = (id: string) => {
  const i = LESSONS.findIndex((l) => l.id === id);
  return { short: `lesson ${i + 1}`, full: `lesson ${i + 1}, “${LESSONS[i]?.title.replace(/^\d+\.\s*/, '')}”` };
};
const loadLesson = (id: string, why: string): TourSay => {
  const n = lessonNames(id);
  return { live: false, text: `${why} Press “Load ${n.short}”: it loads ${n.full} with its base model and knobs.`, action: { kind: 'lesson', lesson: id, label: `Load ${n.short}` } };
};
const playTo = (step: number): TourAction => ({ kind: 'play-until', step, label: `▶ Play to step ${step}` });

/** " The comparison the question asks about: …" — the live run's frozen contrast with the other variant (store/lessonContrast.ts), or null. */
function contrastWithSibling(s: TourInput, id: string): string | null {
  const lesson = getLesson(id);
  const frozen = s.verdict && s.liveOrigin ? frozenFor({ verdict: s.verdict, liveOrigin: s.liveOrigin }, id, s.lessonVariant) : null;
  if (!lesson?.contrast || !frozen?.judged || !frozen.contrast) return null;
  return ` The comparison the question asks about: ${contrastSentence(lesson.contrast, frozen.contrast, lesson.variants.map((v) => v.short ?? v.label))}`;
}

/** "0.40 at step 0 → 0.34 at step 11": a line's first and last points, as the chart's readout gives them. */
const span = (pts: { step: number; value: number }[]) => pts.map((p) => `${num(p.value)} at step ${p.step}`).join(' → ');
/** The lesson's verdict once its step is reached: the card (and the presenter, under the chart) shows it. */
function verdictIn(s: TourInput, id: string): string {
  const claim = getLesson(id)?.variants[s.lessonVariant]?.claim;
  if (!claim || s.steps.length < claim.steps) return '';
  const v = liveVerdict(s, id, s.lessonVariant, claim);
  if (!v) return '';
  const said = v.state === 'holds' ? 'the claim holds ✓' : v.state === 'fails' ? 'the claim fails ✗' : 'unclear: this one run cannot tell, so pool the class\'s runs';
  return v.state === 'pending' ? '' : ` The lesson's verdict is in: ${said}.`;
}

function mixedGroups(s: TourInput): TourSay {
  const why = 'A group teaches only if it mixes passes and failures; with pass rate p, G answers mix with probability 1 − p^G − (1 − p)^G.';
  if (s.lessonId !== 'mixed-groups') return loadLesson('mixed-groups', why);
  const to = verdictStep(s, 'mixed-groups');
  const G = s.settings.numGenerations;
  if (!s.steps.length) return { live: false, text: `${why} Lesson 1 is loaded with G = ${G}. Press Play: the groups chart draws the mixed share beside that prediction.`, action: playTo(to) };
  // the points the groups chart draws (its readout under the chart gives them): no mean the chart does not draw
  const share = mean(s.steps.map((x) => x.frac_mixed)), pred = mean(s.steps.map((x) => x.mixed_predicted));
  const text = `At G = ${G}, the groups chart draws the mixed share ${span(firstLast(s.steps, (x) => x.frac_mixed))} beside the dashed prediction 1 − p̄^G − (1 − p̄)^G at each step's pass rate p̄, ${span(firstLast(s.steps, (x) => x.mixed_predicted))}. ` +
    (share < pred ? 'Over the run the share sits below the line on average (the lesson\'s verdict gives both means): prompts differ in difficulty and the formula at the average p̄ over-predicts (Jensen; the theory chart puts each prompt on the curve).' : 'Over the run the share sits at or above the line on average so far (the lesson\'s verdict gives both means; the theory chart puts each prompt on the curve).') +
    (contrastWithSibling(s, 'mixed-groups') ?? (G > 2 ? '' : s.presenter ? ' To rerun it with larger groups, leave the presenter view (Esc twice) and press the lesson card\'s G = 8 button.' : ' The lesson card\'s G = 8 button reruns it with larger groups.')) + verdictIn(s, 'mixed-groups');
  return { live: true, text, action: s.steps.length < to ? playTo(to) : undefined };
}

/** The update phase's answers with their advantages, read defensively (logpGradientAlone may be missing). */
function updateRows(ins: InspectorState) {
  return ins.rollout!.groups.flatMap((g, p) => g.answers.map((a, i) => {
    const d = ins.details?.[p]?.[i];
    const alone = (d as { logpGradientAlone?: unknown } | undefined)?.logpGradientAlone;
    return { advantage: a.advantage, logpBefore: d?.logpBefore ?? NaN, logpAfter: d?.logpAfter ?? NaN, logpGradientAlone: typeof alone === 'number' && Number.isFinite(alone) ? alone : null };
  }));
}

/** The counts the update phase's headline gives (pushCounts, the one count), or null before an update is applied. */
export function tourPushCounts(s: TourInput) {
  const ins = shownInspector(s);
  return has(ins, 'update') && ins.details ? pushCounts(updateRows(ins)) : null;
}

function oneUpdate(s: TourInput): TourSay {
  const ins = shownInspector(s);
  const c = tourPushCounts(s);
  if (!ins || !c) {
    return { live: false, text: 'One real update, phase by phase: sample, grade, compute the advantages, apply the update, then look at each answer\'s log π before and after. Press “Step through one update”.', action: { kind: 'step-to', phase: 'update', label: 'Step through one update' } };
  }
  const step = ins.rollout!.step;
  if (c.positive + c.negative === 0) {
    return { live: true, text: `In the update at step ${step} no answer had A ≠ 0 (every group's rewards were equal), so the policy gradient pushed nothing: whatever moved came from the KL leash, an entropy bonus or AdamW's momentum.`, action: { kind: 'step-to', phase: 'update', fresh: true, label: 'Step through another update' } };
  }
  const cos = (ins as { stepGeometry?: { cosine?: unknown } | null }).stepGeometry?.cosine;
  const a = c.gradientAlone;
  const text = a
    ? `The update at step ${step}: of the ${c.positive} answers with A > 0, ${a.up} became more likely by this batch's gradient alone and ${c.applied.up} after AdamW's step; of the ${c.negative} with A < 0, ${a.down} and ${c.applied.down} became less likely. ` +
      `${typeof cos === 'number' && Number.isFinite(cos) ? `AdamW's step and this batch's descent direction have cosine ${num(cos)}. ` : ''}${adamSentence(step === 0)} (The gradient alone: a plain step along it that moves the policy as far as AdamW's step did, then undone.)`
    : `The update at step ${step}: ${c.applied.up} of the ${c.positive} answers with A > 0 became more likely, and ${c.applied.down} of the ${c.negative} with A < 0 less likely. Not all: every answer moves the same shared weights.`;
  return { live: true, text };
}

function objectives(s: TourInput): TourSay {
  const ins = shownInspector(s);
  const cmp = ins?.comparison;
  if (!ins || !cmp) {
    return { live: false, text: 'Before an update is applied, the lab can apply the same batch under GRPO, Dr. GRPO, DAPO and GSPO from the same weights, then put the weights back. Press “Compare the four objectives”.', action: { kind: 'compare', label: 'Compare the four objectives' } };
  }
  const { p } = tourGroup(ins);
  const groups = ins.rollout!.groups;
  const ref = cmp.objectives.find((o) => o.id === 'grpo') ?? cmp.objectives[0];
  const order = [p, ...groups.map((_, i) => i).filter((i) => i !== p)];
  const at = order.map((q) => ({ q, i: ref.answers[q]?.findIndex((x) => x.advantage !== 0) ?? -1 })).find((x) => x.i >= 0);
  if (!at) return { live: true, text: 'Every answer of this batch has Â = 0 under all four objectives (all rewards of each group are equal), so none of their policy gradients pushes anything: what moves, moves by AdamW\'s momentum. Compare on another batch.', action: { kind: 'compare', fresh: true, label: 'Compare on another batch' } };
  const a = groups[at.q].answers[at.i];
  const dr = cmp.objectives.find((o) => o.id === 'dr_grpo');
  // as the comparison's table beside it prints them
  const deltas = cmp.objectives.map((o) => `${o.label} ${shown(o.answers[at.q][at.i].deltaLogp, true)}`).join(', ');
  const run = cmp.objectives.find((o) => o.id === cmp.runObjective);
  return {
    live: true,
    text: `Prompt ${at.q + 1}'s o${at.i + 1} ${quote(a.text)} (${kindOf(a)}, Â = ${shown(ref.answers[at.q][at.i].advantage, true)} under ${ref.label}${dr && dr !== ref ? `, ${shown(dr.answers[at.q][at.i].advantage, true)} under ${dr.label}` : ''}): Δ log π ${deltas}. ` +
      `Same samples, same weights: only the normaliser, the std division and the ratio's level differ. ${run ? `The run then applies its own, ${run.label}.` : 'The run then applies its own objective.'}`,
  };
}

function thinking(s: TourInput): TourSay {
  if (s.lessonId !== 'scratchpad') return loadLesson('scratchpad', 'Only the final answer is graded; writing running sums before “|” is allowed, never asked for.');
  const to = verdictStep(s, 'scratchpad');
  if (!s.steps.length) return { live: false, text: 'Only the final answer is graded; some answers write running sums before “|”. Press Play: the thinking chart draws the share of answers that think, and how often each kind is right.', action: playTo(to) };
  const accT = mean(s.steps.map((x) => x.accuracy_think)), accD = mean(s.steps.map((x) => x.accuracy_direct));
  const pays = accT > accD;
  const at = (f: (m: StepMetrics) => number) => firstLast(s.steps, f).at(-1);
  const t = at((x) => x.accuracy_think), d = at((x) => x.accuracy_direct);
  const right = [t && `answers that think are right ${num(t.value)} of the time at step ${t.step}`, d && `direct ones ${num(d.value)} at step ${d.step}`].filter(Boolean).join(', ');
  const text = `The thinking chart draws the share of answers that write a scratchpad before “|”: ${span(firstLast(s.steps, (x) => x.think_fraction))}. ` +
    `${right ? `${right[0].toUpperCase()}${right.slice(1)}; over` : 'Over'} the run, ` +
    (pays ? 'thinking is right more often than answering directly, so it wins its mixed groups, gets the positive advantages and spreads.' : 'thinking is not right more often than answering directly, so it has no reason to spread.') + verdictIn(s, 'scratchpad');
  return { live: true, text, action: s.steps.length < to ? playTo(to) : undefined };
}

function hacking(s: TourInput): TourSay {
  if (s.lessonId !== 'reward-hacking') return loadLesson('reward-hacking', 'A verifier with a gap is a reward the policy can earn without being right.');
  const to = verdictStep(s, 'reward-hacking');
  const v = s.settings.weakVerifier;
  if (!s.steps.length) return { live: false, text: `The ${v === 'strict' ? 'strict' : `weak (“${v}”)`} verifier is loaded; accuracy is always graded strictly. Press Play: the reward chart draws the reward beside strict accuracy.`, action: playTo(to) };
  const g0 = first(s.steps, (x) => x.reward - x.accuracy), g1 = last(s.steps, (x) => x.reward - x.accuracy);
  const text = `The reward chart draws the reward, ${span(firstLast(s.steps, (x) => x.reward))}, beside the training accuracy (sampled answers, graded strictly), ${span(firstLast(s.steps, (x) => x.accuracy))}: ` +
    (v === 'strict' ? 'the strict verifier pays only right answers, so the gap between the two lines is the format reward alone. ' : `the gap between the two lines is what the weak verifier (“${v}”) pays for answers that are not right. `) +
    `Over the last ${Math.min(WINDOW, s.steps.length)} steps against the first (the lesson's verdict gives both): ` +
    (g1 > g0 + 0.01 ? 'GRPO reinforces what is paid, so the gap widens.' : 'it has not widened (yet).') + verdictIn(s, 'reward-hacking');
  return { live: true, text, action: s.steps.length < to ? playTo(to) : undefined };
}

function whenToStop(s: TourInput): TourSay {
  const every = s.settings.evalEvery;
  const lastEval = s.evals.at(-1);
  const next = (lastEval?.step ?? 0) + every;
  const watch = 'Stop, or look closer, when held-out accuracy stops rising while the training reward still climbs (the lab then raises “reward without held-out” on the reward chart), when mixed groups vanish, the entropy collapses or held-out accuracy falls.';
  if (!s.steps.length || s.evals.length < 2) {
    return { live: false, text: `${watch} Held-out accuracy is measured every ${every} steps. Press Play to reach the next evaluation.`, action: playTo(Math.max(next, s.steps.length + 1)) };
  }
  const e0 = s.evals[0], e1 = lastEval!;
  const r0 = first(s.steps, (x) => x.reward), r1 = last(s.steps, (x) => x.reward);
  // only the reward chart is on screen at this stop: a signal on another chart is named, its numbers are not quoted
  const sig = s.signals.find((x) => x.chart === 'reward');
  const elsewhere = s.signals.filter((x) => x.chart !== 'reward');
  const others = elsewhere.length ? ` On ${elsewhere.length > 1 ? 'other charts' : 'another chart'} the lab has raised ${elsewhere.map((x) => `“${SIGNAL_LABELS[x.id]}” (the ${CHART_NAMES[x.chart]} chart)`).join(' and ')}.` : '';
  const held = heldoutMeasure(s.evals); // the measure the stop signal reads
  // the numbers the reward chart draws (and its readout gives): the reward's first and last points, each held-out dot (greedy)
  const dots = heldoutPoints(s.evals).map((p) => `${num(p.value)} (step ${p.step})`).join(' → ');
  const trend = `The reward chart: training reward ${span(firstLast(s.steps, (x) => x.reward))}; held-out accuracy (greedy) ${dots}.` +
    (held.sampled ? ' The stop signal reads held-out pass@1 (sampled), the less noisy measure: the pass@k chart draws it.' : '');
  const pattern = r1 > r0 + 0.02 && held.of(e1) <= held.of(e0) + DEFAULT_STOP_OPTIONS.heldoutFlat;
  // no signal yet, but its pattern already shows over this stop's short windows: said as the signal forming, not as a signal
  const text = sig ? `Stop signal at step ${sig.step} (on its chart, with its evidence): ${sig.message} ${trend}${others}`
    : pattern ? `The pattern to stop on is forming: averaged over the first and last ${Math.min(WINDOW, s.steps.length)} steps, the reward rose while ${held.what} did not. ${trend} The lab raises “reward without held-out” on this chart once it holds over ${2 * DEFAULT_STOP_OPTIONS.window} steps; it has not yet.${others}`
    : `No stop signal on this chart so far.${others} ${trend} ${watch}`;
  return { live: true, text };
}

export const TOUR: readonly TourStop[] = [
  { id: 'reward-contract', title: 'The reward contract, on real answers', target: 'inspector-phase', view: { kind: 'step', phase: 'verdicts' }, say: rewardContract },
  { id: 'advantages', title: 'One group\'s advantages', target: 'inspector-phase', view: { kind: 'step', phase: 'advantages' }, say: advantages },
  { id: 'mixed-groups', title: 'Mixed groups against G', target: 'chart-groups', view: { kind: 'chart', chart: 'groups' }, say: mixedGroups },
  { id: 'one-update', title: 'One update: this batch\'s gradient against AdamW\'s step', target: 'update-summary', view: { kind: 'step', phase: 'update' }, say: oneUpdate },
  { id: 'objectives', title: 'The same batch under four objectives', target: 'compare-numbers', fallback: 'compare', view: { kind: 'step', phase: 'advantages' }, say: objectives },
  { id: 'thinking', title: 'Thinking grows where it pays', target: 'chart-thinking', view: { kind: 'chart', chart: 'thinking' }, say: thinking },
  { id: 'hacking', title: 'A weak verifier is hacked', target: 'chart-reward', view: { kind: 'chart', chart: 'reward' }, say: hacking },
  { id: 'when-to-stop', title: 'When to stop', target: 'chart-reward', view: { kind: 'chart', chart: 'reward' }, say: whenToStop },
];

// ---- what a stop quotes, against what the screen shows ----------------------------------------

/** The measured numbers a stop's text quotes: every decimal ("0.34", "−0.005", "+6.4e-4"); counts and step numbers are not read. */
export const quotedNumbers = (text: string): string[] => text.match(/[−+-]?\d+\.\d+(?:e[−+-]?\d+)?|[−+-]?\d+e[−+-]?\d+/gi) ?? [];
/** The answers and prompts a stop quotes (“…” after "o3 " or "Prompt 2, "), a shortened one without its "…". */
export const quotedAnswers = (text: string): string[] => [...text.matchAll(/(?:o\d+|Prompt \d+,) “([^”]*)”/g)].map((m) => m[1].replace(/…$/, '')).filter((t) => t !== '(empty)');
const value = (t: string) => Math.abs(Number(t.replace(/−/g, '-')));
/**
 * Whether the screen's text shows the quoted number `q`: some number on it rounds to q at q's
 * decimals ("−1.00" is shown by "-1", "0.34" by "0.3417"; the sign is not compared: typeset
 * formulas set it apart from the digits).
 */
export function numberShown(q: string, shown: string): boolean {
  const d = /\.(\d+)/.exec(q.replace(/e.*$/i, ''))?.[1].length ?? 0;
  const want = value(q);
  const tol = /e/i.test(q) ? want * 0.05 : 0.5 * 10 ** -d + 1e-9;
  return (shown.match(/\d+(?:\.\d+)?(?:e[−+-]?\d+)?/gi) ?? []).some((x) => Math.abs(value(x) - want) <= tol);
}

/** A stop index in range (an address may ask for stop 99). */
export const tourIndex = (i: number) => Math.max(0, Math.min(Math.trunc(i) || 0, TOUR.length - 1));
