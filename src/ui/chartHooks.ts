/** Store reads for the charts that keep their references while the data is unchanged (memoised charts then skip). */
import { useRef } from 'react';
import { useLab, type LabState } from '../store/labStore.ts';

/** Plain data equal in JSON (NaN as null: the charts draw both as gaps). */
const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The previous value while the new one is equal to it: a stable reference for memoised children. */
export function useStable<T>(value: T): T {
  const ref = useRef(value);
  if (ref.current !== value && !sameJson(ref.current, value)) ref.current = value;
  return ref.current;
}

/** The store read through `select`, re-rendering only when the selected data changes (not its reference). */
export function useLabStable<T>(select: (s: LabState) => T): T {
  const prev = useRef<{ v: T } | null>(null);
  return useLab((s) => {
    const v = select(s);
    if (prev.current && sameJson(prev.current.v, v)) return prev.current.v;
    prev.current = { v };
    return v;
  });
}

/** The previous run chosen for overlay (Runs panel), if any. */
export function useOverlayRun() {
  const runs = useLab((s) => s.runs);
  const overlayId = useLab((s) => s.overlayRunId);
  return runs.find((r) => r.id === overlayId);
}
