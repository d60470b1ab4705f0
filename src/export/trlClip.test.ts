/**
 * One ε, TRL's, at both ratio levels. TRL's GRPOTrainer (huggingface/trl trl/trainer/grpo_trainer.py):
 *   __init__       self.epsilon_low = args.epsilon
 *                  self.epsilon_high = args.epsilon_high if args.epsilon_high is not None else args.epsilon
 *   _compute_loss  log_ratio = per_token_logps − old_per_token_logps
 *                  token:    log_importance_weights = log_ratio
 *                  sequence: log_importance_weights = (log_ratio * mask).sum(-1) / mask.sum(-1).clamp(min=1.0), unsqueezed
 *                  coef_1 = exp(log_importance_weights); coef_2 = clamp(coef_1, 1 − epsilon_low, 1 + epsilon_high)
 *                  per_token_loss = −min(coef_1 · A, coef_2 · A); grpo: per-sequence token mean, then the batch mean
 * and GRPOConfig's epsilon defaults to 0.2 (trl/trainer/grpo_config.py). So the sequence ratio clips
 * at [1 − ε, 1 + ε_high] exactly as the token ratio does; the lab now does the same wherever a TRL
 * name is given (CLI flags, settings files, the export), and only the page's ratio-level control
 * applies GSPO's preset 3e-4 / 4e-4 (settings.ts withSetting).
 */
import { describe, expect, it } from 'vitest';
import type { PolicyLossSettings } from '../model/backend.ts';
import { policyObjective } from '../model/objective.ts';
import { Rng } from '../model/rng.ts';
import { parseSettingsFile } from '../persist/settingsFile.ts';
import { clipRange } from '../rl/lossSpec.ts';
import { groupAdvantages, type ScaleRewards } from '../rl/advantages.ts';
import { defaultSettings, GSPO_CLIP, withSetting, type Settings } from '../rl/settings.ts';
import { exportSettings, parseExportArgs } from '../../scripts/export.ts';
import { grpoConfigMapping } from './grpoConfig.ts';

type Kwargs = { epsilon?: number; epsilon_high?: number; importance_sampling_level: 'token' | 'sequence' };
type Clip = { epsilon: number; epsilonHigh: number };

/** TRL's clip range for GRPOConfig(**kwargs): the same at both levels. */
function trlClip(kw: { epsilon?: number; epsilon_high?: number }): Clip {
  const low = kw.epsilon ?? 0.2;
  return { epsilon: low, epsilonHigh: kw.epsilon_high ?? low };
}

/** The lab's settings from the kwargs given as CLI flags (npm run export / npm run train: settingFromFlag + epsilonHighFollows). */
function fromFlags(kw: Kwargs): Settings {
  const argv = ['--out', '/nonexistent', '--importance_sampling_level', kw.importance_sampling_level];
  if (kw.epsilon !== undefined) argv.push('--epsilon', String(kw.epsilon));
  if (kw.epsilon_high !== undefined) argv.push('--epsilon_high', String(kw.epsilon_high));
  return exportSettings(parseExportArgs(argv), undefined, undefined, []);
}

/** The lab's settings from a settings file naming the same values. */
function fromFile(kw: Kwargs): Settings {
  const settings: Record<string, unknown> = { importanceSamplingLevel: kw.importance_sampling_level };
  if (kw.epsilon !== undefined) settings.epsilon = kw.epsilon;
  if (kw.epsilon_high !== undefined) settings.epsilonHigh = kw.epsilon_high;
  const r = parseSettingsFile('s.json', new TextEncoder().encode(JSON.stringify({ format: 'rlvr-lab-settings', version: 1, settings })));
  if (!r.ok) throw new Error(r.error);
  return r.settings;
}

/** What TRL does with the export's GRPOConfig keywords. */
function exportedClip(s: Settings): Clip {
  const arg = (k: string) => grpoConfigMapping(s).args.find((a) => a.key === k)?.value;
  return trlClip({ epsilon: Number(arg('epsilon')), epsilon_high: arg('epsilon_high') === undefined ? undefined : Number(arg('epsilon_high')) });
}

