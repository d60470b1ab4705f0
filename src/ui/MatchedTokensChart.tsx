/**
 * Lesson 5's matched-tokens chart (src/rl/matchedTokens.ts): the live run (GRPO or RFT), the
 * finished runs overlaid beside it (its sibling variants, or runs pinned: overlays.ts) and
 * best-of-N on the base, at the generated tokens each needs to serve Q questions. Every y is a
 * held-out pass rate from sampled answers: pass@1 for a trained run, pass@N for best-of-N.
 */
import { useMemo, useState } from 'react';
import { ComposedChart, LabelList, Legend, Scatter, XAxis, YAxis } from 'recharts';
import { fmt2 } from '../rl/format.ts';
import { bestOfNPoints, matchedTokensSummary, trainedPoints } from '../rl/matchedTokens.ts';
import { useLab } from '../store/labStore.ts';
import { HELDOUT_PASS1 } from '../store/views.ts';
import { ChartTooltip, Sized, useCardView, useOverlays, useSeenLab, useStable } from './chartHooks.ts';
import { AXIS, ChartCard, grid, margin } from './ChartCard.tsx';
import { C, fmt } from './palette.ts';

/** A log axis from the 1-2-5 tick just below the data to the one just above, its ticks (only powers of ten over wide ranges). */
function logAxis(xs: number[]): { domain: [number, number]; ticks: number[] } {
  const lo = Math.min(...xs) / 1.2, hi = Math.max(...xs) * 1.2;
  const all: number[] = [];
  for (let d = Math.floor(Math.log10(lo)); d <= Math.ceil(Math.log10(hi)); d++) for (const m of [1, 2, 5]) all.push(m * 10 ** d);
  const domain: [number, number] = [Math.max(...all.filter((t) => t <= lo)), Math.min(...all.filter((t) => t >= hi))];
  const ticks = all.filter((t) => t >= domain[0] && t <= domain[1]);
  return { domain, ticks: ticks.length > 7 ? ticks.filter((t) => Number.isInteger(Math.log10(t))) : ticks };
}
const tokensLabel = (t: number) => (t >= 1e6 ? `${t / 1e6}M` : t >= 1e3 ? `${t / 1e3}k` : String(t));
const WORKLOADS = [100, 1_000, 10_000, 100_000, 1_000_000];
const ALGO = (a: string) => a.toUpperCase();
/** A point's measure: a trained run's held-out pass@1, best-of-N's held-out pass@N (both from sampled answers). */
const measure = (n: number) => (n === 1 ? HELDOUT_PASS1 : `held-out pass@${n} (sampled)`);
const tip = ({ active, payload }: { active?: boolean; payload?: readonly { name?: unknown; payload?: { what?: string; pass: number; n?: number } }[] }) => (active && payload?.length ? <div style={{ background: '#fff', border: '1px solid #999', padding: '4px 8px', fontSize: 14 }}>{payload[0].payload?.what ?? String(payload[0].name)}: {measure(payload[0].payload?.n ?? 1)} {fmt(payload[0].payload?.pass)}</div> : null);
const OVERLAY_SHAPES = ['triangle', 'square', 'cross'] as const;

