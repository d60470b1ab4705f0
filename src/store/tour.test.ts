// The class tour's script (src/store/tour.ts) on states recorded from real runs of the lab (CPU
// reference, tour.recorded.json: a stepped update with the objectives compared, and lessons 1, 6
// and 4 after a few steps): every stop quotes that state's own numbers, computed here
// independently, and says what to press on a state that lacks them. Its address flag too.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fmt } from '../ui/palette.ts';
import { describe, expect, it } from 'vitest';
import { getLesson } from '../rl/lessons.ts';
import { detectStopSignals, DEFAULT_STOP_OPTIONS } from '../rl/stopSignals.ts';
import type { LabState, SavedRun } from './labStore.ts';
import { overlayName, runOrigin, type RunOrigin } from './overlays.ts';
import { TOUR, numberShown, quotedAnswers, quotedNumbers, tourIndex, type TourInput } from './tour.ts';
import { chartReadout, readoutText } from './presenterView.ts';
import { contrastSentence } from '../rl/contrast.ts';
import { judgeLiveContrast } from './lessonContrast.ts';
import { heldoutWindowNote } from './verdictWindow.ts';
import { labSearch, parseLabUrl } from './url.ts';
import recorded from './tour.recorded.json';

type Recorded = Record<'start' | 'step' | 'mixed-groups' | 'scratchpad' | 'reward-hacking', TourInput>;
const R = recorded as unknown as Recorded;
const stop = (id: string) => TOUR.find((s) => s.id === id)!;
/** The card's number formats, written out again: two decimals, a real minus sign, "+" when asked. */
const f = (x: number, d = 2) => { const t = Math.abs(x).toFixed(d); return Number(t) === 0 || x > 0 ? t : `−${t}`; };
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** As the step-through's tables print a figure (their fmt), with a real minus and "+" when asked. */
const printed = (x: number, plus = false) => { const t = fmt(x).replace('-', '−'); return plus && x > 0 && t !== '0' ? `+${t}` : t; };
const focused = (s: TourInput) => { const ins = s.inspector!; const p = ins.focus ?? 0; return { p, g: ins.rollout!.groups[p] }; };

