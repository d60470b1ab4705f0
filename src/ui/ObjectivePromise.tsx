/**
 * The update phase's promise table: what GRPO promises — the surrogate objective
 * J = Σ w·A·Δ log π rises along this batch's gradient, by s·‖g‖ to first order — beside the counts
 * of single answers that moved the way their A asks, after AdamW's step, this batch's gradient
 * alone, and that step 10× shorter (src/rl/inspection.ts: ObjectiveRise). The numbers are the
 * step-through's own, computed when the update was inspected.
 */
import { SHORT_STEP, type PushCounts, type StepGeometry } from '../rl/inspection.ts';
import { signed } from '../rl/format.ts';

/** A small signed number with three significant digits (J is a weighted mean: 0.004, not 0.000). */

export function ObjectivePromise({ counts, geo }: { counts: PushCounts; geo: StepGeometry | null | undefined }) {
  const J = geo?.objective;
  if (!J || !counts.gradientAlone) return null;
  const rows = [
    { id: 'applied', step: "AdamW's step (applied)", j: J.applied, pred: null, c: counts.applied },
    { id: 'alone', step: "this batch's gradient alone", j: J.gradientAlone, pred: J.predictedAlone, c: counts.gradientAlone },
    { id: 'short', step: `the same, ${SHORT_STEP}× shorter`, j: J.gradientShort, pred: J.predictedShort, c: counts.gradientShort },
  ];
  const withPred = rows.some((r) => r.pred !== null);
  const fallShort = counts.gradientShort ? counts.positive - counts.gradientShort.up : 0;
  return (
    <div className="objective-promise" data-testid="objective-promise">
      <table className="answers">
        <thead>
          <tr><th>step</th><th>J = Σ w·A·Δ log π</th>{withPred && <th title="A step −s·g/‖g‖ changes the loss by −s·‖g‖ to first order">predicted to first order: s·‖g‖</th>}<th>A &gt; 0 made more likely</th><th>A &lt; 0 made less likely</th></tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-testid={`promise-${r.id}`}>
              <td>{r.step}</td>
              <td className="num" data-testid={`promise-${r.id}-sum`} style={{ fontWeight: 600 }}>{signed(r.j, 3, 'precision')} {r.j > 0 ? '✓' : '✗'}</td>
              {withPred && <td className="num">{r.pred === null ? '' : signed(r.pred, 3, 'precision')}</td>}
              <td className="num" data-testid={`promise-${r.id}-up`}>{r.c ? `${r.c.up} of ${counts.positive}` : '–'}</td>
              <td className="num">{r.c ? `${r.c.down} of ${counts.negative}` : '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="note" data-testid="promise-why">
        GRPO promises only this sum, and only to first order: each answer moves by how far its own gradient agrees with the whole batch's, and answers that share weights and tokens disagree{fallShort > 0 ? ` — here ${fallShort} of the ${counts.positive} with A > 0 still fall at the ${SHORT_STEP}× shorter step` : ''}.
      </p>
    </div>
  );
}
