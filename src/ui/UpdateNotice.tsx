/**
 * The service worker's one sentence (src/lab/serviceWorker.ts): a new version is waiting (with
 * Reload and Later); this tab reloads once the step in progress ends and the run is saved (the
 * update was accepted here or in another tab); or offline use failed (the lab runs on). Nothing
 * when there is nothing to say.
 */
import { useSyncExternalStore } from 'react';
import type { OfflineStatus } from '../lab/serviceWorker.ts';

export function UpdateNotice({ status }: { status: OfflineStatus }) {
  const s = useSyncExternalStore(status.subscribe, status.get);
  if (!s.sentence) return null;
  return (
    <div className="notices" data-testid="offline-notice">
      <p className={`notice${s.updateWaiting ? '' : ' warn'}`} role={s.updateWaiting ? 'status' : 'alert'}>
        {s.sentence}{' '}
        {s.updateWaiting && (
          <>
            <button className="primary small" onClick={() => status.reload()}>Reload</button>{' '}
            <button className="small" onClick={() => status.dismiss()}>Later</button>
          </>
        )}
      </p>
    </div>
  );
}
