/**
 * Finishing the autotune in the lab's idle time. The self-check's tune has a budget (autotune.ts:
 * 2 s of timing on a CPU adapter), and one cut short is cached as unfinished; rather than leave the
 * rest to the next visit, the lab times it while nobody uses the engine: once the lab has been idle
 * for `delayMs` (no load, step, step-through, profiler or cold start: LabSession's idle), one slice
 * runs (the engine keeper's: one family at most, a short budget, autotune.ts tuneSlice), then the
 * tuner yields — the next slice waits `gapMs` more of idle time, the full `delayMs` once the lab was
 * busy. One slice at a time; a step waits for the one under way (quiet), never runs beside it (the
 * WebGPU worker's gate holds the engine for the slice: src/worker/engineGate.ts). The run's kernel
 * forms do not change: the choice is taken when the next run starts (src/lab/engine.ts fitRows).
 */

export interface IdleTuneHost {
  /** Nobody uses the engine now: no load, step, step-through, profiler, cold start, hand-over or recovery. */
  idle(): boolean;
  /** One slice of the unfinished tune; true when more is left to time. */
  slice(): Promise<boolean>;
}

export interface IdleTuneTiming {
  /** Idle time before the first slice (and after any busy moment), ms. */
  delayMs: number;
  /** Idle time between two slices, ms. */
  gapMs: number;
  /** How often idleness is looked at, ms. */
  pollMs: number;
}

export const IDLE_TUNE: IdleTuneTiming = { delayMs: 3000, gapMs: 250, pollMs: 250 };

export class IdleTuner {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Since when the lab has been idle (null: busy at the last look). */
  private idleSince: number | null = null;
  private running: Promise<void> | null = null;
  /** Bumped by stop(): a slice that ends after it does not schedule another. */
  private generation = 0;
  /** Slices run (a debug figure). */
  slices = 0;

  constructor(private readonly host: IdleTuneHost, private readonly timing: IdleTuneTiming = IDLE_TUNE, private readonly now: () => number = () => Date.now()) {}

  /** There may be a tune to finish: watch for idle time, until a slice says nothing is left (or stop). */
  wake(): void {
    if (!this.timer && !this.running) this.schedule(this.timing.pollMs);
  }

  /** Stop watching (a new run, a lost device); a slice under way still ends (quiet waits for it). */
  stop(): void {
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.idleSince = null;
  }

  /** The slice under way, if any, is over. */
  async quiet(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Whether a slice is under way. */
  get busy(): boolean {
    return this.running !== null;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => { this.timer = null; this.look(); }, ms);
  }

  private look(): void {
    if (!this.host.idle()) {
      this.idleSince = null;
      return this.schedule(this.timing.pollMs);
    }
    const t = this.now();
    this.idleSince ??= t;
    if (t - this.idleSince < this.timing.delayMs) return this.schedule(Math.min(this.timing.pollMs, this.timing.delayMs - (t - this.idleSince)));
    const generation = this.generation;
    this.slices++;
    this.running = this.host.slice().catch(() => false).then((more) => {
      this.running = null;
      if (!more || generation !== this.generation) return;
      this.idleSince = this.now() - this.timing.delayMs + this.timing.gapMs; // yield: the next slice after gapMs more of idle time
      this.schedule(this.timing.gapMs);
    });
  }
}
