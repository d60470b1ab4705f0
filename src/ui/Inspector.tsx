/**
 * Step through one real GRPO update, phase by phase: the prompts → the G sampled answers →
 * each verdict with its reason → the advantages with the formula filled in with this group's
 * numbers → once the update has run, each token's ratio π_new / π_old after it (1 at its start),
 * the clip and KL as a heat-map over the answer text, a token's objective term by term on click →
 * the update applied, each answer's log-probability before and after. The strip of groups shows
 * only what the phase on screen has computed.
 *
 * Model output is always rendered as React text (escaped), never as HTML.
 */
import { useState } from 'react';
import { PHASES, useLab, type GroupView, type InspectorState, type Phase } from '../store/labStore.ts';
import { ADVANTAGE_EPS, estimatorWords, rewardStd } from '../rl/advantages.ts';
import { pushCounts, type AnswerInspection, type ClipSideValue, type TokenTerm } from '../rl/inspection.ts';
import type { Settings } from '../rl/settings.ts';
import { clipRange } from '../rl/lossSpec.ts';
import { useSession } from './session.tsx';
import { FormulaLine, Tex } from './Tex.tsx';
import { Compare } from './Compare.tsx';
import { ObjectivePromise } from './ObjectivePromise.tsx';
import { groupTeaches } from '../store/views.ts';
import { momentumWords, updateWhy } from '../store/updateWords.ts';
import { TEXT, VERDICT, fmt, verdictKind } from './palette.ts';

const PHASE_TITLES: Record<(typeof PHASES)[number], string> = {
  prompts: '1. Prompts', answers: '2. Sampled answers', verdicts: '3. Verdicts', advantages: '4. Advantages', ratios: '5. Ratios, clip and KL', update: '6. Update applied',
};

function Verdict({ a }: { a: GroupView['answers'][number] }) {
  const k = verdictKind(a);
  return <span className={`verdict verdict-${k}`} style={{ borderColor: VERDICT[k].color, color: VERDICT[k].text }}>{VERDICT[k].mark} {VERDICT[k].word}</span>;
}

/** The answer's text, as text; a scratchpad before the one "|" is set apart from the graded answer after it. */
function AnswerText({ text }: { text: string }) {
  const sep = text.indexOf('|');
  if (sep < 0 || text.indexOf('|', sep + 1) >= 0) return <span className="answer-text" data-testid="answer-text">{text === '' ? '(empty)' : text}</span>;
  return (
    <span className="answer-text" data-testid="answer-text" title="thinking | answer — only the answer after “|” is graded">
      <span className="thinking">{text.slice(0, sep)}</span>|<strong>{text.slice(sep + 1)}</strong>
    </span>
  );
}

/** The focused group (index and data): the phases show one prompt's group in full. */
function shown(ins: InspectorState): [number, GroupView][] {
  const groups = ins.rollout!.groups, p = Math.min(ins.focus ?? 0, groups.length - 1);
  return [[p, groups[p]]];
}

const passes = (g: GroupView) => g.answers.filter((a) => a.correct).length;

/** A group's chip in the strip: its label, its class (mixed or not), its tooltip. */
export interface StripChip { label: string; kind: '' | 'mixed' | 'all-pass' | 'all-fail'; title: string }

/**
 * Group `p`'s chip at `phase`, showing only what that phase has computed: the prompt alone while
 * the answers are shown; its passes of G from the verdicts on; mixed or not (A ≠ 0) from the
 * advantages on; in the update's phase the group's mean Δ log π.
 */
export function stripChip(ins: InspectorState, p: number, phase: Phase): StripChip {
  const g = ins.rollout!.groups[p];
  const at = PHASES.indexOf(phase);
  const graded = at >= PHASES.indexOf('verdicts'), advised = at >= PHASES.indexOf('advantages');
  const c = passes(g), G = g.answers.length;
  // what teaches is A ≠ 0: a spread of rewards (with a format reward, a group that all fails can still have one),
  // or, under REINFORCE's batch-mean baseline, equal rewards away from the batch mean
  const why = groupTeaches(g);
  const d = phase === 'update' ? ins.details?.[p] : undefined;
  const dlp = d ? d.reduce((a, x) => a + (x.logpAfter - x.logpBefore), 0) / d.length : null;
  const teaches = why === 'spread' ? 'rewards differ: A ≠ 0' : why === 'baseline' ? 'rewards equal, A ≠ 0 from the batch baseline' : 'all rewards equal: A = 0';
  return {
    label: `P${p + 1}${graded ? ` ${c}/${G}` : ''}${dlp !== null ? ` ${dlp >= 0 ? '+' : ''}${fmt(dlp, 2)}` : ''}`,
    kind: !advised ? '' : why !== 'none' ? 'mixed' : c === G ? 'all-pass' : 'all-fail',
    title: `${g.prompt}${graded ? `: ${c} of ${G} pass` : ''}${advised ? ` (${teaches})` : ''}${dlp !== null ? `, mean Δ log π ${fmt(dlp, 3)}` : ''}`,
  };
}

