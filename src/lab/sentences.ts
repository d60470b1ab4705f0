/** What the lab says when an update is rejected or the GPU is lost, in words a student can act on. */
import type { Settings } from '../rl/settings.ts';

/** Step `step` came out NaN/Inf and was rolled back to `applied` steps; the hint names the likely cause. */
export function rejectionSentence(step: number, applied: number, s: Settings): string {
  const hint = s.learningRate >= 3e-3
    ? `The learning rate η = ${s.learningRate} is high for this model: lower it (1e-3 is a safe start), then press Play.`
    : s.maxGradNorm === 0
      ? 'Gradient clipping is off (max_grad_norm = 0): turn it back on (1 is usual) or lower the learning rate, then press Play.'
      : `Usual causes: a learning rate too high (η = ${s.learningRate} now) or weights damaged by an earlier step. Lower η, then press Play.`;
  return `Step ${step} was rejected: its loss or gradient came out NaN/Inf, so the update was not applied and the charts skip it. The weights and optimizer state were rolled back to the last good step (${applied} steps applied) and the run paused. ${hint}`;
}

/** The device was lost and the engine rebuilt from the last completed step. */
export function deviceLostSentence(info: { reason: string; message: string }, completed: number, fellBack: string): string {
  const why = info.message ? `${info.reason}: ${clip(info.message, 100)}` : info.reason;
  return `The GPU device was lost (${why}). The engine was recreated and the weights, optimizer state and reference policy were restored from the last completed step (${completed}); at most the step in progress is redone.${fellBack ? ` ${fellBack}` : ''}`;
}

/** An engine's worker stopped or went silent mid-run (src/worker/): the run went on from its last completed step, as after a lost GPU device. */
export function workerLostSentence(engine: 'cpu' | 'webgpu', completed: number, fellBack: string): string {
  return `${engine === 'cpu' ? 'A background worker of the CPU engine stopped. New workers were started' : "The WebGPU engine's background worker stopped. A new one was started"} and the weights, optimizer state and reference policy were restored from the last completed step (${completed}); at most the step in progress is redone.${fellBack ? ` ${fellBack}` : ''}`;
}

/** A message cut near `n` characters at a word boundary, with an ellipsis: never mid-word. */
export function clip(text: string, n = 160): string {
  if (text.length <= n) return text;
  const cut = text.slice(0, n + 1);
  const at = cut.lastIndexOf(' ');
  return `${(at > n / 2 ? cut.slice(0, at) : text.slice(0, n)).replace(/[\s,;:.]+$/, '')}…`;
}

/**
 * An engine error as a student reads it: the internal function name that prefixes the engine's
 * own messages ("groupAdvantages: …", "trainStep: …") is dropped, and a long message is clipped at
 * a word boundary.
 */
export function engineErrorSentence(e: unknown, n = 160): string {
  const message = e instanceof Error ? e.message : String(e);
  return clip(message.replace(/^[a-z][A-Za-z0-9]*(?: \([^)]*\))?: /, ''), n);
}
