/// <reference types="vite-plugin-pwa/vanillajs" />
/**
 * Offline after the first visit (production build only): registers the Workbox service worker
 * that vite-plugin-pwa generates (vite.config.ts), which precaches the app, the shipped
 * checkpoints and the task specs. Update mode 'prompt': a newly deployed version installs beside
 * the running one and waits; the page says so once (src/ui/UpdateNotice.tsx) and the reload the
 * reader chooses switches every file at once, so a page never mixes two versions' files.
 *
 * Accepted in one tab, the new worker takes over every tab of the lab this browser has open,
 * and each reloads (vite-plugin-pwa's registerSW: on Workbox's 'controlling', our onNeedReload).
 * No reload the lab triggers loses a step: the run is saved first, through autosave (the same
 * saved run a reload offers back), and a run in progress is paused and saved at the end of the
 * step in progress — never mid-step. A tab whose run could not be saved does not reload by
 * itself: it says so and offers Reload.
 *
 * Workbox manages only its own Cache Storage entries (workbox-precache-…): an update never
 * touches IndexedDB (saved runs, own tasks) or localStorage.
 *
 * Every failure is one sentence for the page, never an exception: the lab runs on without
 * offline use (a browser that refuses service workers, a full storage quota, a half-installed
 * worker that goes redundant).
 */

export interface OfflineState {
  /** the sentence on the page, or null */
  sentence: string | null;
  /** a new version is installed and waiting: the page offers a reload */
  updateWaiting: boolean;
  /** the precache is complete: the next visit works without a network */
  offlineReady: boolean;
}

/** What a reload the lab triggers does first, and the reload itself (a test's stand-in). */
export interface ReloadHooks {
  /** Save the run, at the end of the step in progress if one is open; false when the save failed. */
  beforeReload?: () => Promise<boolean>;
  reloadPage?: () => void;
}

export const ACCEPTED_SENTENCE = 'Reloading with the new version as soon as the step in progress ends; the run is saved first.';
export const TAKEN_OVER_SENTENCE = 'The lab was updated in another tab: this tab reloads with the new version as soon as the step in progress ends, and the run is saved first and offered back.';
export const NOT_SAVED_SENTENCE = 'A new version of the lab is ready, but this run could not be saved in this browser (see the notice below), so the page did not reload: export a checkpoint to keep the run, then Reload.';

/** The service worker's state as the page shows it (a tiny external store for useSyncExternalStore). */
export class OfflineStatus {
  private state: OfflineState = { sentence: null, updateWaiting: false, offlineReady: false };
  private readonly listeners = new Set<() => void>();
  private update: (() => Promise<void>) | null = null;
  private dismissed = false;
  /** The reader pressed Reload in this tab. */
  private accepted = false;
  /** The new worker controls this page already (accepted here or in another tab): only a reload is left to do. */
  private controlled = false;
  /** The save before a reload failed and the reader was told: the next Reload goes without it. */
  private unsavedChosen = false;
  private reloaded = false;

  constructor(private readonly hooks: ReloadHooks = {}) {}

  get = (): OfflineState => this.state;

  subscribe = (f: () => void): (() => void) => {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  };

  set(patch: Partial<OfflineState>): void {
    this.state = { ...this.state, ...patch };
    for (const f of this.listeners) f();
  }

  /** A new version waits: say so once (a dismissed notice stays away for this page's life). */
  needRefresh(update: () => Promise<void>): void {
    this.update = update;
    if (this.dismissed) return;
    this.set({ updateWaiting: true, sentence: 'A new version of the lab is available. Reload to use it; your saved runs and own tasks stay.' });
  }

  /** The reader accepted: the run is saved (a run in progress at the end of its step), then the waiting worker takes over and the page reloads once with the new files. */
  reload(): void {
    if (this.reloaded) return;
    const skipSave = this.unsavedChosen;
    this.unsavedChosen = false;
    this.accepted = true;
    this.set({ updateWaiting: false, sentence: ACCEPTED_SENTENCE });
    void (async () => {
      if (!skipSave && !(await this.save())) return this.notSaved();
      const update = this.update;
      if (this.controlled || !update) return this.reloadPage();
      // a page the old worker controls reloads on its 'controlling' event (vite-plugin-pwa's registerSW → takenOver);
      // a page opened before any worker controlled it (the first visit) gets no such event: reload once the new one is active
      const sw = navigator.serviceWorker;
      if (!sw.controller) {
        void sw.getRegistration().then((reg) => {
          const w = reg?.waiting;
          if (!w) { this.reloadPage(); return; }
          w.addEventListener('statechange', () => { if (w.state === 'activated') this.reloadPage(); });
        });
      }
      await update().catch(() => this.reloadPage());
    })();
  }

