/**
 * The class results' pasted text, one for the page's panel and the presenter view's class results
 * (src/ui/ClassResults.tsx, src/ui/PresenterClass.tsx): what the teacher pasted on the page is
 * there when the presenter view opens, and back. It starts with the code of a shared link
 * (`#result=<code>`), read from the address as the page opened, before the session's start
 * rewrites the address. Only text: the pool (pool.ts) decodes it one way.
 */
import { createStore } from 'zustand/vanilla';
import { MAX_PASTE } from './code.ts';

/** The code of a `#result=<code>` fragment, or ''. */
export function codeFromHash(hash: string): string {
  try {
    const m = /(?:^#|&)result=([^&]{1,400})/.exec(hash);
    return m ? decodeURIComponent(m[1]) : '';
  } catch {
    return '';
  }
}

export const pasteStore = createStore<{ text: string }>()(() => ({ text: typeof location === 'undefined' ? '' : codeFromHash(location.hash) }));

/** Keep what was pasted (at most MAX_PASTE characters). */
export const setPaste = (text: string) => pasteStore.setState({ text: text.slice(0, MAX_PASTE) });
