/**
 * Who may use the WebGPU engine at once, in its worker (gpuApi.ts): the page's calls share it (a
 * step's rollout, an evaluation and a weights read may overlap, as before), while an idle-time
 * autotune slice (autotune.ts tuneSlice) has it to itself — it sets kernel forms no run may see and
 * times work that must not share the GPU. The slice waits for the calls under way, and calls that
 * arrive while it runs wait for it: a step pressed then starts once the slice is over, never beside it.
 */
export class EngineGate {
  private inflight = 0;
  private drained: (() => void)[] = [];
  private exclusiveRun: Promise<void> | null = null;
  private waiters = 0;

  /** Whether a slice holds the engine (or waits for the calls under way). */
  get held(): boolean {
    return this.exclusiveRun !== null;
  }

  /** Whether a call waits for the slice (which then ends after its run under way: autotune.ts `stop`). */
  get waiting(): boolean {
    return this.waiters > 0;
  }

  /** A call that shares the engine with other calls (not with a slice). */
  async shared<T>(f: () => T | Promise<T>): Promise<T> {
    if (this.exclusiveRun) {
      this.waiters++;
      try {
        while (this.exclusiveRun) await this.exclusiveRun;
      } finally {
        this.waiters--;
      }
    }
    this.inflight++;
    try {
      return await f();
    } finally {
      if (--this.inflight === 0) for (const r of this.drained.splice(0)) r();
    }
  }

  /** Work that has the engine to itself: after the calls under way, before any that arrive meanwhile. */
  async exclusive<T>(f: () => Promise<T>): Promise<T> {
    while (this.exclusiveRun) await this.exclusiveRun;
    let done!: () => void;
    this.exclusiveRun = new Promise<void>((r) => { done = r; });
    try {
      if (this.inflight > 0) await new Promise<void>((r) => this.drained.push(r));
      return await f();
    } finally {
      this.exclusiveRun = null;
      done();
    }
  }
}
