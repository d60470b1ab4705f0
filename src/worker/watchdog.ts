/**
 * A worker that dies silently (stopped by the browser without an error, stuck in a loop): its
 * calls never answer, so no error event tells the page. The watchdog pings it every `periodMs`
 * and calls `onSilent` once when a ping has had no answer for `limitMs`. A ping waits behind
 * the worker's current task, so the limit is far above the longest task a worker runs at the
 * lab's sizes (a shard's forward, the self-check's CPU reference: a second or two here).
 */

/** How long a worker may leave a ping unanswered before it counts as dead (a test may lower it: debugHooks). */
export const watchdogLimits = { limitMs: 30_000, periodMs: 1_000 };

export interface Watchdog { stop(): void }

export function watchWorker(ping: () => Promise<unknown>, onSilent: (silentMs: number) => void): Watchdog {
  let waitingSince: number | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (stopped) return;
    const now = performance.now();
    if (waitingSince === null) {
      waitingSince = now;
      ping().then(() => { waitingSince = null; }, () => { /* the worker's own failure is reported elsewhere */ });
    } else if (now - waitingSince > watchdogLimits.limitMs) {
      stopped = true;
      clearInterval(timer);
      onSilent(now - waitingSince);
    }
  }, watchdogLimits.periodMs);
  return { stop: () => { stopped = true; clearInterval(timer); } };
}