describe('class tour: the script', () => {
  it('eight stops, each with its own id, a title and a data-testid the page renders', () => {
    expect(TOUR.map((s) => s.id)).toEqual(['reward-contract', 'advantages', 'mixed-groups', 'one-update', 'objectives', 'thinking', 'hacking', 'when-to-stop']);
    const ui = readdirSync(join(import.meta.dirname, '../ui')).filter((n) => n.endsWith('.tsx')).map((n) => readFileSync(join(import.meta.dirname, '../ui', n), 'utf8')).join('\n');
    for (const s of TOUR) {
      expect(s.title.length).toBeGreaterThan(5);
      // a chart card's test id is chart-<its id>; the others are written out
      expect(s.target.startsWith('chart-') ? ui.includes(`id="${s.target.slice(6)}"`) : ui.includes(`data-testid="${s.target}"`), s.target).toBe(true);
    }
    expect(tourIndex(99)).toBe(TOUR.length - 1);
    expect(tourIndex(-3)).toBe(0);
  });

  it('1: the verifier\'s verdict on real sampled answers, with their rewards', () => {
    const s = R.step;
    const say = stop('reward-contract').say(s);
    expect(say.live).toBe(true);
    const { p, g } = focused(s);
    const right = g.answers.findIndex((a) => a.correct);
    expect(right).toBeGreaterThanOrEqual(0);
    expect(say.text).toContain(`Prompt ${p + 1}, “${g.prompt}”`);
    expect(say.text).toContain(`o${right + 1} “${g.answers[right].text}” is right: r = ${g.answers[right].reward}`);
    const wrong = g.answers.findIndex((a) => !a.correct && a.formatOk);
    if (wrong >= 0) expect(say.text).toContain(`o${wrong + 1} “${g.answers[wrong].text}” is wrong`);
    expect(say.text).toContain(`the format reward (${s.inspector!.settings!.formatReward} in this run)`);
    expect(say.action).toBeUndefined();
  });

  it("the recording is of the lab's math now: every group's advantages are (r − mean) / (std + 1e-4), std Bessel-corrected as TRL's (npm run record-tour re-records it)", () => {
    const s = R.step;
    expect([s.inspector!.settings!.advantage, s.inspector!.settings!.scaleRewards]).toEqual(['grpo', 'group']);
    for (const g of s.inspector!.rollout!.groups) {
      const r = g.answers.map((a) => a.reward);
      const m = avg(r);
      const std = Math.sqrt(r.reduce((q, x) => q + (x - m) ** 2, 0) / (r.length - 1));
      g.answers.forEach((a, i) => expect(a.advantage).toBeCloseTo((r[i] - m) / (std + 1e-4), 5));
    }
  });

  it('1: a wrong answer a weak verifier pays is named as such, with what it was paid', () => {
    const s = R.step;
    const { p, g } = focused(s);
    const i = g.answers.findIndex((a) => !a.correct && a.formatOk);
    const answers = g.answers.map((a, j) => (j === i ? { ...a, reward: 1, reason: 'contains the answer (weak check)' } : a));
    const groups = s.inspector!.rollout!.groups.map((x, q) => (q === p ? { ...x, answers } : x));
    const weak = { ...s, inspector: { ...s.inspector!, settings: { ...s.inspector!.settings!, weakVerifier: 'anywhere' }, rollout: { ...s.inspector!.rollout!, groups } } } as TourInput;
    expect(stop('reward-contract').say(weak).text).toContain(`o${i + 1} “${g.answers[i].text}” is wrong, yet the weak verifier (“anywhere”) pays it r = 1 (the verifier: “contains the answer (weak check)”)`);
  });

  it('1: only the answers of the group the step-through shows, never another prompt\'s', () => {
    const s = R.step;
    const { p, g } = focused(s);
    // the shown group has no wrong answer; another group has one
    const answers = g.answers.map((a) => (a.correct || !a.formatOk ? a : { ...a, correct: true, formatOk: true, reward: 1, reason: 'correct' }));
    const groups = s.inspector!.rollout!.groups.map((x, q) => (q === p ? { ...x, answers } : x));
    expect(groups.some((x, q) => q !== p && x.answers.some((a) => !a.correct && a.formatOk))).toBe(true);
    const text = stop('reward-contract').say({ ...s, inspector: { ...s.inspector!, rollout: { ...s.inspector!.rollout!, groups } } } as TourInput).text;
    expect(text).not.toMatch(/prompt \d+'s/);
    expect(text).toContain('none of its answers is wrong');
    for (const t of quotedAnswers(text)) expect([g.prompt, ...answers.map((a) => a.text)]).toContain(t);
  });

  it('2: one group\'s rewards, mean, σ and advantages', () => {
    const s = R.step;
    const say = stop('advantages').say(s);
    const { p, g } = focused(s);
    const r = g.answers.map((a) => a.reward);
    const m = avg(r);
    const sd = Math.sqrt(r.reduce((a, x) => a + (x - m) ** 2, 0) / (r.length - 1)); // TRL's std (n − 1)
    expect(say.live).toBe(true);
    expect(say.text).toContain(`Prompt ${p + 1}'s ${r.length} answers earned r = ${r.join(', ')}`);
    // as the step-through beside it prints them (its table's fmt: 3 decimals, trailing zeros dropped), with a real minus
    expect(say.text).toContain(`mean ${printed(m)}, σ ${printed(sd)}`);
    expect(say.text).toContain(`A = ${g.answers.map((a) => printed(a.advantage, true)).join(', ')}`);
    const flat = s.inspector!.rollout!.groups.filter((x) => x.answers.every((a) => a.reward === x.answers[0].reward)).length;
    expect(say.text).toContain(`${flat} of the ${s.inspector!.rollout!.groups.length} groups`);
  });

  it('3: lesson 1\'s mixed share against the prediction, at the first and last points the groups chart draws', () => {
    const s = R['mixed-groups'];
    const say = stop('mixed-groups').say(s);
    const [a, z] = [s.steps[0], s.steps.at(-1)!];
    expect(say.live).toBe(true);
    expect(say.text).toContain(`At G = ${s.settings.numGenerations}, the groups chart draws the mixed share ${f(a.frac_mixed)} at step ${a.step} → ${f(z.frac_mixed)} at step ${z.step}`);
    expect(say.text).toContain(`${f(a.mixed_predicted)} at step ${a.step} → ${f(z.mixed_predicted)} at step ${z.step}`);
    expect(say.action).toMatchObject({ kind: 'play-until', step: getLesson('mixed-groups')!.variants[0].claim.steps });
    // at the verdict's step the stop says the verdict is in (the card and the presenter show it)
    const to = getLesson('mixed-groups')!.variants[0].claim.steps;
    const long = { ...s, steps: Array.from({ length: to }, (_, i) => ({ ...s.steps[i % s.steps.length], step: i })) };
    expect(stop('mixed-groups').say(long).text).toMatch(/The lesson's verdict is in: (the claim holds ✓|the claim fails ✗|unclear: this one run cannot tell, so pool the class's runs)\./);
  });

  it('4: the update phase\'s counts, by this batch\'s gradient alone and after AdamW\'s step, and the cosine', () => {
    const s = R.step;
    const ins = s.inspector!;
    const rows = ins.rollout!.groups.flatMap((g, p) => g.answers.map((a, i) => ({ A: a.advantage, ...ins.details![p][i] })));
    const pos = rows.filter((r) => r.A > 0), neg = rows.filter((r) => r.A < 0);
    const upAlone = pos.filter((r) => r.logpGradientAlone! > r.logpBefore).length, upApplied = pos.filter((r) => r.logpAfter > r.logpBefore).length;
    const downAlone = neg.filter((r) => r.logpGradientAlone! < r.logpBefore).length, downApplied = neg.filter((r) => r.logpAfter < r.logpBefore).length;
    const say = stop('one-update').say(s);
    expect(say.live).toBe(true);
    expect(say.text).toContain(`of the ${pos.length} answers with A > 0, ${upAlone} became more likely by this batch's gradient alone and ${upApplied} after AdamW's step`);
    expect(say.text).toContain(`of the ${neg.length} with A < 0, ${downAlone} and ${downApplied} became less likely`);
    expect(say.text).toContain(`cosine ${f(ins.stepGeometry!.cosine)}`);
    // AdamW's momentum: earlier batches from the second update on; at a run's first update, this batch alone
    const at = (step: number) => stop('one-update').say({ ...s, inspector: { ...ins, rollout: { ...ins.rollout!, step } } } as TourInput).text;
    expect(at(3)).toContain("AdamW's momentum carries the earlier batches");
    expect(at(0)).toContain("It is the run's first update, so AdamW's momentum holds this batch alone");
    expect(at(0)).not.toContain('earlier batches');
    // read defensively: without the gradient-alone measurement (or the geometry) it quotes the applied counts only
    const bare = { ...s, inspector: { ...ins, stepGeometry: undefined, details: ins.details!.map((g) => g.map((d) => { const { logpGradientAlone: _, ...rest } = d; return rest; })) } } as unknown as TourInput;
    const fallback = stop('one-update').say(bare);
    expect(fallback.live).toBe(true);
    expect(fallback.text).toContain(`${upApplied} of the ${pos.length} answers with A > 0 became more likely, and ${downApplied} of the ${neg.length} with A < 0 less likely`);
    expect(fallback.text).not.toContain('cosine');
  });

  it('5: one answer\'s Δ log π under each of the four objectives', () => {
    const s = R.step;
    const cmp = s.inspector!.comparison!;
    const say = stop('objectives').say(s);
    expect(say.live).toBe(true);
    const grpo = cmp.objectives.find((o) => o.id === 'grpo')!;
    const { p } = focused(s);
    const i = grpo.answers[p].findIndex((x) => x.advantage !== 0);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(say.text).toContain(`o${i + 1} “${s.inspector!.rollout!.groups[p].answers[i].text}”`);
    // as the comparison's table beside it prints them (fmt), with a real minus: "−1", not "−1.00"; "−0.27", not "−0.270"
    for (const o of cmp.objectives) expect(say.text).toContain(`${o.label} ${printed(o.answers[p][i].deltaLogp, true)}`);
    expect(say.text).toContain(`Â = ${printed(grpo.answers[p][i].advantage, true)} under GRPO`);
    expect(say.text).not.toMatch(/\d\.\d*0\b/); // no trailing zero the table does not print
  });

  it('6: lesson 6\'s thinking share, first and last points, and what thinking pays', () => {
    const s = R.scratchpad;
    const say = stop('thinking').say(s);
    const [a, z] = [s.steps[0], s.steps.at(-1)!];
    expect(say.live).toBe(true);
    expect(say.text).toContain(`${f(a.think_fraction)} at step ${a.step} → ${f(z.think_fraction)} at step ${z.step}`);
    const lastFinite = (k: 'accuracy_think' | 'accuracy_direct') => s.steps.filter((m) => Number.isFinite(m[k])).at(-1)!;
    expect(say.text).toContain(`right ${f(lastFinite('accuracy_think').accuracy_think)} of the time at step ${lastFinite('accuracy_think').step}, direct ones ${f(lastFinite('accuracy_direct').accuracy_direct)} at step ${lastFinite('accuracy_direct').step}`);
  });

  it('7: lesson 4\'s reward against strict accuracy, first and last points', () => {
    const s = R['reward-hacking'];
    const say = stop('hacking').say(s);
    const [a, z] = [s.steps[0], s.steps.at(-1)!];
    expect(say.live).toBe(true);
    expect(say.text).toContain(`the reward, ${f(a.reward)} at step ${a.step} → ${f(z.reward)} at step ${z.step}, beside the training accuracy`);
    expect(say.text).toContain(`${f(a.accuracy)} at step ${a.step} → ${f(z.accuracy)} at step ${z.step}`);
    expect(say.text).toContain(`what the weak verifier (“${s.settings.weakVerifier}”) pays`);
  });

  it('8: training reward against held-out accuracy (greedy), the measure the reward chart draws; a stop signal in its own words', () => {
    const s = R['reward-hacking'];
    const say = stop('when-to-stop').say(s);
    expect(s.evals.length).toBeGreaterThanOrEqual(2);
    expect(say.live).toBe(true);
    expect(say.text).toContain(`held-out accuracy (greedy) ${s.evals.map((e) => `${f(e.heldout_accuracy)} (step ${e.step})`).join(' → ')}`);
    expect(say.text).not.toContain(f(s.evals[0].pass_at_k['1'])); // pass@1 (sampled) is not what this chart draws
    expect(say.text).toContain(`training reward ${f(s.steps[0].reward)} at step ${s.steps[0].step} → ${f(s.steps.at(-1)!.reward)} at step ${s.steps.at(-1)!.step}`);
    // the same run judged over shorter windows raises a real signal: the stop quotes it (its box is on the chart)
    const signals = detectStopSignals(s.steps, s.evals as LabState['evals'], { ...DEFAULT_STOP_OPTIONS, window: 3, rewardRise: 0.01 });
    expect(signals.length).toBeGreaterThan(0);
    const onReward = signals.find((x) => x.chart === 'reward')!;
    expect(onReward).toBeDefined();
    const withSignal = stop('when-to-stop').say({ ...s, signals });
    expect(withSignal.text).toContain(`Stop signal at step ${onReward.step} (on its chart, with its evidence): ${onReward.message}`);
    // a signal on a chart this stop does not show is named, its numbers are not quoted (they are not on screen)
    const elsewhere = stop('when-to-stop').say({ ...s, signals: [LENGTH_SIGNAL] });
    expect(elsewhere.text).toContain('On another chart the lab has raised “length grows without accuracy” (the answer-length chart).');
    expect(elsewhere.text).not.toContain('1.7');
    // no signal yet: either none and what to watch for, or the pattern forming, never both "no signal" and "the pattern to stop on"
    for (const x of [s, { ...s, signals: [LENGTH_SIGNAL] }]) {
      const t = stop('when-to-stop').say(x).text;
      expect(t.includes('No stop signal') && t.includes('pattern to stop on'), t).toBe(false);
    }
    const rising = { ...s, steps: s.steps.map((x, i) => ({ ...x, reward: 0.2 + 0.05 * i })), evals: s.evals.map((e) => ({ ...e, heldout_accuracy: 0.4, pass_at_k: { ...e.pass_at_k, '1': 0.4 } })) };
    expect(stop('when-to-stop').say(rising).text).toMatch(/^The pattern to stop on is forming: .* it has not yet\.$/);
    expect(stop('when-to-stop').say({ ...rising, steps: rising.steps.map((x) => ({ ...x, reward: 0.5 })) }).text).toMatch(/^No stop signal on this chart so far\. .*Stop, or look closer, when/);
  });

  it('a number moved in the state moves in the sentence (no figure is fixed in the script)', () => {
    const s = R['reward-hacking'];
    const steps = s.steps.map((x, i) => (i === s.steps.length - 1 ? { ...x, reward: 0.987, accuracy: 0.123 } : x));
    expect(stop('hacking').say({ ...s, steps }).text).toContain(`0.99 at step ${steps.at(-1)!.step}, beside`);
  });
});

