/**
 * Charts are first drawn one at a time. A chart's first draw is recharts' heaviest work, and most
 * of it runs where React cannot yield: the commit, and recharts' own store updates from its layout
 * effects, which render again synchronously. Ten charts getting their first data at once (the first
 * step, a resumed run, a lesson loaded) made one main-thread task of several hundred ms on the
 * lab's CPU engine; one chart per task keeps each short, so a click or a key waits for at most one.
 *
 * useMountTurn(want): false until this chart's turn, then true for good. A turn starts once the
 * previous chart's first draw has committed (its effects ran), in a task of its own.
 */
import { useEffect, useRef, useState } from 'react';

const waiting: (() => void)[] = [];
const turns = { running: false };

function nextTurn(): void {
  const go = waiting.shift();
  if (!go) { turns.running = false; return; }
  go();
}

function askTurn(go: () => void): () => void {
  waiting.push(go);
  if (!turns.running) { turns.running = true; setTimeout(nextTurn, 0); }
  return () => {
    const i = waiting.indexOf(go);
    if (i >= 0) waiting.splice(i, 1);
  };
}

export function useMountTurn(want: boolean): boolean {
  const [mine, setMine] = useState<'waiting' | 'drawing' | 'drawn'>('waiting');
  const holding = useRef(false); // this chart has the turn and has not passed it on
  useEffect(() => {
    if (!want || mine !== 'waiting') return;
    return askTurn(() => { holding.current = true; setMine('drawing'); });
  }, [want, mine]);
  useEffect(() => {
    if (mine !== 'drawing') return;
    setMine('drawn');
    holding.current = false;
    setTimeout(nextTurn, 0); // this chart's first draw is committed: the next one, in a task of its own
  }, [mine]);
  useEffect(() => () => { if (holding.current) setTimeout(nextTurn, 0); }, []); // unmounted holding the turn: pass it on
  return mine !== 'waiting';
}
