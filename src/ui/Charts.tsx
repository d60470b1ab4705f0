/**
 * The live charts, fed only by the trainer's real metrics (StepMetrics, EvalMetrics and the
 * latest rollout, via the store). Each card says the question it answers, shows the stop
 * signals that concern it with their evidence, and exports itself as PNG.
 *
 * Kept cheap while a run streams (the page must never be the bottleneck): each chart's body is
 * memoised on its own data, so a store update redraws only the charts whose data changed;
 * a chart's per-step lines are thinned together to at most 100 recorded steps (src/store/thin.ts
 * thinShared: for each line its first, last, first and last with a number, and each stretch's
 * extremes, never averaged); those steps are the chart's rows, each holding every line's value
 * (chartRows, PointedLineChart); the live lines are drawn by one small SVG layer through recharts'
 * scales (liveLines.tsx LiveLines: recharts keeps them as one hidden item, for the tooltip and
 * axes), and recharts' own data is the rows' frame, rounded out (chartFrame.ts), so a redraw
 * moves the live lines and recharts recomputes nothing until a line leaves the frame; axes show their ticks as computed (interval 0) and draw them as plain text
 * (ChartCard.tsx AXIS: no label is measured in the DOM at each redraw); selectors that derive
 * arrays return the previous array while its contents are unchanged; no series animates; while a
 * run streams, a card off screen reads the store as it was when last drawn and is not rendered
 * until it scrolls into view or the run stops (chartHooks.ts, useCardView, useSeenLab).
 * The card, the axes and the per-step tooltip are in ChartCard.tsx; the two charts fed by the
 * latest rollout (advantages, theory) in RolloutCharts.tsx, drawn the same way (liveMarks.tsx).
 */
import { useMemo } from 'react';
import { Line, LineChart, YAxis } from 'recharts';
import { getTask } from '../tasks/registry.ts';
import type { ChartId } from '../rl/lessons.ts';
import type { EvalMetrics, StepMetrics } from '../rl/metrics.ts';
import { useLab } from '../store/labStore.ts';
import { axisTick, ChartTooltip, Sized, useCardView, useOverlays, useSeenLab } from './chartHooks.ts';
import { HELDOUT_GREEDY, HELDOUT_PASS1 } from '../store/views.ts';
import { MatchedTokensChart } from './MatchedTokensChart.tsx';
import { AXIS, ChartCard, PointedLineChart, UNIT, UNIT_TICKS, fin, grid, margin, stepTip, useLegendIn } from './ChartCard.tsx';
import { atX, doctorMarks, trlLineElements, trlLines, trlTip, useOnAxis, useTrl, useXAxis, useXHead, useXMode, type TrlSeries } from './importedLines.tsx';
import { onAxis } from '../store/importedRun.ts';
import { chartRows, chartRowsWith, stepLine } from '../store/thin.ts';
import { LIVE_ITEM, LiveLines, type LiveLine } from './liveLines.tsx';
import { AdvantagesChart, TheoryChart } from './RolloutCharts.tsx';
import { C } from './palette.ts';
import { useVerdictMark } from './verdictMark.tsx';


/** One line of a per-step chart: a StepMetrics value, its legend name and its look. */
interface Series {
  name: string;
  value: (m: StepMetrics) => number;
  color: string;
  dash?: string;
  width?: number;
}

