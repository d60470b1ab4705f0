/**
 * Coming back after a reload (issue 48, "nothing lost"). Before the page loads a run it reads this
 * browser's saved run (autosave.ts, saved after every step) and its runs list (runsList.ts). On a
 * lesson's page the saved run of that lesson variant on this seed is resumed at once, without a
 * button — its steps, frozen verdict and contrast — and one sentence in a student's words says
 * which of the lesson's runs came back and where each stands (store/comeBackWords.ts), until the
 * next step. The newest
 * run of the lesson in the list is overlaid again where it is comparable (the comparison the card
 * showed before the reload). Any other saved run — another lesson's, another variant's or seed's,
 * or one outside the lessons — is not resumed: it is offered in words that name its lesson (or
 * say it is outside the lessons), while the page loads its own fresh run.
 */
import type { ValidSavedRun } from '../persist/savedRun.ts';
import { comeBackSentence, savedRunOffer } from '../store/comeBackWords.ts';
import type { LabState } from '../store/labStore.ts';
import type { Autosave } from './autosave.ts';

export interface ComeBackHost {
  get(): LabState;
  set(patch: Partial<LabState>): void;
  subscribe(listener: (now: LabState, prev: LabState) => void): () => void;
  autosave: Pick<Autosave, 'find' | 'offer' | 'take'>;
  /** Read the runs list kept in this browser into the store. */
  restoreRuns(): Promise<void>;
  /** Stop the page's run and wait for its load (before an offered run replaces it). */
  settle(): Promise<void>;
  /** Load a run: this saved one (its page, settings and imported base with it), or a fresh one of the page's settings (null). */
  load(run: ValidSavedRun | null): Promise<void>;
}

/** The saved run is this page's own: the page shows a lesson, and the run is of that lesson's variant on this seed. */
export function ownRun(rec: Pick<ValidSavedRun['record'], 'page' | 'settings'>, s: Pick<LabState, 'lessonId' | 'lessonVariant' | 'settings'>): boolean {
  return s.lessonId !== null && rec.page.lessonId === s.lessonId && rec.page.lessonVariant === s.lessonVariant && rec.settings.seed === s.settings.seed;
}

export class ComeBack {
  constructor(private readonly host: ComeBackHost) {}

  /** At start-up: resume the page's own saved run or load a fresh one (offering any other saved run in words), and say what came back. */
  async start(): Promise<void> {
    const [saved] = await Promise.all([this.host.autosave.find(), this.host.restoreRuns()]);
    const s = this.host.get();
    const own = saved !== null && ownRun(saved.record, s) ? saved : null;
    if (saved && !own) {
      const r = saved.record;
      this.host.autosave.offer(saved, savedRunOffer({ settings: r.settings, page: r.page, step: r.trainer.step, savedAt: r.savedAt, verdict: r.verdict ?? null, model: saved.checkpoint.config }, s.lessonId));
    }
    // the lesson's newest run in the list: the load keeps it overlaid if comparable, else the newest comparable one (overlays.ts nextOverlayId)
    const sibling = s.lessonId === null ? undefined : s.runs.find((r) => r.origin.lessonId === s.lessonId);
    if (sibling && s.overlayRunId === null) this.host.set({ overlayRunId: sibling.id });
    const loaded = this.host.load(own); // its first write clears the page's last sentence
    const said = s.lessonId === null ? null : comeBackSentence(s.lessonId, s.runs, own && { variant: own.record.page.lessonVariant, verdict: own.record.verdict ?? null, steps: own.record.trainer.step });
    if (said) this.host.set({ cameBack: said });
    await loaded;
    if (said) { // said of the runs as they came back: the next step (or a new run's load) takes it away
      const off = this.host.subscribe((now, prev) => { if (now.cameBack !== said) off(); else if (now.stepsCompleted !== prev.stepsCompleted) { off(); this.host.set({ cameBack: null }); } });
    }
  }

  /** "Resume it": the offered run replaces the page's (null: none offered). */
  async resumeOffered(): Promise<void> {
    const run = this.host.autosave.take();
    if (!run) return;
    await this.host.settle();
    await this.host.load(run);
  }
}