/** A stop signal on the answer-length chart, which the when-to-stop stop does not show (as lesson 4's weak verifier raised it at step 29). */
const LENGTH_SIGNAL: LabState['signals'][number] = { id: 'length-without-accuracy', chart: 'length', step: 29, message: 'Answers grew by 1.7 tokens while accuracy changed -0.08: length is not paying for itself (length bias?).', readout: 'Answer length: 5.1 → 6.8 tokens; training accuracy: 0.30 → 0.22 (means of the first and the last 10 steps).', evidence: { length_start: 5.1, length_end: 6.8, accuracy_start: 0.3, accuracy_end: 0.22 } };

/**
 * What the presenter view shows at a chart stop, as text: the chart's readout under it, the stop
 * signals on it, the lesson's verdict (its sentence, the held-out note and the contrast line).
 */
function presenterText(s: TourInput, chart: Parameters<typeof chartReadout>[0]): string {
  const lesson = s.lessonId ? getLesson(s.lessonId) : undefined;
  const claim = lesson?.variants[s.lessonVariant]?.claim;
  const v = claim?.judge(s);
  const frozen = s.verdict?.contrast && lesson?.contrast ? s.verdict.contrast : null; // the contrast frozen with the verdict (store/lessonContrast.ts)
  const contrast = frozen && lesson?.contrast ? { sentence: contrastSentence(lesson.contrast, frozen, lesson.variants.map((x) => x.short ?? x.label)) } : null;
  return [
    ...(chartReadout(chart, s) ?? []).map(readoutText),
    ...s.signals.filter((x) => x.chart === chart).map((x) => x.message),
    v?.sentence ?? '', v ? heldoutWindowNote(v.sentence, s.evals) ?? '' : '', contrast?.sentence ?? '',
  ].join('\n');
}