const KWARGS: Kwargs[] = (['token', 'sequence'] as const).flatMap((level) => [
  { importance_sampling_level: level },
  { importance_sampling_level: level, epsilon: 0.1 },
  { importance_sampling_level: level, epsilon: 0.3 },
  { importance_sampling_level: level, epsilon: 0.1, epsilon_high: 0.28 },
  { importance_sampling_level: level, epsilon: 3e-4, epsilon_high: 4e-4 },
]);

const show = (c: Clip) => `[${+(1 - c.epsilon).toFixed(6)}, ${+(1 + c.epsilonHigh).toFixed(6)}]`;
const kwText = (kw: Kwargs) => [kw.epsilon !== undefined ? `epsilon=${kw.epsilon}` : 'epsilon not given', ...(kw.epsilon_high !== undefined ? [`epsilon_high=${kw.epsilon_high}`] : [])].join(', ');

/** The table of the README's TRL section: TRL kwargs → the clip range the lab uses and TRL's. */
const TABLE: [string, string, string, string][] = [
  ['epsilon not given', 'token', '[0.8, 1.2]', '[0.8, 1.2]'],
  ['epsilon=0.1', 'token', '[0.9, 1.1]', '[0.9, 1.1]'],
  ['epsilon=0.3', 'token', '[0.7, 1.3]', '[0.7, 1.3]'],
  ['epsilon=0.1, epsilon_high=0.28', 'token', '[0.9, 1.28]', '[0.9, 1.28]'],
  ['epsilon=0.0003, epsilon_high=0.0004', 'token', '[0.9997, 1.0004]', '[0.9997, 1.0004]'],
  ['epsilon not given', 'sequence', '[0.8, 1.2]', '[0.8, 1.2]'],
  ['epsilon=0.1', 'sequence', '[0.9, 1.1]', '[0.9, 1.1]'],
  ['epsilon=0.3', 'sequence', '[0.7, 1.3]', '[0.7, 1.3]'],
  ['epsilon=0.1, epsilon_high=0.28', 'sequence', '[0.9, 1.28]', '[0.9, 1.28]'],
  ['epsilon=0.0003, epsilon_high=0.0004', 'sequence', '[0.9997, 1.0004]', '[0.9997, 1.0004]'],
];

describe('the clip range: TRL kwargs → the lab (flags, settings file, export) and TRL', () => {
  it('the table: the lab clips where TRL does, at the token and the sequence level', () => {
    const rows = KWARGS.map((kw) => {
      const flags = clipRange(fromFlags(kw));
      const file = clipRange(fromFile(kw));
      const exported = exportedClip(fromFlags(kw));
      expect(file, `settings file, ${kwText(kw)}`).toEqual(flags);
      expect(exported, `export, ${kwText(kw)}`).toEqual(trlClip(kw));
      return [kwText(kw), kw.importance_sampling_level, show(flags), show(trlClip(kw))] as [string, string, string, string];
    });
    console.log(`| TRL kwargs | importance_sampling_level | the lab clips at | TRL clips at |\n|---|---|---|---|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}`);
    expect(rows).toEqual(TABLE);
  });

  it('a flag naming the sequence level without ε says the clip in effect (TRL\'s 0.2), not GSPO\'s', () => {
    const notices: string[] = [];
    exportSettings(parseExportArgs(['--out', '/nonexistent', '--importance_sampling_level', 'sequence']), undefined, undefined, notices);
    expect(notices).toEqual(['--importance_sampling_level sequence without --epsilon: the sequence ratio clips at [1 − 0.2, 1 + 0.2], as TRL\'s does; GSPO\'s paper uses --epsilon 3e-4 --epsilon_high 4e-4']);
    const quiet: string[] = [];
    exportSettings(parseExportArgs(['--out', '/nonexistent', '--importance_sampling_level', 'sequence', '--epsilon', '3e-4', '--epsilon_high', '4e-4']), undefined, undefined, quiet);
    expect(quiet).toEqual([]);
  });

  it('the page\'s GSPO preset: choosing the sequence level sets 3e-4 / 4e-4; back to token from it restores 0.2 / 0.2; a changed ε stays', () => {
    const d = defaultSettings();
    const seq = withSetting(d, 'importanceSamplingLevel', 'sequence');
    expect(clipRange(seq)).toEqual(GSPO_CLIP);
    expect(clipRange(withSetting(seq, 'importanceSamplingLevel', 'token'))).toEqual({ epsilon: 0.2, epsilonHigh: 0.2 });
    const tuned = withSetting({ ...seq, epsilon: 1e-3 }, 'importanceSamplingLevel', 'token');
    expect(clipRange(tuned)).toEqual({ epsilon: 1e-3, epsilonHigh: 4e-4 });
    expect(withSetting(d, 'beta', 0.1)).toEqual({ ...d, beta: 0.1 });
  });

  it('an older lab\'s file (gspoEpsilon / gspoEpsilonHigh) keeps the clip its run had, and says so', () => {
    const old = (level: string) => parseSettingsFile('old.json', new TextEncoder().encode(JSON.stringify({ format: 'rlvr-lab-settings', version: 1, settings: { ...defaultSettings(), importanceSamplingLevel: level, gspoEpsilon: 3e-4, gspoEpsilonHigh: 4e-4 } })));
    const seq = old('sequence');
    expect(seq.ok && clipRange(seq.settings)).toEqual({ epsilon: 3e-4, epsilonHigh: 4e-4 });
    expect(seq.ok && seq.notices.join(' ')).toMatch(/gspoEpsilon 0.0003 read as epsilon/);
    const tok = old('token');
    expect(tok.ok && clipRange(tok.settings)).toEqual({ epsilon: 0.2, epsilonHigh: 0.2 });
    expect(tok.ok && tok.notices.join(' ')).toMatch(/ignored gspoEpsilon/);
  });
});