/** A card of per-step lines (most charts): the x axis is the step, one thinned line per series; each overlaid run draws the first series. */
function StepLines({ id, title, question, series, trl: trlSeries, yDomain, yWidth = 44 }: { id: ChartId; title: string; question: string; series: Series[]; trl?: TrlSeries[]; yDomain?: [number | 'auto', number | 'auto']; yWidth?: number }) {
  const view = useCardView();
  const raw = useSeenLab(view, (s) => s.steps);
  const steps = useOnAxis(raw, raw);
  const overlays = useOverlays();
  const trl = useTrl();
  const xAxis = useXAxis();
  const xMode = useXMode();
  const head = useXHead();
  const main = series[0];
  const values = useMemo(() => series.map((sr) => sr.value), [series]);
  const rows = useMemo(() => chartRows(steps, values), [steps, values]);
  const others = useMemo(() => overlays.map((o) => {
    const at = onAxis(xMode, o.run.steps, o.run.steps); // each finished run on the same x axis (its own % of steps, or tokens)
    return { ...o, name: `${main.name}, ${o.name}`, at, line: stepLine(at, main.value) };
  }), [overlays, main, xMode]);
  const imported = useMemo(() => trlLines(trl, trlSeries), [trl, trlSeries]);
  const rest = useMemo(() => [...others.map((o) => o.line), ...imported.map((l) => l.line)], [others, imported]);
  const legendEl = useLegendIn([...series.map((sr) => sr.name), ...others.map((o) => o.name), ...imported.map((l) => l.name)], series);
  const verdictMark = useVerdictMark();
  const tip = useMemo(() => stepTip((step) => {
    const m = atX(xMode, steps, step);
    return [
      ...series.map((sr) => ({ name: sr.name, color: sr.color, value: m && fin(sr.value(m)) })),
      ...others.map((o) => { const x = atX(xMode, o.at, step); return { name: o.name, color: o.color, value: x ? fin(main.value(x)) : undefined }; }),
      ...trlTip(trl, imported, step),
    ];
  }, head), [steps, series, others, main, trl, imported, head, xMode]);
  const body = useMemo(() => (
    <PointedLineChart rows={rows} others={rest}>
      {grid}
      {xAxis}
      {yDomain === UNIT ? <YAxis domain={UNIT} ticks={UNIT_TICKS} niceTicks="none" tick={AXIS} tickFormatter={axisTick} width={yWidth} interval={0} includeHidden /> : <YAxis domain={yDomain} tick={AXIS} tickFormatter={axisTick} width={yWidth} interval={0} includeHidden />}
      <ChartTooltip content={tip} />
      {legendEl}
      {LIVE_ITEM}
      <LiveLines rows={rows} lines={series} />
      {others.map((o) => <Line key={`run${o.run.id}`} data={o.line} dataKey="v" name={o.name} stroke={o.color} strokeDasharray={o.dash} strokeWidth={2} dot={false} isAnimationActive={false} connectNulls />)}
      {trlLineElements(imported)}
      {doctorMarks(trl, id)}
      {verdictMark}
    </PointedLineChart>
  ), [rest, rows, others, imported, trl, id, xAxis, tip, legendEl, series, yDomain, yWidth, verdictMark]);
  return <ChartCard id={id} view={view} title={title} question={question} points={steps.length + (imported.length ? trl!.steps.length : 0)}>{body}</ChartCard>;
}

const reward = (m: StepMetrics) => m.reward;
const accuracy = (m: StepMetrics) => m.accuracy;
const heldout = (e: Pick<EvalMetrics, 'heldout_accuracy'>) => e.heldout_accuracy;
/** The reward chart's per-step lines, in their rows' order (lineKey 0, 1). */
const REWARD_LINES = [reward, accuracy];
const TRAIN_ACC = 'training accuracy (sampled)';
/** The reward chart's own lines (lineKey 0, 1: REWARD_LINES; 2: held-out, with a dot at each evaluation). */
const REWARD_LIVE: LiveLine[] = [
  { name: 'reward', color: C.blue },
  { name: TRAIN_ACC, color: C.sky, dash: '2 3', width: 2 },
  { name: HELDOUT_GREEDY, color: C.vermillion, dot: { r: 4 } },
];

/** The imported run on the reward chart: its reward and reward_std by step, and its held-out figure. */
const TRL_REWARD: TrlSeries[] = [
  { name: 'reward', value: reward, color: C.blue },
  { name: 'reward_std', value: (m) => m.reward_std, color: C.sky, dash: '2 3' },
];