/** Every group in one line each (stripChip: what the phase on screen has computed). Click to focus. */
function GroupStrip({ ins, phase }: { ins: InspectorState; phase: Phase }) {
  const lab = useSession();
  const focus = ins.focus ?? 0;
  const at = PHASES.indexOf(phase);
  const graded = at >= PHASES.indexOf('verdicts'), advised = at >= PHASES.indexOf('advantages'), updated = phase === 'update' && !!ins.details;
  return (
    <div className="group-strip" role="toolbar" aria-label="Groups: pick one to see in full" data-testid="group-strip">
      {ins.rollout!.groups.map((_, p) => {
        const chip = stripChip(ins, p, phase);
        return (
          <button key={p} className={`strip-group${chip.kind ? ` ${chip.kind}` : ''}${p === focus ? ' current' : ''}`} aria-pressed={p === focus} onClick={() => lab.stepThrough.focus(p)} title={chip.title}>
            {chip.label}
          </button>
        );
      })}
      <span className="note"> {!graded ? 'Pick a prompt to see its answers in full.' : 'n/G: answers that pass.'}
        {advised && <> Green: some A ≠ 0, it teaches ({ins.rollout!.groups.some((g) => groupTeaches(g) === 'baseline') ? 'here also groups of equal rewards: the batch-mean baseline gives them A ≠ 0' : 'its rewards differ'}). Grey: A = 0 for every answer (all rewards equal).</>}
        {updated && ' After the update, the signed number is the group\'s mean Δ log π: a grey group moves too (every update moves the weights all answers share).'}</span>
    </div>
  );
}

function Prompts({ ins }: { ins: InspectorState }) {
  return (
    <ol className="prompt-list compact">
      {ins.rollout!.groups.map((g, p) => <li key={p}><code className="prompt-text">{g.prompt}</code></li>)}
    </ol>
  );
}