/**
 * TRL's advantages (GRPOTrainer._generate_and_score_completions) transcribed: the group mean, then
 * torch's std — Bessel-corrected, n − 1 — of each group (scale_rewards "group") or of the whole
 * batch ("batch"), and (r − mean_group) / (std + 1e-4); "none" does not divide.
 */
function trlAdvantages(rewards: number[], G: number, scale: ScaleRewards): number[] {
  const torchStd = (xs: number[]) => { const m = xs.reduce((a, b) => a + b, 0) / xs.length; return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1)); };
  const batchStd = torchStd(rewards);
  return rewards.map((r, i) => {
    const group = rewards.slice(i - (i % G), i - (i % G) + G);
    const centred = r - group.reduce((a, b) => a + b, 0) / G;
    return scale === 'none' ? centred : centred / ((scale === 'batch' ? batchStd : torchStd(group)) + 1e-4);
  });
}

describe('the lab\'s advantages are TRL\'s (scale_rewards group / batch / none, torch\'s std)', () => {
  it('random pass/fail and format rewards, G = 2, 3, 4, 8: |Δ A| < 1e-12', () => {
    const rng = new Rng(42);
    let worst = 0;
    for (const G of [2, 3, 4, 8]) {
      for (const scale of ['group', 'batch', 'none'] as const) {
        for (let rep = 0; rep < 20; rep++) {
          const rewards = Array.from({ length: 4 * G }, () => [0, 0.1, 1][Math.floor(3 * rng.next())]);
          const lab = groupAdvantages(rewards, G, 'grpo', scale);
          trlAdvantages(rewards, G, scale).forEach((a, i) => { worst = Math.max(worst, Math.abs(a - lab[i])); });
        }
      }
    }
    expect(worst).toBeLessThan(1e-12);
    // the chapter's hand example with TRL's std: [1, 0, 1, 0] → ±0.5 / (√(1/3) + 1e-4)
    expect(groupAdvantages([1, 0, 1, 0], 4, 'grpo')[0]).toBeCloseTo(0.5 / (Math.sqrt(1 / 3) + 1e-4), 12);
  });
});