export function RewardChart() {
  const view = useCardView();
  const raw = useSeenLab(view, (s) => s.steps);
  const steps = useOnAxis(raw, raw);
  const evals = useOnAxis(useSeenLab(view, (s) => s.evals), raw);
  const overlays = useOverlays();
  const trl = useTrl();
  const xAxis = useXAxis();
  const xMode = useXMode();
  const head = useXHead();
  // an imported reward outside [0, 1] (a game score) is drawn on its own axis at the right: the lab's 0–1 stays readable
  const outside = useMemo(() => !!trl && trl.steps.some((m) => m.reward < 0 || m.reward > 1), [trl]);
  const imported = useMemo(() => trlLines(trl, outside ? TRL_REWARD.map((sr) => ({ ...sr, name: `${sr.name} (right axis)`, right: true })) : TRL_REWARD), [trl, outside]);
  const trlHeldout = useMemo(() => (trl?.run.heldoutKey ? { name: `held-out ${trl.run.heldoutKey}, ${trl.run.label}`, line: stepLine(trl.evals, heldout) } : null), [trl]);
  const heldoutLine = useMemo(() => stepLine(evals, heldout), [evals]);
  const verdictMark = useVerdictMark();
  const rows = useMemo(() => chartRowsWith(steps, REWARD_LINES, heldoutLine), [steps, heldoutLine]); // the chart's rows, held-out's points among them: its lines keep their props (see PointedLineChart)
  const others = useMemo(() => overlays.map((o) => {
    const at = onAxis(xMode, o.run.steps, o.run.steps), evalsAt = onAxis(xMode, o.run.evals, o.run.steps);
    return { ...o, at, evalsAt, rewardName: `reward, ${o.name}`, heldoutName: `${HELDOUT_GREEDY}, ${o.name}`, reward: stepLine(at, reward), heldout: stepLine(evalsAt, heldout) };
  }), [overlays, xMode]);
  const rest = useMemo(() => [...others.flatMap((o) => [o.reward, o.heldout]), ...imported.map((l) => l.line), ...(trlHeldout ? [trlHeldout.line] : [])], [others, imported, trlHeldout]);
  const legendEl = useLegendIn([...REWARD_LIVE.map((l) => l.name), ...others.flatMap((o) => [o.rewardName, o.heldoutName]), ...imported.map((l) => l.name), ...(trlHeldout ? [trlHeldout.name] : [])], REWARD_LIVE);
  const tip = useMemo(() => stepTip((step) => {
    const m = atX(xMode, steps, step), e = atX(xMode, evals, step);
    return [
      { name: 'reward', color: C.blue, value: m && fin(m.reward) },
      { name: TRAIN_ACC, color: C.sky, value: m && fin(m.accuracy) },
      { name: HELDOUT_GREEDY, color: C.vermillion, value: e && fin(e.heldout_accuracy) },
      ...others.flatMap((o) => {
        const x = atX(xMode, o.at, step), xe = atX(xMode, o.evalsAt, step);
        return [{ name: o.rewardName, color: o.color, value: x ? fin(x.reward) : undefined }, { name: o.heldoutName, color: C.purple, value: xe ? fin(xe.heldout_accuracy) : undefined }];
      }),
      ...trlTip(trl, imported, step),
      ...(trl && trlHeldout ? [{ name: trlHeldout.name, color: C.vermillion, value: atX(xMode, trl.evals, step) ? fin(atX(xMode, trl.evals, step)!.heldout_accuracy) : undefined }] : []),
    ];
  }, head), [steps, evals, others, trl, imported, trlHeldout, head, xMode]);
  const body = useMemo(() => (
    <PointedLineChart rows={rows} others={rest}>
      {grid}
      {xAxis}
      <YAxis domain={UNIT} ticks={UNIT_TICKS} niceTicks="none" tick={AXIS} tickFormatter={axisTick} width={44} interval={0} includeHidden />
      <ChartTooltip content={tip} />
      {legendEl}
      {LIVE_ITEM}
      <LiveLines rows={rows} lines={REWARD_LIVE} />
      {others.map((o) => <Line key={`r${o.run.id}`} data={o.reward} dataKey="v" name={o.rewardName} stroke={o.color} strokeDasharray={o.dash} strokeWidth={2} dot={false} isAnimationActive={false} />)}
      {others.map((o) => <Line key={`h${o.run.id}`} data={o.heldout} dataKey="v" name={o.heldoutName} stroke={C.purple} strokeDasharray={o.dash} strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />)}
      {trlLineElements(imported, outside ? ['auto', 'auto'] : [0, 1])}
      {trlHeldout && <Line key="trl-heldout" data={trlHeldout.line} dataKey="v" name={trlHeldout.name} stroke={C.vermillion} strokeDasharray="9 4" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />}
      {doctorMarks(trl, 'reward')}
      {verdictMark}
    </PointedLineChart>
  ), [rows, rest, others, imported, outside, trlHeldout, trl, xAxis, tip, legendEl, verdictMark]);
  return (
    <ChartCard id="reward" view={view} title="Reward and held-out accuracy (greedy)" question="Is the policy learning, and does it generalise? Training reward (sampled answers) against strict greedy accuracy on held-out prompts; a dashed line is a finished run of this lesson (or one you pinned), or an imported TRL run." points={steps.length + evals.length + (trl ? trl.steps.length : 0)}>
      {body}
    </ChartCard>
  );
}

const TRL_GROUPS: TrlSeries[] = [{ name: 'mixed = 1 − frac_reward_zero_std (pass/fail rewards)', value: (m) => m.frac_mixed, color: C.blue }];