describe('class tour: every number a chart stop quotes is on the presenter\'s screen', () => {
  it('3, 6, 7, 8: each decimal in the card\'s text is in the chart\'s readout, its stop signals or the lesson\'s verdict', () => {
    const withSignals = { ...R['reward-hacking'], signals: detectStopSignals(R['reward-hacking'].steps, R['reward-hacking'].evals as LabState['evals'], { ...DEFAULT_STOP_OPTIONS, window: 3, rewardRise: 0.01 }) };
    const cases: [string, TourInput][] = [['mixed-groups', R['mixed-groups']], ['thinking', R.scratchpad], ['hacking', R['reward-hacking']], ['when-to-stop', R['reward-hacking']], ['when-to-stop', withSignals], ['when-to-stop', { ...R['reward-hacking'], signals: [LENGTH_SIGNAL] }]];
    for (const [id, s] of cases) {
      const t = stop(id);
      if (t.view.kind !== 'chart') throw new Error(id);
      const say = t.say(s);
      expect(say.live, id).toBe(true);
      const shown = presenterText(s, t.view.chart);
      const missing = quotedNumbers(say.text).filter((q) => !numberShown(q, shown));
      expect(missing, `${id}: ${say.text}`).toEqual([]);
    }
  });

  it('the matching rule: a number is shown when a number on the screen rounds to it', () => {
    expect(quotedNumbers('A = −1.00, +0.083, 6.4e-4 at step 12 of 30')).toEqual(['−1.00', '+0.083', '6.4e-4']);
    expect(numberShown('−1.00', 'A = -1')).toBe(true);
    expect(numberShown('0.34', 'share 0.3417')).toBe(true);
    expect(numberShown('0.34', 'share 0.3')).toBe(false);
    expect(numberShown('+0.001', 'GSPO +6.4e-4')).toBe(true);
    expect(numberShown('0.20', 'held-out 0.41 → 0.37 → 0.03')).toBe(false);
  });
});