/** TRL's _compute_loss (loss_type "grpo", β = 0) transcribed, for one batch: the loss. */
function trlLoss(B: number, T: number, logp: number[], old: number[], mask: number[], A: number[], level: 'token' | 'sequence', clip: Clip): number {
  let total = 0;
  for (let b = 0; b < B; b++) {
    let n = 0, seq = 0;
    for (let t = 0; t < T; t++) { n += mask[b * T + t]; seq += (logp[b * T + t] - old[b * T + t]) * mask[b * T + t]; }
    const sRatio = Math.exp(seq / Math.max(1, n));
    let sum = 0;
    for (let t = 0; t < T; t++) {
      const c1 = level === 'sequence' ? sRatio : Math.exp(logp[b * T + t] - old[b * T + t]);
      const c2 = Math.min(Math.max(c1, 1 - clip.epsilon), 1 + clip.epsilonHigh);
      sum += -Math.min(c1 * A[b], c2 * A[b]) * mask[b * T + t];
    }
    total += sum / Math.max(1, n);
  }
  return total / B;
}

describe('the lab\'s objective is TRL\'s _compute_loss, loss and gradient, at the clip range a TRL name gives', () => {
  it('random batches at both levels, ε not given / 0.1 / 0.3 / 3e-4, advantages from the rewards each side: |Δ loss| and |Δ gradient| < 1e-8', () => {
    const rng = new Rng(29);
    let worst = 0, worstOld = 0, batches = 0;
    for (const kw of KWARGS) {
      for (let rep = 0; rep < 5; rep++) {
        const B = 6, T = 5, N = B * T;
        const mask = Array.from({ length: N }, (_, i) => (i % T < 1 + ((i / T) | 0) % T ? 1 : 0));
        const logp = Array.from({ length: N }, () => -0.2 - 2 * rng.next());
        const old = logp.map((l) => l + 0.6 * (rng.next() - 0.5));
        // two groups of G = 3 answers; each side computes its own advantages from the same rewards
        const rewards = Array.from({ length: B }, () => [0, 0.1, 1][Math.floor(3 * rng.next())]);
        const s = fromFlags(kw);
        const A = groupAdvantages(rewards, 3, 'grpo', s.scaleRewards);
        const spec: PolicyLossSettings = { ...clipRange(s), beta: 0, klEstimator: 'k3', lossType: 'grpo', importanceSamplingLevel: s.importanceSamplingLevel, entropyCoef: 0, maxCompletionLength: T, temperature: 1 };
        const lab = policyObjective({ B, T, logprobs: logp, entropy: new Float64Array(N), mask, oldLogprobs: old, refLogprobs: null, advantages: A }, spec);
        const trl = (lp: number[]) => trlLoss(B, T, lp, old, mask, trlAdvantages(rewards, 3, s.scaleRewards), kw.importance_sampling_level, trlClip(kw));
        const h = 1e-6;
        let diff = Math.abs(lab.loss - trl(logp));
        const grad: number[] = [];
        for (let i = 0; i < N; i++) {
          const up = [...logp]; up[i] += h;
          const dn = [...logp]; dn[i] -= h;
          grad.push((trl(up) - trl(dn)) / (2 * h));
          diff = Math.max(diff, Math.abs(grad[i] - lab.gradLogprob[i]));
        }
        worst = Math.max(worst, diff);
        // the old rule (GSPO's own 3e-4 / 4e-4 whatever ε): how far it was from TRL's gradient on the same batch
        if (kw.importance_sampling_level === 'sequence' && kw.epsilon !== 3e-4) {
          const oldRule = policyObjective({ B, T, logprobs: logp, entropy: new Float64Array(N), mask, oldLogprobs: old, refLogprobs: null, advantages: A }, { ...spec, ...GSPO_CLIP });
          const norm = Math.hypot(...grad);
          worstOld = Math.max(worstOld, Math.hypot(...grad.map((g, i) => g - oldRule.gradLogprob[i])) / Math.max(norm, 1e-12));
        }
        batches++;
      }
    }
    console.log(`${batches} random batches: worst |lab − TRL| over loss and gradient ${worst.toExponential(2)}; the old sequence-level rule (3e-4 / 4e-4 whatever ε) was off TRL's gradient by up to ${(100 * worstOld).toFixed(0)} % (relative norm)`);
    expect(worst).toBeLessThan(1e-8);
    expect(worstOld).toBeGreaterThan(0.3); // the check can tell the two rules apart
  });
});
