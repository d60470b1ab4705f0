/** The lab session for components: made once in src/main.tsx, read with useSession(). */
import { createContext, useContext } from 'react';
import type { LabSession } from '../lab/session.ts';

export const SessionContext = createContext<LabSession | null>(null);

/** The session's actions (components call these; they read state from the store). */
export function useSession(): LabSession {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession: no LabSession provided (src/main.tsx provides it)');
  return s;
}