function Answers({ ins, verdicts }: { ins: InspectorState; verdicts: boolean }) {
  return (
    <div className="groups">
      {shown(ins).map(([p, g]) => (
        <div className="group" key={p}>
          <div className="group-prompt">Prompt {p + 1}: <code className="prompt-text">{g.prompt}</code></div>
          <table className="answers">
            <tbody>
              {g.answers.map((a, i) => (
                <tr key={i}>
                  <td className="idx">o<sub>{i + 1}</sub></td>
                  <td><AnswerText text={a.text} />{!a.finished && <span className="note"> (cut off at the length limit)</span>}</td>
                  {verdicts && <td><Verdict a={a} /></td>}
                  {verdicts && <td className="reason">{a.reason}</td>}
                  {verdicts && <td className="num">r = {fmt(a.reward)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** ε of the advantage's denominator, as TeX (the constant the trainer uses). */
const EPS_TEX = `10^{${Math.log10(ADVANTAGE_EPS)}}`;
/** Numbers inside formulas: 3 decimals, no float noise (σ of equal rewards is 0, not 1e-17). */
const n = (x: number) => { const r = Number(x.toFixed(3)); return String(Object.is(r, -0) ? 0 : r); };

/** The estimator's formula, then the same with this group's numbers for answer o_1. */
function advantageTex(st: Settings, g: GroupView, all: number[]): [string, string] {
  const r = g.answers.map((a) => a.reward);
  const G = r.length;
  const m = mean(r);
  const a1 = g.answers[0].advantage;
  if (st.advantage === 'grpo' && st.scaleRewards !== 'none') {
    const s = st.scaleRewards === 'batch' ? rewardStd(all) : rewardStd(r);
    const sym = st.scaleRewards === 'batch' ? '\\sigma_{\\text{batch}}' : '\\sigma';
    return [`A_i = \\frac{r_i - \\bar r}{${sym} + ${EPS_TEX}}`, `\\bar r = ${n(m)},\\; ${sym} = ${n(s)}:\\quad A_1 = \\frac{${n(r[0])} - ${n(m)}}{${n(s)} + ${EPS_TEX}} = ${n(a1)}`];
  }
  if (st.advantage === 'leave_one_out' || st.algorithm === 'rloo') {
    const others = (r.reduce((a, b) => a + b, 0) - r[0]) / (G - 1);
    return ['A_i = r_i - \\frac{1}{G-1}\\sum_{j \\ne i} r_j', `A_1 = ${n(r[0])} - ${n(others)} = ${n(a1)}`];
  }
  if (st.advantage === 'reinforce') {
    const mb = mean(all);
    return ['A_i = r_i - \\bar r_{\\text{batch}}', `\\bar r_{\\text{batch}} = ${n(mb)}:\\quad A_1 = ${n(r[0])} - ${n(mb)} = ${n(a1)}`];
  }
  return ['A_i = r_i - \\bar r', `\\bar r = ${n(m)}:\\quad A_1 = ${n(r[0])} - ${n(m)} = ${n(a1)}`];
}

function Advantages({ ins }: { ins: InspectorState }) {
  const all = ins.rollout!.groups.flatMap((g) => g.answers.map((a) => a.reward));
  const st = ins.settings!;
  return (
    <>
      <p>Advantages by {estimatorWords(st.advantage, st.scaleRewards)}. {st.advantage === 'reinforce' ? 'Its baseline is the batch mean, so an all-equal group still gets A ≠ 0 unless it sits at that mean.' : 'A group whose rewards are all equal gets A = 0: it teaches nothing.'}</p>
    <div className="groups">
      {shown(ins).map(([p, g]) => {
        const [formula, filled] = advantageTex(st, g, all);
        return (
          <div className="group" key={p}>
            <div className="group-prompt">Prompt {p + 1}: <code className="prompt-text">{g.prompt}</code></div>
            <FormulaLine tex={formula} />
            <FormulaLine tex={filled} />
            <table className="answers">
              <tbody>
                {g.answers.map((a, i) => (
                  <tr key={i}>
                    <td className="idx">o<sub>{i + 1}</sub></td>
                    <td><AnswerText text={a.text} /></td>
                    <td><Verdict a={a} /></td>
                    <td className="num">r = {fmt(a.reward)}</td>
                    <td className="num adv" style={{ color: a.advantage > 0 ? TEXT.green : a.advantage < 0 ? TEXT.vermillion : '#444' }}>A = {fmt(a.advantage)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
    </div>
    </>
  );
}

/** Background for a token: ratio view (blue above 1, orange below) or KL view (purple by size). */
function tokenStyle(view: 'ratio' | 'kl', ratio: number, kl: number, maxKl: number) {
  if (view === 'kl') {
    const a = maxKl > 0 && Number.isFinite(kl) ? Math.min(1, Math.abs(kl) / maxKl) : 0;
    return { background: `rgba(204,121,167,${(0.1 + 0.8 * a).toFixed(2)})` };
  }
  const d = Math.min(1, Math.abs(Math.log(ratio)) / 0.3);
  return { background: ratio >= 1 ? `rgba(0,114,178,${(0.08 + 0.7 * d).toFixed(2)})` : `rgba(230,159,0,${(0.08 + 0.8 * d).toFixed(2)})` };
}

const CLIP_WORDS = { [-1]: 'clipped below: ρ < 1 − ε with A < 0, so the min takes the clipped branch and this token gets no surrogate gradient', [1]: 'clipped above: ρ > 1 + ε_high with A > 0, so the min takes the clipped branch and this token gets no surrogate gradient', [0]: 'not clipped: the gradient flows' } as const;
const CLIP_NEXT = { [-1]: 'the clip would stop it below in a next inner epoch', [1]: 'the clip would stop it above in a next inner epoch', [0]: 'inside the clip range' } as const;

/**
 * Each token of an answer coloured by its ratio after the update, ρ = π_new / π_old (or its KL to
 * π_ref), ✂ where the clip would stop it in a next inner epoch; a click opens its terms.
 */
function HeatRow({ tokens, d, view, maxKl, onPick }: { tokens: string[]; d: AnswerInspection; view: 'ratio' | 'kl'; maxKl: number; onPick?: (j: number) => void }) {
  return (
    <span className="heat">
      {tokens.map((t, j) => {
        const ratio = d.ratioAfter[j] ?? 1;
        const clip = d.sequence ? 0 : d.clipAfter[j] ?? 0;
        const kl = d.tokens?.[j]?.kl ?? NaN;
        return (
          <span key={j} className={`tok${clip ? ' clipped' : ''}`} style={tokenStyle(view, ratio, kl, maxKl)} role={onPick ? 'button' : undefined} tabIndex={onPick ? 0 : undefined}
            onClick={onPick && (() => onPick(j))} onKeyDown={onPick && ((e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onPick(j); } })}
            title={`token "${t}": ρ after the update = ${fmt(ratio)}${clip ? ', the clip would stop it next' : ''}${onPick ? ' (click for its terms)' : ''}`}>
            {t === ' ' ? '␣' : t}{clip ? <sup aria-label="clipped">✂</sup> : null}
          </span>
        );
      })}
    </span>
  );
}

/** GSPO clips a whole answer: its sequence ratio s_i after the update, and the side the clip would stop it on. */
function SequenceClip({ d }: { d: AnswerInspection }) {
  if (!d.sequence) return null;
  const s = d.ratioAfter[0] ?? 1;
  const side = d.clipAfter[0] ?? 0;
  return <span className={`num seq${side ? ' clipped' : ''}`} data-testid="sequence-clip">s = {fmt(s)}{side ? ` ✂ whole answer clipped ${side > 0 ? 'above' : 'below'}` : ''}</span>;
}

/**
 * One token's objective, term by term, with this step's numbers (opened by clicking the token),
 * every figure rounded as the rows beside it are (fmt: 3 decimals).
 */
function TokenTerms({ token, A, term, after, clipAfter }: { token: string; A: number; term: TokenTerm; after: number; clipAfter: ClipSideValue }) {
  return (
    <div className="token-terms" data-testid="token-terms" role="region" aria-label={`Objective terms of token ${token}`}>
      <strong>Token “{token}”</strong>, A = {fmt(A)}. At the start of the update ρ = {fmt(term.ratio)} — {CLIP_WORDS[term.clip]}; KL to π_ref = {fmt(term.kl)};
      aggregation weight w = {fmt(term.weight)}; contribution to the loss w·(−min(ρA, clip(ρ)A) + β·KL − c_H·H) = {fmt(term.loss)};
      gradient on its log-probability dL/d log π = {fmt(term.grad)} ({term.grad < 0 ? 'made more likely' : term.grad > 0 ? 'made less likely' : 'not moved'}).
      After the update ρ = {fmt(after)}: {CLIP_NEXT[clipAfter]}.
    </div>
  );
}

/** The ratios phase: the update has run; each token's ratio after it (ρ = 1 for every token at its start), its clip and KL, and a token's terms on click. */
function Ratios({ ins }: { ins: InspectorState }) {
  const [view, setView] = useState<'ratio' | 'kl'>('ratio');
  const [pick, setPick] = useState<{ p: number; i: number; j: number } | null>(null);
  const details = ins.details!;
  const st = ins.settings!;
  const flat = details.flat();
  const maxKl = Math.max(1e-9, ...flat.flatMap((d) => (d.tokens ?? []).map((x) => Math.abs(x.kl)).filter(Number.isFinite)));
  const sequence = st.importanceSamplingLevel === 'sequence';
  const nClipped = sequence ? flat.filter((d) => d.clipAfter[0]).length : flat.reduce((a, d) => a + d.clipAfter.filter(Boolean).length, 0);
  const nUnits = sequence ? flat.length : flat.reduce((a, d) => a + d.ratioAfter.length, 0);
  const unit = sequence ? 'answers' : 'tokens';
  const ratios = flat.flatMap((d) => d.ratioAfter).filter(Number.isFinite);
  if (st.algorithm === 'rft') return <p>RFT trains by cross-entropy on the verified answers: no ratio, clip or KL enters its loss.</p>;
  if (st.algorithm === 'rloo') return <p>RLOO is REINFORCE on the whole answer: each answer's summed log-probability is pushed by its leave-one-out advantage, with no ratio and no clip (one update per batch, so there is no π_old to clip against).</p>;
  const { epsilon, epsilonHigh } = clipRange(st);
  return (
    <div>
      <p>
        {sequence
          ? <>GSPO: one ratio per answer, <Tex tex={'s_i = \\exp\\big(\\tfrac{1}{|o_i|}\\sum_t \\log\\rho_t\\big)'} />, clipped as one unit in <Tex tex={'-\\min\\big(s_i A,\\ \\text{clip}(s_i, 1-\\varepsilon, 1+\\varepsilon_{\\text{high}}) A\\big)'} />,</>
          : <>Per token, <Tex tex={'\\rho_t = \\pi_\\theta(o_t)/\\pi_{\\text{old}}(o_t)'} /> enters <Tex tex={'-\\min\\big(\\rho_t A,\\ \\text{clip}(\\rho_t, 1-\\varepsilon, 1+\\varepsilon_{\\text{high}}) A\\big)'} /></>}{' '}
        with ε = {epsilon}, ε_high = {epsilonHigh}. At the start of the update π_θ = π_old: every ratio is 1 and nothing is clipped.
        The update has now run; the colours are each {sequence ? 'answer\'s' : 'token\'s'} ratio after it, π_new / π_old (from {fmt(Math.min(1, ...ratios))} to {fmt(Math.max(1, ...ratios))} in this batch),
        {st.numIterations > 1 ? ` ratios like those the later of the µ = ${st.numIterations} inner epochs saw, where the clip can bite.` : ' what a second inner epoch would see (with µ = 1 there is none, so the clip never bites).'}{' '}
        KL per token ({st.klEstimator}, <Tex tex={'d = \\log\\pi_{\\text{ref}} - \\log\\pi_\\theta'} />): {st.klEstimator === 'k1' ? <Tex tex={'k_1 = -d'} /> : <Tex tex={'k_3 = e^{d} - d - 1'} />}. Click a token for its terms.
      </p>
      <div className="heat-toggle" role="radiogroup" aria-label="Heat-map shows">
        <label><input type="radio" checked={view === 'ratio'} onChange={() => setView('ratio')} /> ratio ρ after the update</label>
        <label><input type="radio" checked={view === 'kl'} onChange={() => setView('kl')} /> KL to π_ref</label>
        <span className="note"> {nClipped} of {nUnits} {unit} would be clipped in a next inner epoch (✂). Blue: ρ &gt; 1, orange: ρ &lt; 1.</span>
      </div>
      {shown(ins).map(([p, g]) => (
        <div className="group" key={p}>
          <div className="group-prompt">Prompt {p + 1}: <code className="prompt-text">{g.prompt}</code></div>
          {g.answers.map((a, i) => (
            <div key={i} className="heat-line">
              <span className="idx">o<sub>{i + 1}</sub></span> <span className="num">A = {fmt(a.advantage)}</span> <HeatRow tokens={a.tokens} d={details[p][i]} view={view} maxKl={maxKl} onPick={details[p][i].tokens ? (j) => setPick({ p, i, j }) : undefined} /> <SequenceClip d={details[p][i]} />
            </div>
          ))}
          {pick && pick.p === p && details[p][pick.i]?.tokens?.[pick.j] && (
            <TokenTerms token={g.answers[pick.i].tokens[pick.j]} A={g.answers[pick.i].advantage} term={details[p][pick.i].tokens![pick.j]}
              after={details[p][pick.i].ratioAfter[pick.j] ?? 1} clipAfter={details[p][pick.i].clipAfter[pick.j] ?? 0} />
          )}
        </div>
      ))}
    </div>
  );
}

/** A change in log π, green with ✓ when it goes the way the advantage asks, vermillion with ✗ when not. */
function DeltaCell({ A, delta }: { A: number; delta: number }) {
  const good = (A > 0 && delta > 0) || (A < 0 && delta < 0);
  return <td className="num" style={{ color: A === 0 ? '#444' : good ? TEXT.green : TEXT.vermillion }}>{delta >= 0 ? '+' : ''}{fmt(delta, 4)} {A !== 0 ? (good ? '✓' : '✗') : ''}</td>;
}

function Update({ ins }: { ins: InspectorState }) {
  const all = ins.rollout!.groups.flatMap((g, p) => g.answers.map((a, i) => ({ p, i, a, d: ins.details![p][i] })));
  const counts = pushCounts(all.map((r) => ({ ...r.d, advantage: r.a.advantage })));
  const [[fp]] = shown(ins);
  const rows = all.filter((r) => r.p === fp);
  const pushed = counts.positive + counts.negative > 0; // some answer has A ≠ 0
  const alone = counts.gradientAlone;
  const geo = ins.stepGeometry;
  return (
    <div>
      <p className="verdict-summary" data-testid="update-summary">
        {!pushed
          ? <>No answer in this batch has A ≠ 0 (every group's rewards are equal), so the policy gradient pushed nothing: any change in the log π below came from the KL leash (β &gt; 0), an entropy bonus, or AdamW's momentum from earlier steps.</>
          : alone
            ? <>A &gt; 0 made more likely: <strong data-testid="up-gradient">{alone.up} of {counts.positive}</strong> by this batch's gradient alone; <strong data-testid="up-applied">{counts.applied.up} of {counts.positive}</strong> after AdamW's step, {momentumWords(ins.rollout!.step === 0)}. A &lt; 0 made less likely: {alone.down} of {counts.negative} by the gradient alone; {counts.applied.down} of {counts.negative} after AdamW's step.</>
            : <>Answers with A &gt; 0 that became more likely: <strong>{counts.applied.up} of {counts.positive}</strong>. Answers with A &lt; 0 that became less likely: <strong>{counts.applied.down} of {counts.negative}</strong>.</>}
      </p>
      {pushed && alone && <ObjectivePromise counts={counts} geo={geo} />}
      {pushed && alone && <p className="note" data-testid="update-why">{updateWhy(counts, geo, ins.rollout!.step === 0)}</p>}
      {pushed && !alone && <p className="note">Not all of them: every answer's update moves the same shared weights, so pushing one answer up also moves the others — those of other prompts, and the other answers of its own group.</p>}
      <div className="group-prompt">Prompt {fp + 1}: <code className="prompt-text">{ins.rollout!.groups[fp].prompt}</code></div>
      <table className="answers wide">
        <thead><tr><th>prompt</th><th>answer</th><th>A</th><th>log π before</th>{alone && <th>Δ by this batch's gradient alone</th>}<th>after AdamW's step</th><th>Δ applied</th></tr></thead>
        <tbody>
          {rows.map(({ p, i, a, d }) => (
            <tr key={`${p}-${i}`}>
              <td>P{p + 1}.o<sub>{i + 1}</sub></td>
              <td><AnswerText text={a.text} /></td>
              <td className="num">{fmt(a.advantage)}</td>
              <td className="num">{fmt(d.logpBefore)}</td>
              {alone && <DeltaCell A={a.advantage} delta={d.logpGradientAlone! - d.logpBefore} />}
              <td className="num">{fmt(d.logpAfter)}</td>
              <DeltaCell A={a.advantage} delta={d.logpAfter - d.logpBefore} />
            </tr>
          ))}
        </tbody>
      </table>
      {ins.comparison && <Compare ins={ins} />}
    </div>
  );
}

export function Inspector() {
  const ins = useLab((s) => s.inspector);
  const stepMode = useLab((s) => s.stepMode);
  const lab = useSession();
  if (!stepMode) return null;
  const phase = ins ? PHASES[ins.phase] : null;
  return (
    <section className="inspector card" aria-label="Step through one GRPO update" data-testid="inspector">
      <header>
        <h2>Step through one GRPO update</h2>
        <nav className="phases" aria-label="Phases">
          {PHASES.map((ph, i) => (
            <span key={ph} className={`phase${ins && i === ins.phase ? ' current' : ''}${ins && i < ins.computed ? ' done' : ''}`} aria-current={ins && i === ins.phase ? 'step' : undefined}>{PHASE_TITLES[ph]}</span>
          ))}
        </nav>
        <div className="phase-buttons">
          <button onClick={() => lab.stepBack()} disabled={!ins || ins.busy || ins.phase === 0}>← Previous phase</button>
          <button onClick={() => void lab.stepOnce()} disabled={ins?.busy}>{!ins ? 'Start: sample a rollout →' : ins.computed >= PHASES.length && ins.phase === PHASES.length - 1 ? 'Next update →' : 'Next phase →'}</button>
          {ins?.busy && <span className="busy" role="status">computing…</span>}
        </div>
      </header>
      {ins?.rollout && phase && phase !== 'prompts' && <GroupStrip ins={ins} phase={phase} />}
      <div data-testid="inspector-phase" data-phase={phase ?? 'none'}>
        {!ins || !ins.rollout ? <p>Press “Start” (or →) to sample G answers for P prompts with the current policy.</p> : null}
        {ins?.rollout && phase === 'prompts' && <Prompts ins={ins} />}
        {ins?.rollout && phase === 'answers' && <Answers ins={ins} verdicts={false} />}
        {ins?.rollout && phase === 'verdicts' && <Answers ins={ins} verdicts />}
        {ins?.rollout && phase === 'advantages' && <><Advantages ins={ins} /><Compare ins={ins} /></>}
        {ins?.rollout && ins.details && phase === 'ratios' && <Ratios ins={ins} />}
        {ins?.rollout && ins.details && phase === 'update' && <Update ins={ins} />}
      </div>
    </section>
  );
}