/** Lesson 5: GRPO (or RFT), with the overlaid runs, and best-of-N on the base, at the tokens each needs to serve Q questions (src/rl/matchedTokens.ts). */
export function MatchedTokensChart() {
  const [Q, setQ] = useState(1_000);
  const view = useCardView();
  const steps = useSeenLab(view, (s) => s.steps);
  const evals = useSeenLab(view, (s) => s.evals);
  const algorithm = useLab((s) => s.settings.algorithm);
  const overlays = useOverlays();
  const mine = useStable(useMemo(() => trainedPoints(steps, evals, Q).map((p) => ({ ...p, what: `${ALGO(algorithm)}, step ${p.step}: ${p.training_tokens.toLocaleString('en')} training + ${Q.toLocaleString('en')} × ${fmt(p.answer_tokens, 2)} answer tokens` })), [steps, evals, Q, algorithm])); // changes only with an evaluation
  const theirs = useMemo(() => overlays.map((o) => ({ ...o, points: trainedPoints(o.run.steps, o.run.evals, Q).map((p) => ({ ...p, what: `${o.name} (${ALGO(o.run.settings.algorithm)}), step ${p.step}` })) })), [overlays, Q]);
  const bon = useMemo(() => bestOfNPoints(evals, Q)?.map((p) => ({ ...p, label: `N=${p.n}`, what: `best-of-${p.n}: ${Q.toLocaleString('en')} × ${p.n} × ${fmt(p.answer_tokens / p.n, 2)} tokens` })) ?? null, [evals, Q]);
  const axis = useMemo(() => {
    const xs = [...mine, ...theirs.flatMap((o) => o.points), ...(bon ?? [])].map((p) => p.tokens);
    return logAxis(xs.length ? xs : [1, 10]);
  }, [mine, theirs, bon]);
  const even = useMemo(() => matchedTokensSummary({ steps, evals }), [steps, evals]);
  const controls = (
    <label className="note">Questions to serve Q:{' '}
      <select value={Q} onChange={(e) => setQ(Number(e.target.value))} data-testid="tokens-questions" aria-label="Questions to serve">
        {WORKLOADS.map((q) => <option key={q} value={q}>{q.toLocaleString('en')}</option>)}
      </select>
      {bon ? '' : ' · No evaluation of the base at step 0 in this run: best-of-N is not drawn.'}
      {Number.isFinite(even.break_even_questions) && <span data-testid="tokens-break-even"> · This run: best-of-N matches its {HELDOUT_PASS1} {fmt2(even.pass1_trained)} at N ≈ {even.samples_to_match.toFixed(1)}; training pays for itself after ≈ {Math.round(even.break_even_questions).toLocaleString('en')} questions.</span>}
    </label>
  );
  const rows = [...mine.map((p) => [`${ALGO(algorithm)} (this run), step ${p.step}`, p.tokens, p.pass]), ...theirs.flatMap((o) => o.points.map((p) => [`${o.name}, step ${p.step}`, p.tokens, p.pass])), ...(bon ?? []).map((p) => [`best-of-${p.n} on the base`, p.tokens, p.pass])] as [string, number, number][];
  const footer = (
    <details className="note"><summary>The points as numbers</summary>
      <table className="answers" data-testid="tokens-table"><thead><tr><th>point</th><th>generated tokens</th><th>held-out pass (sampled): pass@1 trained, pass@N best-of-N</th></tr></thead>
        <tbody>{rows.map(([w, t, p]) => <tr key={w}><td>{w}</td><td>{Math.round(t).toLocaleString('en')}</td><td>{p.toFixed(3)}</td></tr>)}</tbody></table>
    </details>
  );
  const body = useMemo(() => (
    <Sized>
      <ComposedChart margin={{ ...margin, top: 4, bottom: 18, right: 24, left: 8 }}>
        {grid}
        <XAxis dataKey="tokens" type="number" scale="log" domain={axis.domain} ticks={axis.ticks} tickFormatter={tokensLabel} tick={AXIS} allowDataOverflow label={{ value: `generated tokens for ${Q.toLocaleString('en')} questions (log scale)`, position: 'insideBottom', offset: -14, fontSize: 14, fill: '#111' }} />
        <YAxis dataKey="pass" domain={[0, 1]} tick={AXIS} width={62} label={{ value: 'held-out pass (sampled)', angle: -90, position: 'insideLeft', offset: 0, fontSize: 14, fill: '#111', style: { textAnchor: 'middle' } }} />
        <ChartTooltip content={tip} />
        <Legend verticalAlign="top" wrapperStyle={{ fontSize: 14, paddingBottom: 6 }} />
        <Scatter data={mine} dataKey="pass" name={`${ALGO(algorithm)}, this run: ${HELDOUT_PASS1}`} fill={C.blue} legendType="circle" line={{ stroke: C.blue, strokeWidth: 2.5 }} isAnimationActive={false} />
        {theirs.map((o, i) => <Scatter key={o.run.id} data={o.points} dataKey="pass" name={`${o.name}: ${HELDOUT_PASS1}`} fill={C.vermillion} shape={OVERLAY_SHAPES[i % 3]} legendType={OVERLAY_SHAPES[i % 3]} line={{ stroke: C.vermillion, strokeWidth: 2, strokeDasharray: o.dash }} isAnimationActive={false} />)}
        {bon && (
          <Scatter data={bon} dataKey="pass" name="best-of-N on the base: held-out pass@N (sampled)" fill={C.black} shape="diamond" legendType="diamond" line={{ stroke: C.black, strokeWidth: 2, strokeDasharray: '2 3' }} isAnimationActive={false}>
            <LabelList dataKey="label" position="top" fontSize={13} fill="#000" />
          </Scatter>
        )}
      </ComposedChart>
    </Sized>
  ), [mine, theirs, bon, axis, Q, algorithm]);
  return (
    <ChartCard id="tokens" view={view} title="Baselines at matched tokens" question={`What does each accuracy cost to serve ${Q.toLocaleString('en')} questions? Training (GRPO or RFT): its rollouts' tokens once, then one answer a question, ${HELDOUT_PASS1}. Best-of-N on the base: N answers a question, held-out pass@N (sampled) — it assumes a perfect verifier picks the right one, and counts no verification cost. Up and left is better.`} points={mine.length + (bon?.length ?? 0)} controls={controls} footer={footer} height={320}>
      {body}
    </ChartCard>
  );
}

