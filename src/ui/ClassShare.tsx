/**
 * "Share result" (issue 31): once the lesson variant's run has its verdict, a short text code for
 * the class chat and a link that opens the class results with it (src/class/code.ts). The code
 * carries the app version, lesson, variant, seed, the starting weights' identity, the verdict, the
 * claim's number, the contrast number, the prediction made in this browser and the student's answers
 * to the lesson's explain and concept questions (class/answers.ts) — nothing else.
 * Every finished lesson run with a verdict has its "Share" in the runs list too (RunShare: the same
 * code, made by the same function, class/runCode.ts), so an earlier variant's code is not lost.
 */
import { useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { type Lesson } from '../rl/lessons.ts';
import { useLab, type SavedRun } from '../store/labStore.ts';
import { predictionStore, readPredictions } from '../class/local.ts';
import { answerStore, answersFor } from '../class/answers.ts';
import { finishedRunCode, runResultCode } from '../class/runCode.ts';
import { frozenFor } from '../store/verdictView.ts';

/** The address of this page that opens the class results with a code (the code's characters need no escaping in a fragment). */
export const resultLink = (code: string) => `${location.origin}${location.pathname}#result=${code}`;

/** The live run's code, or null before its frozen verdict (or when the verdict was not judged: the run's settings differ from the variant's). The runs list's "Share" makes a finished run's with the same function (class/runCode.ts). */
export function useResultCode(lesson: Lesson, variant: number): string | null {
  const frozen = useLab((s) => frozenFor(s, lesson.id, variant));
  const live = useLab((s) => s.liveOrigin);
  const answers = useStore(answerStore, (s) => answersFor(s.all, lesson.id)); // the explain and concept answers: the code changes as the student answers
  return useMemo(() => (frozen && live ? runResultCode(lesson, variant, { origin: live, judged: frozen.judged, step: frozen.step, contrast: frozen.contrast }, readPredictions()[lesson.id], answers) : null), [lesson, variant, frozen, live, answers]);
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
  const key = `${lesson.id}/${variant}`;
  const open = openFor === key;
  if (!code) return null;
  return (
    <div className="class-share" data-testid="class-share">
      <button className="small" aria-expanded={open} onClick={() => setOpenFor(open ? null : key)} data-testid="share-result">Share result</button>
      {open && <ShareFields code={code} />}
    </div>
  );
}

/** "Share" beside a finished lesson run in the runs list (issue 48): the code its card's "Share result" gave, for any run kept with a verdict (null: none). */
export function RunShare({ run }: { run: SavedRun }) {
  const predictions = useStore(predictionStore, (s) => s.all);
  const answers = useStore(answerStore, (s) => s.all);
  const code = useMemo(() => finishedRunCode(run, predictions, answers), [run, predictions, answers]);
  const [open, setOpen] = useState(false);
  if (!code) return null;
  return (
    <>
      {' '}<button className="small" aria-expanded={open} aria-label={`Share ${run.name} (run ${run.id})`} onClick={() => setOpen(!open)} data-testid={`recent-run-share-${run.id}`}>Share</button>
      {open && <ShareFields code={code} testId={`recent-run-${run.id}`} />}
    </>
  );
}

/** A code's fields: the code and the link that opens the class results with it, each with its copy button (the lesson card's and the runs list's). `testId`: the prefix of the two fields' test ids. */
export function ShareFields({ code, testId = 'share' }: { code: string; testId?: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const link = resultLink(code);
  return (
    <div className="share-fields">
      <label>Code (paste it into the class chat):{' '}
        <input readOnly value={code} size={Math.min(90, code.length)} data-testid={`${testId}-code`} onFocus={(e) => e.currentTarget.select()} />
      </label>{' '}
      <button className="small" onClick={(e) => void copy(code, e.currentTarget.parentElement?.querySelector('input') ?? null).then((ok) => setCopied(ok ? 'code' : null))}>Copy code</button>
      <br />
      <label>Link (opens the class results with it):{' '}
        <input readOnly value={link} size={60} data-testid={`${testId}-link`} onFocus={(e) => e.currentTarget.select()} />
      </label>{' '}
      <button className="small" onClick={(e) => void copy(link, e.currentTarget.parentElement?.querySelectorAll('input')[1] ?? null).then((ok) => setCopied(ok ? 'link' : null))}>Copy link</button>
      {copied && <span className="note" role="status"> Copied the {copied}.</span>}
      <p className="note">It carries the lesson, variant, seed, the starting weights' identity, the verdict and the step it was judged at, the claim's number, the contrast number, your prediction and your answers to the lesson's questions — no name, nothing about this device.</p>
    </div>
  );
}
