/**
 * One logged step of an imported TRL run, through the step-through's first four phases: the
 * prompts, the G sampled answers of one prompt, their rewards, and their advantages — the logged
 * ones beside TRL's formula filled in with the group's numbers, (r − mean) / (std + 1e-4) with the
 * sample std (n − 1), the std the lab's own runs divide by too (rl/advantages.ts).
 * Later phases (ratios, the update) need per-token log-probabilities, which TRL does not log.
 * Model output is rendered as text, never as HTML.
 */
import { useState } from 'react';
import type { ImportedRunView } from '../store/importedRun.ts';
import { accuracyFunc } from '../rl/doctor.ts';
import { ADVANTAGE_EPS, rewardStd } from '../rl/advantages.ts';
import { C, fmt } from './palette.ts';

const PHASES = ['1. Prompts', '2. Sampled answers', '3. Rewards', '4. Advantages'] as const;

/** TRL's group advantage: (r − mean) / (sample std + 1e-4), scale_rewards = "group". */
function trlAdvantages(rs: number[]): { mean: number; std: number; a: number[] } {
  const mean = rs.reduce((x, y) => x + y, 0) / rs.length;
  const std = rewardStd(rs);
  return { mean, std, a: rs.map((r) => (r - mean) / (std + ADVANTAGE_EPS)) };
}

export function ImportedStep({ run }: { run: ImportedRunView }) {
  const [at, setAt] = useState(0);
  const [phase, setPhase] = useState(0);
  const c = run.completions[Math.min(at, run.completions.length - 1)];
  const firstMixed = (x: typeof c) => Math.max(0, x.groups.findIndex((gr) => gr.answers.some((a) => a.advantage !== 0 && Number.isFinite(a.advantage))));
  const [focus, setFocus] = useState(() => firstMixed(run.completions[0]));
  const g = c.groups[Math.min(focus, c.groups.length - 1)];
  const acc = accuracyFunc(run);
  const total = (a: (typeof g.answers)[number]) => c.rewardColumns.reduce((x, k) => x + (Number.isFinite(a.rewards[k]) ? a.rewards[k] : 0), 0);
  const rs = g.answers.map(total);
  const adv = trlAdvantages(rs);
  return (
    <details className="imported-step" data-testid="trl-step-through">
      <summary>Step through a logged step of {run.label} (its completion logs: {run.completions.length})</summary>
      <div className="row">
        <label>logged step{' '}
          <select value={at} onChange={(e) => { const i = Number(e.target.value); setAt(i); setFocus(firstMixed(run.completions[i])); }} data-testid="trl-step-select">
            {run.completions.map((x, i) => <option key={`${x.step}-${i}`} value={i}>{x.step} ({x.file})</option>)}
          </select>
        </label>
        {PHASES.map((p, i) => <button key={p} className="small" aria-pressed={phase === i} onClick={() => setPhase(i)}>{p}</button>)}
      </div>
      {phase === 0 && (
        <ol className="trl-prompts" data-testid="trl-phase-prompts">
          {c.groups.map((x, i) => (
            <li key={i}><button className="small" aria-pressed={focus === i} onClick={() => { setFocus(i); setPhase(1); }}>{x.prompt === '' ? '(empty)' : x.prompt}</button> — {x.answers.length} answers</li>
          ))}
        </ol>
      )}
      {phase > 0 && (
        <table className="trl-group" data-testid={`trl-phase-${['', 'answers', 'rewards', 'advantages'][phase]}`}>
          <caption>Prompt {Math.min(focus, c.groups.length - 1) + 1} of {c.groups.length}: <code>{g.prompt}</code></caption>
          <thead>
            <tr>
              <th>#</th><th>answer</th>
              {phase >= 2 && c.rewardColumns.map((k) => <th key={k}>{k}</th>)}
              {phase >= 3 && <><th>advantage (logged)</th><th>TRL&apos;s formula</th></>}
            </tr>
          </thead>
          <tbody>
            {g.answers.map((a, i) => (
              <tr key={i}>
                <td>{i + 1}</td>
                <td className="answer-text">{a.completion === '' ? '(empty)' : a.completion}</td>
                {phase >= 2 && c.rewardColumns.map((k) => (
                  <td key={k} style={k === acc ? { color: a.rewards[k] === 1 ? C.green : a.rewards[k] === 0 ? C.vermillion : undefined } : undefined}>
                    {k === acc && a.rewards[k] === 1 ? '✓ ' : k === acc && a.rewards[k] === 0 ? '✗ ' : ''}{fmt(a.rewards[k])}
                  </td>
                ))}
                {phase >= 3 && <><td>{fmt(a.advantage)}</td><td>({fmt(rs[i])} − {fmt(adv.mean)}) / ({fmt(adv.std)} + 1e-4) = {fmt(adv.a[i])}</td></>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {phase === 3 && (
        <p className="note">
          {g.answers.every((a, i) => !Number.isFinite(a.advantage) || Math.abs(a.advantage - adv.a[i]) < 1e-3)
            ? 'The logged advantages match TRL’s formula with the group’s own mean and sample std (scale_rewards = "group").'
            : 'The logged advantages differ from the group formula: the run scaled by the batch std (scale_rewards = "batch"), did not scale (Dr. GRPO), or weighted its rewards.'}
          {' '}An all-equal group has std 0: every advantage is 0 and it teaches nothing. The lab divides by the same sample std (n − 1), as TRL does.
        </p>
      )}
    </details>
  );
}
