/**
 * Step through one real GRPO update, phase by phase: the prompts → the G sampled answers →
 * each verdict with its reason → the advantages with the formula filled in with this group's
 * numbers → per-token ratios, clipped tokens and KL as a heat-map over the answer text → the
 * update applied, each answer's log-probability before and after.
 *
 * Model output is always rendered as React text (escaped), never as HTML.
 */
import { useState } from 'react';
import { PHASES, useLab, type GroupView, type InspectorState, type TokenDetail } from '../store/labStore.ts';
import { inspectBack, inspectForward } from '../store/runController.ts';
import { Tex } from './Tex.tsx';
import { C, VERDICT, fmt, verdictKind } from './palette.ts';

const PHASE_TITLES: Record<(typeof PHASES)[number], string> = {
  prompts: '1. Prompts',
  answers: '2. Sampled answers',
  verdicts: '3. Verdicts',
  advantages: '4. Advantages',
  ratios: '5. Ratios, clip and KL',
  update: '6. Update applied',
};

function Verdict({ a }: { a: GroupView['answers'][number] }) {
  const k = verdictKind(a);
  return <span className={`verdict verdict-${k}`} style={{ borderColor: VERDICT[k].color, color: VERDICT[k].color }}>{VERDICT[k].mark} {VERDICT[k].word}</span>;
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

function Prompts({ ins }: { ins: InspectorState }) {
  return (
    <ol className="prompt-list">
      {ins.rollout!.groups.map((g, p) => <li key={p}><code className="prompt-text">{g.prompt}</code></li>)}
    </ol>
  );
}

function Answers({ ins, verdicts }: { ins: InspectorState; verdicts: boolean }) {
  return (
    <div className="groups">
      {ins.rollout!.groups.map((g, p) => (
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
const std = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
/** Numbers inside formulas: 3 decimals, no float noise (σ of equal rewards is 0, not 1e-17). */
const n = (x: number) => { const r = Number(x.toFixed(3)); return String(Object.is(r, -0) ? 0 : r); };

/** The estimator's formula, then the same with this group's numbers for answer o_1. */
function advantageTex(ins: InspectorState, g: GroupView, all: number[]): [string, string] {
  const r = g.answers.map((a) => a.reward);
  const G = r.length;
  const m = mean(r);
  const a1 = g.answers[0].advantage;
  if (ins.advantage === 'grpo' && ins.scaleRewards !== 'none') {
    const s = ins.scaleRewards === 'batch' ? std(all) : std(r);
    const sym = ins.scaleRewards === 'batch' ? '\\sigma_{\\text{batch}}' : '\\sigma';
    return [`A_i = \\frac{r_i - \\bar r}{${sym} + 10^{-4}}`, `\\bar r = ${n(m)},\\; ${sym} = ${n(s)}:\\quad A_1 = \\frac{${n(r[0])} - ${n(m)}}{${n(s)} + 10^{-4}} = ${n(a1)}`];
  }
  if (ins.advantage === 'rloo') {
    const others = (r.reduce((a, b) => a + b, 0) - r[0]) / (G - 1);
    return ['A_i = r_i - \\frac{1}{G-1}\\sum_{j \\ne i} r_j', `A_1 = ${n(r[0])} - ${n(others)} = ${n(a1)}`];
  }
  if (ins.advantage === 'reinforce') {
    const mb = mean(all);
    return ['A_i = r_i - \\bar r_{\\text{batch}}', `\\bar r_{\\text{batch}} = ${n(mb)}:\\quad A_1 = ${n(r[0])} - ${n(mb)} = ${n(a1)}`];
  }
  return ['A_i = r_i - \\bar r', `\\bar r = ${n(m)}:\\quad A_1 = ${n(r[0])} - ${n(m)} = ${n(a1)}`];
}

function Advantages({ ins }: { ins: InspectorState }) {
  const all = ins.rollout!.groups.flatMap((g) => g.answers.map((a) => a.reward));
  return (
    <>
      <p>Estimator <code>{ins.advantage}</code>{ins.advantage === 'grpo' ? <> with <code>scale_rewards = {ins.scaleRewards}</code></> : null}. A group whose rewards are all equal gets A = 0: it teaches nothing.</p>
    <div className="groups">
      {ins.rollout!.groups.map((g, p) => {
        const [formula, filled] = advantageTex(ins, g, all);
        return (
          <div className="group" key={p}>
            <div className="group-prompt">Prompt {p + 1}: <code className="prompt-text">{g.prompt}</code></div>
            <div className="formula-line"><Tex tex={formula} /></div>
            <div className="formula-line"><Tex tex={filled} /></div>
            <table className="answers">
              <tbody>
                {g.answers.map((a, i) => (
                  <tr key={i}>
                    <td className="idx">o<sub>{i + 1}</sub></td>
                    <td><AnswerText text={a.text} /></td>
                    <td><Verdict a={a} /></td>
                    <td className="num">r = {fmt(a.reward)}</td>
                    <td className="num adv" style={{ color: a.advantage > 0 ? C.green : a.advantage < 0 ? C.vermillion : '#444' }}>A = {fmt(a.advantage)}</td>
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
    const a = maxKl > 0 ? Math.min(1, Math.abs(kl) / maxKl) : 0;
    return { background: `rgba(204,121,167,${(0.1 + 0.8 * a).toFixed(2)})` };
  }
  const d = Math.min(1, Math.abs(Math.log(ratio)) / 0.3);
  return { background: ratio >= 1 ? `rgba(0,114,178,${(0.08 + 0.7 * d).toFixed(2)})` : `rgba(230,159,0,${(0.08 + 0.8 * d).toFixed(2)})` };
}

function HeatRow({ tokens, d, view, after, maxKl }: { tokens: string[]; d: TokenDetail; view: 'ratio' | 'kl'; after: boolean; maxKl: number }) {
  const ratio = after ? d.ratioAfter! : d.ratio;
  const clipped = after ? d.clippedAfter! : d.clipped;
  return (
    <span className="heat">
      {tokens.map((t, j) => (
        <span key={j} className={`tok${clipped[j] ? ' clipped' : ''}`} style={tokenStyle(view, ratio[j], d.kl[j], maxKl)}
          title={`token "${t}": ρ = ${fmt(ratio[j], 4)}, KL = ${fmt(d.kl[j], 4)}${clipped[j] ? ', clipped' : ''}`}>
          {t === ' ' ? '␣' : t}{clipped[j] ? <sup aria-label="clipped">✂</sup> : null}
        </span>
      ))}
    </span>
  );
}

function Ratios({ ins, after }: { ins: InspectorState; after: boolean }) {
  const [view, setView] = useState<'ratio' | 'kl'>('ratio');
  const details = ins.details!;
  const maxKl = Math.max(1e-9, ...details.flat().flatMap((d) => d.kl.map(Math.abs)));
  const flat = details.flat();
  const nClipped = flat.reduce((a, d) => a + (after ? d.clippedAfter! : d.clipped).filter(Boolean).length, 0);
  const nTok = flat.reduce((a, d) => a + d.ratio.length, 0);
  return (
    <div>
      {!after && (
        <p>
          Per token, <Tex tex={'\\rho_t = \\pi_\\theta(o_t)/\\pi_{\\text{old}}(o_t)'} /> enters <Tex tex={'-\\min\\big(\\rho_t A,\\ \\text{clip}(\\rho_t, 1-\\varepsilon, 1+\\varepsilon_{\\text{high}}) A\\big)'} /> with
          ε = {ins.epsilon}, ε_high = {ins.epsilonHigh}. Before the first inner epoch π_θ = π_old, so every ρ is 1 and nothing is clipped;
          {ins.numIterations > 1 ? ` with µ = ${ins.numIterations} the later epochs see ρ move (shown after the update).` : ' with µ = 1 the clip never bites (the next phase shows how far one update moved each ρ).'}{' '}
          KL per token ({ins.klEstimator}, <Tex tex={'d = \\log\\pi_{\\text{ref}} - \\log\\pi_\\theta'} />): {ins.klEstimator === 'k1' ? <Tex tex={'k_1 = -d'} /> : <Tex tex={'k_3 = e^{d} - d - 1'} />}.
        </p>
      )}
      <div className="heat-toggle" role="radiogroup" aria-label="Heat-map shows">
        <label><input type="radio" checked={view === 'ratio'} onChange={() => setView('ratio')} /> ratio ρ</label>
        <label><input type="radio" checked={view === 'kl'} onChange={() => setView('kl')} /> KL to π_ref</label>
        <span className="note"> {nClipped} of {nTok} tokens {after ? 'would be clipped in the next inner epoch' : 'clipped'} (✂). Blue: ρ &gt; 1, orange: ρ &lt; 1.</span>
      </div>
      {ins.rollout!.groups.map((g, p) => (
        <div className="group" key={p}>
          <div className="group-prompt">Prompt {p + 1}: <code className="prompt-text">{g.prompt}</code></div>
          {g.answers.map((a, i) => (
            <div key={i} className="heat-line">
              <span className="idx">o<sub>{i + 1}</sub></span> <span className="num">A = {fmt(a.advantage)}</span> <HeatRow tokens={a.tokens} d={details[p][i]} view={view} after={after} maxKl={maxKl} />
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

function Update({ ins }: { ins: InspectorState }) {
  const rows = ins.rollout!.groups.flatMap((g, p) => g.answers.map((a, i) => ({ p, i, a, d: ins.details![p][i] })));
  const pos = rows.filter((r) => r.a.advantage > 0);
  const neg = rows.filter((r) => r.a.advantage < 0);
  const up = pos.filter((r) => r.d.logpAfter! > r.d.logpBefore).length;
  const down = neg.filter((r) => r.d.logpAfter! < r.d.logpBefore).length;
  return (
    <div>
      <p className="verdict-summary" data-testid="update-summary">
        Answers with A &gt; 0 that became more likely: <strong>{up} of {pos.length}</strong>. Answers with A &lt; 0 that became less likely: <strong>{down} of {neg.length}</strong>.
      </p>
      <table className="answers wide">
        <thead><tr><th>prompt</th><th>answer</th><th>A</th><th>log π before</th><th>after</th><th>Δ</th></tr></thead>
        <tbody>
          {rows.map(({ p, i, a, d }) => {
            const delta = d.logpAfter! - d.logpBefore;
            const good = (a.advantage > 0 && delta > 0) || (a.advantage < 0 && delta < 0);
            return (
              <tr key={`${p}-${i}`}>
                <td>P{p + 1}.o<sub>{i + 1}</sub></td>
                <td><AnswerText text={a.text} /></td>
                <td className="num">{fmt(a.advantage)}</td>
                <td className="num">{fmt(d.logpBefore)}</td>
                <td className="num">{fmt(d.logpAfter)}</td>
                <td className="num" style={{ color: a.advantage === 0 ? '#444' : good ? C.green : C.vermillion }}>{delta >= 0 ? '+' : ''}{fmt(delta, 4)} {a.advantage !== 0 ? (good ? '✓' : '✗') : ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h4>Ratios after the update (π_new / π_old)</h4>
      <Ratios ins={ins} after />
    </div>
  );
}

export function Inspector() {
  const ins = useLab((s) => s.inspector);
  const stepMode = useLab((s) => s.stepMode);
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
          <button onClick={() => inspectBack()} disabled={!ins || ins.busy || ins.phase === 0}>← Previous phase</button>
          <button onClick={() => void inspectForward()} disabled={ins?.busy}>{!ins ? 'Start: sample a rollout →' : ins.computed >= PHASES.length && ins.phase === PHASES.length - 1 ? 'Next update →' : 'Next phase →'}</button>
          {ins?.busy && <span className="busy" role="status">computing…</span>}
        </div>
      </header>
      <div data-testid="inspector-phase" data-phase={phase ?? 'none'}>
        {!ins || !ins.rollout ? <p>Press “Start” (or →) to sample G answers for P prompts with the current policy.</p> : null}
        {ins?.rollout && phase === 'prompts' && <Prompts ins={ins} />}
        {ins?.rollout && phase === 'answers' && <Answers ins={ins} verdicts={false} />}
        {ins?.rollout && phase === 'verdicts' && <Answers ins={ins} verdicts />}
        {ins?.rollout && phase === 'advantages' && <Advantages ins={ins} />}
        {ins?.rollout && ins.details && phase === 'ratios' && <Ratios ins={ins} after={false} />}
        {ins?.rollout && ins.details?.[0]?.[0]?.logpAfter !== undefined && phase === 'update' && <Update ins={ins} />}
      </div>
    </section>
  );
}