/** The groups chart's lines, made once: a new array at each render would give its legend new content, and recharts would lay the chart out again. */
const GROUPS_SERIES: Series[] = [
      { name: 'mixed', value: (m) => m.frac_mixed, color: C.blue },
      { name: 'mixed, predicted (batch pass rate)', value: (m) => m.mixed_predicted, color: C.black, dash: '5 4', width: 2 },
      { name: 'predicted, each prompt at its own rate (plug-in)', value: (m) => m.mixed_predicted_per_prompt, color: C.black, dash: '1 3', width: 2 },
      { name: 'all pass', value: (m) => m.frac_all_pass, color: C.green, width: 2 },
      { name: 'all fail', value: (m) => m.frac_all_fail, color: C.vermillion, width: 2 },
    ];
/** The entropy chart's lines, made once: a new array at each render would give its legend new content, and recharts would lay the chart out again. */
const ENTROPY_SERIES: Series[] = [
      { name: 'entropy', value: (m) => m.entropy, color: C.purple },
    ];
/** The length chart's lines, made once: a new array at each render would give its legend new content, and recharts would lay the chart out again. */
const LENGTH_SERIES: Series[] = [
      { name: 'correct (tokens)', value: (m) => m.length_correct_mean, color: C.green },
      { name: 'incorrect (tokens)', value: (m) => m.length_incorrect_mean, color: C.vermillion, dash: '6 3' },
    ];
/** The thinking chart's lines, made once: a new array at each render would give its legend new content, and recharts would lay the chart out again. */
const THINKING_SERIES: Series[] = [
      { name: 'share thinking', value: (m) => m.think_fraction, color: C.blue, width: 3 },
      { name: 'accuracy, thinking', value: (m) => m.accuracy_think, color: C.green },
      { name: 'accuracy, direct', value: (m) => m.accuracy_direct, color: C.vermillion, dash: '6 3' },
    ];
/** The kl chart's lines, made once: a new array at each render would give its legend new content, and recharts would lay the chart out again. */
const KL_SERIES: Series[] = [
      { name: 'KL (estimator)', value: (m) => m.kl, color: C.black },
      { name: 'KL, exact (Σ over vocabulary)', value: (m) => m.kl_exact, color: C.blue, dash: '6 3' },
      { name: 'clipped low', value: (m) => m['clip_ratio/low_mean'], color: C.orange, width: 2 },
      { name: 'clipped high', value: (m) => m['clip_ratio/high_mean'], color: C.sky, dash: '5 3', width: 2 },
      { name: 'clipped (any)', value: (m) => m['clip_ratio/region_mean'], color: C.purple, dash: '2 3', width: 2 },
    ];

export function GroupsChart() {
  return (
    <StepLines id="groups" title="All-pass / all-fail / mixed groups" question="How many groups teach anything? Only mixed groups have non-zero advantages. Dashed: 1 − p̄^G − (1 − p̄)^G at the batch pass rate p̄; dotted: averaged over the prompts at their own rates from G answers each (low: so few answers). The gap is Jensen's: see the theory panel." yDomain={UNIT} series={GROUPS_SERIES} trl={TRL_GROUPS} />
  );
}

const TRL_ENTROPY: TrlSeries[] = [{ name: 'entropy', value: (m) => m.entropy, color: C.purple }];

export function EntropyChart() {
  return (
    <StepLines id="entropy" title="Entropy (nats per token)" question="Is the policy still exploring? A collapse means groups stop being mixed and learning stalls." yDomain={[0, 'auto']} series={ENTROPY_SERIES} trl={TRL_ENTROPY} />
  );
}

const TRL_LENGTH: TrlSeries[] = [
  { name: 'completions/mean_length (tokens)', value: (m) => m.mean_length, color: C.black },
  { name: 'completions/clipped_ratio (right axis)', value: (m) => m.clipped_ratio, color: C.orange, dash: '2 3', right: true },
];

export function LengthChart() {
  return (
    <StepLines id="length" title="Answer length: correct vs incorrect" question="Is length drifting, and for right answers or for wrong ones? The mean length of correct and of incorrect answers, in tokens." yDomain={[0, 'auto']} series={LENGTH_SERIES} trl={TRL_LENGTH} />
  );
}

/** Only for tasks with a scratchpad (thinking before "|"): is the thinking spreading, and does it pay? */
export function ThinkingChart() {
  const task = useLab((s) => s.settings.task);
  if (!getTask(task).processReward) return null; // tasks with checkable scratchpad steps are the ones that can think
  return (
    <StepLines id="thinking" title="Thinking: share and accuracy" question="Does thinking pay, and does it spread? The share of answers that write a scratchpad before “|”, and the accuracy of answers with and without one." yDomain={UNIT} series={THINKING_SERIES} />
  );
}

