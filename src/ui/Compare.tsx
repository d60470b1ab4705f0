/**
 * The counterfactual update, shown: the same sampled batch under GRPO, Dr. GRPO, DAPO and GSPO,
 * from the same weights (src/rl/counterfactual.ts). The four objectives' formulas side by side,
 * with what differs between them in colour; each colour marks the numbers of that term in the
 * focused group's table below: Â (the std division), B·w (the normaliser), Δ log π (the update
 * each objective applies), and the push on its long and short wrong answers.
 */
import { Fragment } from 'react';
import { PHASES, type GroupView, type InspectorState } from '../store/labStore.ts';
import { OBJECTIVES, objectiveSettings, wrongPush, type ObjectiveComparison, type ObjectiveId, type ObjectiveOutcome } from '../rl/counterfactual.ts';
import type { Settings } from '../rl/settings.ts';
import { useSession } from './session.tsx';
import { FormulaLine } from './Tex.tsx';
import { C, TEXT, fmt } from './palette.ts';

/** One colour per term that differs: the normaliser, the advantage's std division, the ratio's level, the clip bounds (text colours: AA on white). */
const TERM = { norm: C.blue, adv: TEXT.vermillion, ratio: TEXT.purple, clip: TEXT.green } as const;
const col = (k: keyof typeof TERM, tex: string) => `\\textcolor{${TERM[k]}}{${tex}}`;

const surrogate = (r: string, clip: string) => `\\min\\big(${col('ratio', r)}\\hat A_i,\\ \\text{clip}(${col('ratio', r)}, ${clip})\\,\\hat A_i\\big)`;

/** The clip range of the token-level objectives and of GSPO in the comparison (the run's at its own level, the ratio-level control's preset at the other). */
function clipsOf(st: Settings): { token: Settings; gspo: Settings } {
  return { token: objectiveSettings(st, OBJECTIVES[0]), gspo: objectiveSettings(st, OBJECTIVES.find((o) => o.id === 'gspo')!) };
}

/** Each objective's loss and advantage, as TeX, and its row in the "what differs" table. */
function formulas(st: Settings): Record<ObjectiveId, { loss: string; adv: string; differs: [string, string, string, string] }> {
  const clipTex = col('clip', '1-\\varepsilon,\\, 1+\\varepsilon_{\\text{high}}');
  const std = `\\hat A_i = \\frac{r_i - \\bar r}{${col('adv', '\\sigma + \\epsilon')}}`;
  const { token: ts, gspo: gs } = clipsOf(st);
  const bounds = `[${fmt(1 - ts.epsilon)}, ${fmt(1 + ts.epsilonHigh)}]`;
  const gspoBounds = `[${fmt(1 - gs.epsilon, 5)}, ${fmt(1 + gs.epsilonHigh, 5)}]`;
  return {
    grpo: { loss: `-${col('norm', '\\tfrac{1}{B}\\sum_i \\tfrac{1}{|o_i|}')}\\sum_t ${surrogate('\\rho_{i,t}', clipTex)}`, adv: std, differs: ['1/(B·|oᵢ|): each answer\'s mean', 'divided by the group\'s σ', 'per token ρ', `per token, ${bounds}`] },
    dr_grpo: { loss: `-${col('norm', '\\tfrac{1}{B\\,L_{\\max}}\\sum_i')}\\sum_t ${surrogate('\\rho_{i,t}', clipTex)}`, adv: `\\hat A_i = ${col('adv', 'r_i - \\bar r')}`, differs: [`1/(B·L_max), L_max = ${st.maxCompletionLength}: a constant`, 'not divided', 'per token ρ', `per token, ${bounds}`] },
    dapo: { loss: `-${col('norm', '\\tfrac{1}{\\sum_i |o_i|}\\sum_i')}\\sum_t ${surrogate('\\rho_{i,t}', clipTex)}`, adv: std, differs: ['1/Σ|oᵢ|: the batch\'s token mean', 'divided by the group\'s σ', 'per token ρ', `per token, ${bounds}${ts.epsilonHigh > ts.epsilon ? ' (clip-higher)' : ' (clip-higher needs ε_high > ε)'}`] },
    gspo: { loss: `-${col('norm', '\\tfrac{1}{B}\\sum_i')} ${surrogate('s_i', clipTex)}`, adv: `${std},\\quad ${col('ratio', 's_i = \\exp\\big(\\tfrac{1}{|o_i|}\\textstyle\\sum_t \\log \\rho_{i,t}\\big)')}`, differs: ['1/B: one term per answer', 'divided by the group\'s σ', 'per answer s: the geometric mean of its ρ', `per answer, ${gspoBounds}`] },
  };
}

