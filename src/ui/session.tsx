/** The lab session for components: made once in src/main.tsx, read with useSession(). */
import { createContext, useContext } from 'react';
import type { LabSession } from '../lab/session.ts';
import type { Presenter } from '../lab/presenter.ts';
import type { RunImport } from '../lab/runImport.ts';

export const SessionContext = createContext<LabSession | null>(null);

/** The session's actions (components call these; they read state from the store). */
export function useSession(): LabSession {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession: no LabSession provided (src/main.tsx provides it)');
  return s;
}

export const PresenterContext = createContext<Presenter | null>(null);

/** The presenter view's actions (src/lab/presenter.ts), made beside the session in src/main.tsx. */
export function usePresenter(): Presenter {
  const p = useContext(PresenterContext);
  if (!p) throw new Error('usePresenter: no Presenter provided (src/main.tsx provides it)');
  return p;
}

export const ImportContext = createContext<RunImport | null>(null);

/** Importing a run trained elsewhere (src/lab/runImport.ts), made beside the session in src/main.tsx. */
export function useRunImport(): RunImport {
  const r = useContext(ImportContext);
  if (!r) throw new Error('useRunImport: no RunImport provided (src/main.tsx provides it)');
  return r;
}