const TRL_KL: TrlSeries[] = [
  { name: 'kl', value: (m) => m.kl, color: C.black },
  { name: 'clip_ratio/low_mean', value: (m) => m['clip_ratio/low_mean'], color: C.orange },
  { name: 'clip_ratio/high_mean', value: (m) => m['clip_ratio/high_mean'], color: C.sky },
  { name: 'clip_ratio/region_mean', value: (m) => m['clip_ratio/region_mean'], color: C.purple },
];

export function KlChart() {
  return (
    <StepLines id="kl" title="KL to π_ref and clip fractions" question="How far has the policy moved from the base, and how often does the clip stop the gradient? The estimator (k1 or k3, from the sampled tokens) beside the exact KL over the whole vocabulary; both stay empty where π_ref is not evaluated (β = 0 with “Measure KL at β = 0” off)." yWidth={72} series={KL_SERIES} trl={TRL_KL} />
  );
}

const K_COLORS = [C.vermillion, C.orange, C.green, C.blue, C.purple, C.black];
/** pass@k from the evaluation's G sampled answers per held-out prompt ("held-out pass@1 (sampled)", not the greedy accuracy). */
const passName = (k: string) => (k === '1' ? HELDOUT_PASS1 : `held-out pass@${k} (sampled)`);

export function PassAtKChart() {
  const view = useCardView();
  const evals = useOnAxis(useSeenLab(view, (s) => s.evals), useSeenLab(view, (s) => s.steps));
  const xAxis = useXAxis();
  const head = useXHead();
  const xMode = useXMode();
  const ks = useMemo(() => [...new Set(evals.flatMap((e) => Object.keys(e.pass_at_k)))].sort((a, b) => Number(a) - Number(b)), [evals]);
  const rows = useMemo(() => evals.map((e) => ({ step: e.step, ...Object.fromEntries(Object.entries(e.pass_at_k).map(([k, v]) => [`k${k}`, v])), watch: e.watch?.pass1 })), [evals]);
  // the watched task (settings.watchTask), never trained on: what the policy forgets of it
  const watched = evals.find((e) => e.watch)?.watch?.task ?? null;
  const watchName = watched ? `${watched} (never trained on): ${HELDOUT_PASS1}` : '';
  const legendEl = useLegendIn([...ks.map(passName), ...(watched ? [watchName] : [])]);
  const verdictMark = useVerdictMark();
  const tip = useMemo(() => stepTip((step) => {
    const e = atX(xMode, evals, step);
    return [...ks.map((k, i) => ({ name: passName(k), color: K_COLORS[i % K_COLORS.length], value: e ? fin(e.pass_at_k[k] ?? NaN) : undefined })),
      ...(watched ? [{ name: watchName, color: C.black, value: e?.watch ? fin(e.watch.pass1) : undefined }] : [])];
  }, head), [evals, ks, watched, watchName, head, xMode]);
  const body = useMemo(() => (
    <Sized>
      <LineChart data={rows} margin={margin}>
        {grid}
        {xAxis}
        <YAxis domain={UNIT} ticks={UNIT_TICKS} niceTicks="none" tick={AXIS} tickFormatter={axisTick} width={44} interval={0} />
        <ChartTooltip content={tip} />
        {legendEl}
        {ks.map((k, i) => <Line key={k} dataKey={`k${k}`} name={passName(k)} stroke={K_COLORS[i % K_COLORS.length]} strokeWidth={2.5} strokeDasharray={i % 2 ? '6 3' : undefined} dot={DOT} isAnimationActive={false} />)}
        {watched && <Line dataKey="watch" name={watchName} stroke={C.black} strokeWidth={2.5} strokeDasharray="2 3" dot={DOT} isAnimationActive={false} />}
        {verdictMark}
      </LineChart>
    </Sized>
  ), [rows, xAxis, tip, legendEl, ks, watched, watchName, verdictMark]); // redrawn at an evaluation, not at every step
  return (
    <ChartCard id="passk" view={view} title="pass@k on held-out prompts" question="Does RL teach new solutions or sharpen old ones? pass@k from G sampled answers per held-out prompt (not the greedy accuracy of the reward chart); pass@1 rising toward a flat pass@G means sharpening (pass@G is best-of-G)." points={rows.length}>
      {body}
    </ChartCard>
  );
}

const DOT = { r: 4 };

export function Charts() {
  return (
    <div className="charts" aria-label="Live charts">
      <RewardChart />
      <GroupsChart />
      <AdvantagesChart />
      <TheoryChart />
      <EntropyChart />
      <LengthChart />
      <ThinkingChart />
      <KlChart />
      <PassAtKChart />
      <MatchedTokensChart />
    </div>
  );
}