describe('class tour: a lesson\'s contrast with a sibling variant', () => {
  it('3: after G = 2 and then G = 8 on the same seed, the stop quotes the contrast frozen with the verdict, with both runs\' numbers', () => {
    const g2 = R['mixed-groups'];
    const lesson = getLesson('mixed-groups')!;
    const N = lesson.variants[1].claim.steps;
    const origin = (variant: number): RunOrigin => runOrigin(g2.settings, { id: lesson.id, variant }, null);
    // the recorded run, stretched to the verdict step: the G = 2 run finished (kept in the runs list); the live run is G = 8 from the same base and seed, with more mixed groups
    const g2Steps = Array.from({ length: N }, (_, i) => ({ ...g2.steps[i % g2.steps.length], step: i }));
    const sibling = { id: 1, label: 'Run 1', name: overlayName(origin(0), 1), origin: origin(0), pinned: false, settings: g2.settings, steps: g2Steps, evals: g2.evals } as unknown as SavedRun;
    const g8Steps = g2Steps.map((m) => ({ ...m, frac_mixed: Math.min(1, m.frac_mixed + 0.4) }));
    const base = { ...g2, lessonVariant: 1, settings: { ...g2.settings, numGenerations: 8 }, steps: g8Steps, runs: [sibling], liveOrigin: origin(1), stepsCompleted: N, overlayRunId: null } as TourInput;
    const contrast = judgeLiveContrast({ runs: [sibling], liveOrigin: origin(1), overlayRunId: null }, lesson, 1, { steps: g8Steps, evals: g2.evals }, { reps: 200 })!;
    const live = { ...base, verdict: { lessonId: lesson.id, variant: 1, step: N, judged: lesson.variants[1].claim.judge(base), continued: false, contrast } } as TourInput;
    const text = stop('mixed-groups').say(live).text;
    const shares = [avg(g8Steps.map((m) => m.frac_mixed)), avg(g2Steps.map((m) => m.frac_mixed))];
    expect(text).toContain(`The comparison the question asks about: At step ${N}, mixed share of the groups: ${f(shares[0])} in “G = 8”, ${f(shares[1])} in “G = 2”: difference +0.40`);
    expect(text).toContain('— higher, as the lesson claims ✓.');
    // without a sibling: the button to rerun with larger groups, on G = 2 only
    expect(stop('mixed-groups').say(g2).text).toContain('The lesson card\'s G = 8 button reruns it with larger groups.');
    // in the presenter view the lesson card (and its button) is not on the screen: the stop says where it is
    const presenting = stop('mixed-groups').say({ ...g2, presenter: { item: 0 } }).text;
    expect(presenting).not.toContain('The lesson card\'s G = 8 button reruns it');
    expect(presenting).toContain('To rerun it with larger groups, leave the presenter view (Esc twice) and press the lesson card\'s G = 8 button.');
    // no contrast frozen (no sibling when the verdict was judged): no line
    expect(stop('mixed-groups').say({ ...live, verdict: { ...live.verdict!, contrast: null } }).text).not.toContain('The comparison the question asks about');
  });
});

