/**
 * "Share result" (issue 31): once the lesson variant's run has its verdict, a short text code for
 * the class chat and a link that opens the class results with it (src/class/code.ts). The code
 * carries the app version, lesson, variant, seed, the starting weights' identity, the verdict, the
 * claim's number, the contrast number and the prediction made in this browser — nothing else.
 */
import { useMemo, useState } from 'react';
import { type Lesson } from '../rl/lessons.ts';
import { contractHash } from '../rl/lessonContract.ts';
import { useLab } from '../store/labStore.ts';
import { claimNumber } from '../class/claimNumber.ts';
import { APP_VERSION, encodeResult } from '../class/code.ts';
import { readPredictions } from '../class/local.ts';
import { frozenFor } from '../store/verdictView.ts';

/** The address of this page that opens the class results with a code (the code's characters need no escaping in a fragment). */
export const resultLink = (code: string) => `${location.origin}${location.pathname}#result=${code}`;

/** The live run's code, or null before its frozen verdict (or when the verdict was not judged: the run's settings differ from the variant's). */
export function useResultCode(lesson: Lesson, variant: number): string | null {
  const frozen = useLab((s) => frozenFor(s, lesson.id, variant));
  const live = useLab((s) => s.liveOrigin);
  return useMemo(() => {
    const v = frozen?.judged;
    if (!v || !live?.weights) return null;
    const p = readPredictions()[lesson.id];
    const cn = claimNumber(lesson.id, variant);
    return encodeResult({
      app: APP_VERSION, lessonId: lesson.id, variant, seed: live.seed, weights: live.weights, verdict: v.state as 'holds' | 'fails' | 'unclear', held: v.state === 'holds', contract: contractHash(lesson), steps: frozen.step,
      claim: cn ? cn.of(v.measured) : NaN, contrast: lesson.contrast ? lesson.contrast.of(v.measured) : NaN,
      prediction: p === 0 || p === 1 || p === 2 ? p : null,
      pairedContrast: frozen.contrast ? { value: frozen.contrast.value, outcome: frozen.contrast.outcome } : null,
      shippedBase: live.base === '',
    });
  }, [lesson, variant, frozen, live]);
}

async function copy(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field?.select(); // no clipboard access: selected, for Ctrl+C
    return false;
  }
}

export function ClassShare({ lesson, variant }: { lesson: Lesson; variant: number }) {
  const code = useResultCode(lesson, variant);
  const [openFor, setOpenFor] = useState<string | null>(null); // open for one lesson variant: another variant's card starts closed
  const [copied, setCopied] = useState<string | null>(null);
  const key = `${lesson.id}/${variant}`;
  const open = openFor === key;
  if (!code) return null;
  const link = resultLink(code);
  return (
    <div className="class-share" data-testid="class-share">
      <button className="small" aria-expanded={open} onClick={() => { setOpenFor(open ? null : key); setCopied(null); }} data-testid="share-result">Share result</button>
      {open && (
        <div className="share-fields">
          <label>Code (paste it into the class chat):{' '}
            <input readOnly value={code} size={Math.min(90, code.length)} data-testid="share-code" onFocus={(e) => e.currentTarget.select()} />
          </label>{' '}
          <button className="small" onClick={(e) => void copy(code, e.currentTarget.parentElement?.querySelector('input') ?? null).then((ok) => setCopied(ok ? 'code' : null))}>Copy code</button>
          <br />
          <label>Link (opens the class results with it):{' '}
            <input readOnly value={link} size={60} data-testid="share-link" onFocus={(e) => e.currentTarget.select()} />
          </label>{' '}
          <button className="small" onClick={(e) => void copy(link, e.currentTarget.parentElement?.querySelectorAll('input')[1] ?? null).then((ok) => setCopied(ok ? 'link' : null))}>Copy link</button>
          {copied && <span className="note" role="status"> Copied the {copied}.</span>}
          <p className="note">It carries the lesson, variant, seed, the starting weights' identity, the verdict and the step it was judged at, the claim's number, the contrast number and your prediction — no name, nothing about this device.</p>
        </div>
      )}
    </div>
  );
}