const DIFFERS: [keyof typeof TERM, string][] = [['norm', 'normaliser (per-token weight w)'], ['adv', 'advantage'], ['ratio', 'ratio'], ['clip', 'clip bounds']];

function WrongPush({ o, g, p }: { o: ObjectiveOutcome; g: GroupView; p: number }) {
  const w = wrongPush(o.answers[p], g.answers.map((a) => a.correct));
  if (!w) return <span className="note">no two wrong answers of different lengths</span>;
  const per = (a: { push: number; length: number }) => Math.abs(a.push) / a.length;
  return (
    <span data-testid="wrong-push" data-ratio={per(w.long) / per(w.short)}>
      long ({w.long.length} tok) {fmt(Math.abs(w.long.push) * 1e3)} total, {fmt(per(w.long) * 1e3)}/tok; short ({w.short.length} tok) {fmt(Math.abs(w.short.push) * 1e3)}, {fmt(per(w.short) * 1e3)}/tok: per token <strong>{fmt(per(w.long) / per(w.short), 2)}×</strong>
    </span>
  );
}

/** The group's total push of the objective and pull of the KL leash, apart (Σ over its answers of |·|). */
function PushPull({ o, p, beta }: { o: ObjectiveOutcome; p: number; beta: number }) {
  const push = o.answers[p].reduce((a, x) => a + Math.abs(x.push), 0);
  const pull = o.answers[p].reduce((a, x) => a + Math.abs(x.pull), 0);
  if (beta === 0) return <span data-testid="push-pull" data-pull={0}>push {fmt(push * 1e3)}; no leash in the loss (β = 0)</span>;
  return <span data-testid="push-pull" data-pull={pull}>push {fmt(push * 1e3)}, pull {fmt(pull * 1e3)} (β = {beta})</span>;
}