describe('class tour: what to press when the numbers are not there yet', () => {
  it('on a fresh page (no step-through, no lesson, no steps) every stop says what to press and offers the button', () => {
    const s = R.start;
    expect(s.steps).toHaveLength(0);
    const kinds = TOUR.map((t) => { const say = t.say(s); expect(say.live, t.id).toBe(false); expect(say.text, t.id).toMatch(/Press/); return say.action?.kind; });
    expect(kinds).toEqual(['step-to', 'step-to', 'lesson', 'step-to', 'compare', 'lesson', 'lesson', 'play-until']);
    expect(stop('mixed-groups').say(s).action).toMatchObject({ kind: 'lesson', lesson: 'mixed-groups', label: 'Load lesson 1' });
    expect(stop('thinking').say(s).action).toMatchObject({ lesson: 'scratchpad', label: 'Load lesson 6' });
    expect(stop('hacking').say(s).action).toMatchObject({ lesson: 'reward-hacking', label: 'Load lesson 4' });
  });

  it('the step-through open but short of the stop\'s phase: the button goes on to it', () => {
    const s = R.step;
    const atVerdicts = { ...s, inspector: { ...s.inspector!, computed: 3, phase: 2, details: null, comparison: null } };
    expect(stop('reward-contract').say(atVerdicts).live).toBe(true);
    expect(stop('advantages').say(atVerdicts)).toMatchObject({ live: false, action: { kind: 'step-to', phase: 'advantages' } });
    expect(stop('one-update').say(atVerdicts)).toMatchObject({ live: false, action: { kind: 'step-to', phase: 'update' } });
    expect(stop('objectives').say(atVerdicts)).toMatchObject({ live: false, action: { kind: 'compare' } });
    // the step-through's numbers count only while it is shown (step mode)
    expect(stop('reward-contract').say({ ...s, stepMode: false }).live).toBe(false);
  });

  it('a lesson loaded but not run yet: press Play, to the step of its verdict', () => {
    for (const [id, lesson] of [['mixed-groups', 'mixed-groups'], ['thinking', 'scratchpad'], ['hacking', 'reward-hacking']] as const) {
      const s = { ...R[lesson], steps: [], evals: R[lesson].evals.slice(0, 1) };
      const say = stop(id).say(s);
      expect(say.live, id).toBe(false);
      expect(say.text, id).toContain('Press Play');
      expect(say.action, id).toEqual({ kind: 'play-until', step: getLesson(lesson)!.variants[0].claim.steps, label: `▶ Play to step ${getLesson(lesson)!.variants[0].claim.steps}` });
    }
    const one = { ...R['reward-hacking'], steps: R['reward-hacking'].steps.slice(0, 4), evals: R['reward-hacking'].evals.slice(0, 1) };
    expect(stop('when-to-stop').say(one)).toMatchObject({ live: false, action: { kind: 'play-until', step: one.settings.evalEvery } });
  });
});

describe('class tour: the address', () => {
  it('tour=N opens at stop N (1-based), the address follows the stop, a bad value is named', () => {
    expect(parseLabUrl('?tour=1')).toMatchObject({ tour: 0, notices: [] });
    expect(parseLabUrl('?tour=5&present=1')).toMatchObject({ tour: 4, present: true });
    expect(parseLabUrl('').tour).toBeNull();
    const bad = parseLabUrl('?tour=yes');
    expect(bad.tour).toBeNull();
    expect(bad.notices.join()).toContain('tour');
    const base = { settings: R.start.settings, lessonId: null, lessonVariant: 0, backend: 'cpu' as const, classroom: false, hidden: [] };
    expect(labSearch({ ...base, tour: 2 })).toContain('tour=3');
    expect(labSearch({ ...base, tour: null })).not.toContain('tour');
    expect(parseLabUrl(labSearch({ ...base, tour: 7 })).tour).toBe(7);
  });
});
