import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { ImportContext, PresenterContext, SessionContext } from './ui/session.tsx';
import { LabSession } from './lab/session.ts';
import { Presenter } from './lab/presenter.ts';
import { debugHooks } from './lab/debugHooks.ts';
import { useLab } from './store/labStore.ts';
import { RunImport } from './lab/runImport.ts';
import { useImported } from './store/importedRun.ts';
import { OfflineStatus, startServiceWorker } from './lab/serviceWorker.ts';
import { saveBeforeReload, saveWhenHidden } from './lab/saveOnLeave.ts';
import { UpdateNotice } from './ui/UpdateNotice.tsx';
import { DrawTurns, DrawTurnsContext } from './ui/drawTurns.ts';
import { withClassSeed } from './class/local.ts';
import './ui/app.css';

const session = new LabSession(useLab);
const presenter = new Presenter(session, useLab);
const runImport = new RunImport(useImported);
void session.init(withClassSeed(location.search)); // class mode: this browser's own seed (src/class/local.ts)
const offline = new OfflineStatus({ beforeReload: saveBeforeReload(session) }); // a reload the lab triggers (a new version) saves the run first
startServiceWorker(offline); // production build only: offline after the first visit
saveWhenHidden(document, window, session.autosave); // and a hidden or closing tab saves it too
// Test hooks: browser tests read real metrics from the store (and render crafted model output
// through it), inject faults and read engine counters; the soak script waits for saves.
(window as unknown as { __lab: object }).__lab = { store: useLab, imported: useImported, offline, ...debugHooks(session) };

const drawTurns = new DrawTurns(); // the charts' queue: one chart draws per task (src/ui/drawTurns.ts)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionContext value={session}>
      <PresenterContext value={presenter}>
        <ImportContext value={runImport}>
          <DrawTurnsContext value={drawTurns}>
            <UpdateNotice status={offline} />
            <App />
          </DrawTurnsContext>
        </ImportContext>
      </PresenterContext>
    </SessionContext>
  </StrictMode>,
);