function Numbers({ cmp, g, p }: { cmp: ObjectiveComparison; g: GroupView; p: number }) {
  const B = cmp.answers;
  return (
    <table className="answers compare-numbers" data-testid="compare-numbers">
      <thead>
        <tr><th rowSpan={2}>answer</th><th rowSpan={2} className="num">|o_i|</th>{cmp.objectives.map((o) => <th key={o.id} colSpan={3} className="obj-head" data-objective={o.id}>{o.label}{o.id === cmp.runObjective ? ' (this run)' : ''}</th>)}</tr>
        <tr>{cmp.objectives.map((o) => <Fragment key={o.id}><th className="num" style={{ color: TERM.adv }}>Â</th><th className="num" style={{ color: TERM.norm }} title={`the per-token weight times B = ${B} answers`}>B·w</th><th className="num">Δ log π</th></Fragment>)}</tr>
      </thead>
      <tbody>
        {g.answers.map((a, i) => (
          <tr key={i} data-answer={i}>
            <td title={a.text}>o<sub>{i + 1}</sub> <span className="answer-text">{a.text === '' ? '(empty)' : a.text}</span> {a.correct ? '✓' : '✗'}</td>
            <td className="num">{cmp.objectives[0].answers[p][i].length}</td>
            {cmp.objectives.map((o) => {
              const x = o.answers[p][i];
              return (
                <Fragment key={o.id}>
                  <td className="num" data-objective={o.id} data-col="advantage" data-value={x.advantage}>{fmt(x.advantage)}</td>
                  <td className="num" data-objective={o.id} data-col="weight" data-value={x.weight * B}>{fmt(x.weight * B, 4)}</td>
                  <td className="num" data-objective={o.id} data-col="delta" data-value={x.deltaLogp} style={{ color: x.advantage === 0 ? undefined : (x.advantage > 0) === (x.deltaLogp > 0) ? TEXT.green : TEXT.vermillion }}>{x.deltaLogp >= 0 ? '+' : ''}{fmt(x.deltaLogp, 3)}</td>
                </Fragment>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The comparison for the focused group, or the control that starts it. */
export function Compare({ ins }: { ins: InspectorState }) {
  const lab = useSession();
  const cmp = ins.comparison;
  const st = ins.settings!;
  const pendingUpdate = ins.computed === PHASES.indexOf('advantages') + 1;
  if (!cmp) {
    return (
      <div className="compare" data-testid="compare">
        {pendingUpdate
          ? <p><button onClick={() => void lab.stepThrough.compare()} disabled={ins.busy}>Compare objectives on this batch</button> <span className="note">Applies this batch's update under GRPO, Dr. GRPO, DAPO and GSPO, each from the same weights (one engine update of µ = {st.numIterations} inner epochs each), then puts the weights back: the run goes on with its own objective.</span></p>
          : <p className="note">The comparison runs before the update: step to phase 4 of the next update and press “Compare objectives on this batch”.</p>}
      </div>
    );
  }
  const f = formulas(st);
  const p = Math.min(ins.focus ?? 0, ins.rollout!.groups.length - 1);
  const g = ins.rollout!.groups[p];
  return (
    <div className="compare" data-testid="compare">
      <h4>The same batch under four objectives</h4>
      <p className="note">From the same weights, with ε = {clipsOf(st).token.epsilon}, ε_high = {clipsOf(st).token.epsilonHigh} at the token level and {clipsOf(st).gspo.epsilon} / {clipsOf(st).gspo.epsilonHigh} for GSPO (the run's at its own ratio level; at the other, what choosing that level sets), β = {st.beta}, µ = {st.numIterations}, η = {st.learningRate}. Colours mark what differs, here and in the numbers below. {cmp.runObjective ? <>The run applies its own objective ({cmp.objectives.find((o) => o.id === cmp.runObjective)!.label}) next; the other three updates were undone.</> : <>The run's settings are none of the four ({st.algorithm !== 'grpo' ? st.algorithm.toUpperCase() : `${st.advantage} / ${st.lossType} / ${st.importanceSamplingLevel}`}); it applies its own update next.</>}</p>
      <div className="compare-formulas">
        {cmp.objectives.map((o) => (
          <div key={o.id} className={`compare-formula${o.id === cmp.runObjective ? ' current' : ''}`} data-objective={o.id}>
            <strong>{o.label}</strong>
            <FormulaLine tex={`L = ${f[o.id].loss}`} />
            <FormulaLine tex={f[o.id].adv} />
          </div>
        ))}
      </div>
      <table className="answers compare-differs">
        <thead><tr><th>what differs</th>{cmp.objectives.map((o) => <th key={o.id}>{o.label}</th>)}</tr></thead>
        <tbody>
          {DIFFERS.map(([k, label], r) => (
            <tr key={k}><td style={{ color: TERM[k], fontWeight: 600 }}>{label}</td>{cmp.objectives.map((o) => <td key={o.id}>{f[o.id].differs[r]}</td>)}</tr>
          ))}
          <tr><td>KL leash's pull vs the objective's push (this group, ×10⁻³)</td>{cmp.objectives.map((o) => <td key={o.id} data-objective={o.id}><PushPull o={o} p={p} beta={st.klMode === 'loss' ? st.beta : 0} /></td>)}</tr>
          <tr><td>push on wrong answers (×10⁻³)</td>{cmp.objectives.map((o) => <td key={o.id} data-objective={o.id}><WrongPush o={o} g={g} p={p} /></td>)}</tr>
        </tbody>
      </table>
      <p className="note">Prompt {p + 1} (pick another in the strip above). B = {cmp.answers} answers in the batch; B·w = 1/|o_i| for GRPO and GSPO, 1/L_max for Dr. GRPO, B/Σ|o_i| for DAPO. Δ log π: the answer's log-probability after that objective's update minus before; green where it moved the way Â asks.</p>
      <Numbers cmp={cmp} g={g} p={p} />
    </div>
  );
}
