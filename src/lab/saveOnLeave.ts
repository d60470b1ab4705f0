/**
 * The run is saved before the page goes, through autosave (lab/autosave.ts: the one saved run a
 * reload brings back, lab/comeBack.ts). Autosave saves after every step (SAVE_EVERY); these save
 * the step in progress too, once it ends, and a write asked for since the last one landed:
 * - before a reload the lab triggers (a new version accepted here or in another tab:
 *   lab/serviceWorker.ts), the run is paused and saved at the end of the step in progress;
 * - when the tab is hidden (visibilitychange → hidden: switched away, minimised, about to close)
 *   and when it goes (pagehide), the run is saved as it is, or at the end of the step in progress.
 *   A page being closed may not finish writing; the hidden tab's save, which comes first, has time.
 */
import type { Autosave } from './autosave.ts';

/** What a reload the lab triggers does first: stop the run at the end of its step and save it. False when the save failed. */
export function saveBeforeReload(session: { pause(): void; autosave: Pick<Autosave, 'flush'> }): () => Promise<boolean> {
  return () => {
    session.pause(); // a running loop finishes the step in progress and starts no other
    return session.autosave.flush();
  };
}

/** Save when the tab is hidden or goes. Returns the function that stops listening. */
export function saveWhenHidden(doc: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>, win: Pick<Window, 'addEventListener' | 'removeEventListener'>, autosave: Pick<Autosave, 'flush'>): () => void {
  const hidden = () => { if (doc.visibilityState === 'hidden') void autosave.flush(); };
  const gone = () => { void autosave.flush(); };
  doc.addEventListener('visibilitychange', hidden);
  win.addEventListener('pagehide', gone);
  return () => {
    doc.removeEventListener('visibilitychange', hidden);
    win.removeEventListener('pagehide', gone);
  };
}