  /**
   * The new worker took this page over (registerSW's onNeedReload, on Workbox's 'controlling'):
   * the reader accepted here, or in another tab of the lab. The run is saved at the end of the
   * step in progress, then the page reloads, so it never runs on with files the new worker no
   * longer keeps. Said on the page meanwhile.
   */
  takenOver(): void {
    this.controlled = true;
    if (this.reloaded) return;
    if (!this.accepted) this.set({ updateWaiting: false, sentence: TAKEN_OVER_SENTENCE });
    void (async () => {
      if (await this.save()) this.reloadPage();
      else this.notSaved();
    })();
  }

  private async save(): Promise<boolean> {
    try {
      return (await this.hooks.beforeReload?.()) ?? true;
    } catch {
      return false;
    }
  }

  private notSaved(): void {
    this.unsavedChosen = true; // the reader now knows: Reload goes without the save
    this.set({ updateWaiting: true, sentence: NOT_SAVED_SENTENCE });
  }

  /** The one reload the lab triggers (once). */
  private reloadPage(): void {
    if (this.reloaded) return;
    this.reloaded = true;
    (this.hooks.reloadPage ?? (() => location.reload()))();
  }

  dismiss(): void {
    this.dismissed = true;
    this.set({ updateWaiting: false, sentence: null });
  }
}

const short = (e: unknown) => {
  const name = (e as { name?: string } | null)?.name;
  const msg = ((e as { message?: string } | null)?.message ?? String(e)).slice(0, 100);
  return name && name !== 'Error' ? `${name}: ${msg}` : msg;
};

/** The sentence for a registration that failed (`e`), or a worker whose install gave up. */
export function offlineFailureSentence(e: unknown): string {
  if (e === null) return 'The lab could not be stored in this browser for offline use (the browser\'s storage may be full): it runs, but needs the network on the next visit.';
  if (/quota/i.test(short(e))) return 'The browser\'s storage for this site is full, so the lab could not be stored for offline use: it runs, but needs the network on the next visit.';
  return `Offline use is not available in this browser (${short(e)}): the lab runs, but needs the network on each visit.`;
}

/** Watch an installing worker: one that goes redundant with no other in line (a failed precache: quota, a file that would not download) is said once. */
function watchInstall(reg: ServiceWorkerRegistration, status: OfflineStatus): void {
  const watch = (w: ServiceWorker | null) => {
    w?.addEventListener('statechange', () => {
      if (w.state === 'redundant' && !reg.installing && !reg.waiting && !status.get().updateWaiting && reg.active !== w) status.set({ sentence: offlineFailureSentence(null) });
    });
  };
  watch(reg.installing);
  reg.addEventListener('updatefound', () => watch(reg.installing));
}

/** Register the service worker (production build only; the dev server, and the build the browser tests open the lab from, never have one). */
export function startServiceWorker(status: OfflineStatus): void {
  if (!import.meta.env.PROD || import.meta.env.VITE_RLVR_E2E_BUILD) return;
  if (typeof window !== 'undefined' && !window.isSecureContext) {
    status.set({ sentence: 'This page is not served over HTTPS (or from localhost), so the browser allows no offline use and no WebGPU: the lab runs on the CPU reference and needs the network on each visit.' });
    return;
  }
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return; // a browser without them: the lab runs, online only
  import('virtual:pwa-register').then(({ registerSW }) => {
    const update = registerSW({
      immediate: true,
      onNeedRefresh: () => status.needRefresh(update),
      onNeedReload: () => status.takenOver(), // instead of registerSW's own location.reload(): the run is saved first
      onOfflineReady: () => status.set({ offlineReady: true }),
      onRegisteredSW: (_url, reg) => { if (reg) watchInstall(reg, status); },
      onRegisterError: (e) => status.set({ sentence: offlineFailureSentence(e) }),
    });
  }).catch((e: unknown) => status.set({ sentence: offlineFailureSentence(e) }));
}
