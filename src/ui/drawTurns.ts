/**
 * Charts draw one at a time. Drawing a chart is recharts' heavy work, and most of it runs where
 * React cannot yield: the commit, and recharts' own store updates from its layout effects, which
 * render again synchronously. So ten charts redrawn by one store update (a step's metrics, the
 * first step, a resumed run, the x axis growing) made one main-thread task of 200–600 ms on a
 * 2-core machine; with one chart per task, a click or a key waits for at most one chart.
 *
 * useDrawTurn(value, initial, live, now): the value this chart last drew (`initial` until its first turn).
 * A card out of sight while a run streams (`live` false: chartHooks.ts useCardView) asks for no
 * turn: it draws when it scrolls into view or the run stops, as its updates already wait. A card
 * the reader is on (`now`: the pointer or the keyboard's focus in its body) goes to the front of
 * the queue: it draws in the next task, still a task of its own. (It used to draw at once, inside
 * the task of the store update that changed it: with the pointer resting on the advantages chart
 * while a run played, every step's update carried that chart's whole redraw, a 130–200 ms task on
 * a 2-core machine. What the reader's own keys change outside the drawing, such as the answer a
 * walk announces, is not drawn here and shows at once.)
 * A new value waits for the chart's turn: turns go round the charts that asked, one per task, each
 * starting once the previous chart's drawing has committed (its effects ran). A chart asks once
 * and draws the newest value when its turn comes, so a fast run never starves a chart: it skips
 * the values it had no turn for. The queue is one DrawTurns for the page, made in src/main.tsx
 * (no module state); without one (a component rendered alone) a chart draws at once.
 */
import { createContext, useContext, useEffect, useRef, useState } from 'react';

/** The page's queue of charts waiting to draw: one chart per task. */
export class DrawTurns {
  private readonly waiting: (() => void)[] = [];
  private running = false;

  /** After a chart's turn: the next one, in a task of its own. */
  pass(): void {
    setTimeout(() => {
      const go = this.waiting.shift();
      if (go) go();
      else this.running = false;
    }, 0);
  }

  /** Queue `go` for a turn (`first`: ahead of the others); the function returned withdraws it while it waits. */
  ask(go: () => void, first = false): () => void {
    if (first) this.waiting.unshift(go);
    else this.waiting.push(go);
    if (!this.running) { this.running = true; this.pass(); }
    return () => {
      const i = this.waiting.indexOf(go);
      if (i >= 0) this.waiting.splice(i, 1);
    };
  }
}

export const DrawTurnsContext = createContext<DrawTurns | null>(null);

export function useDrawTurn<T>(value: T, initial: T, live = true, now = false): T {
  const turns = useContext(DrawTurnsContext);
  const [shown, setShown] = useState<T>(initial);
  const latest = useRef(value);
  latest.current = value;
  const drawn = useRef(initial);
  const asked = useRef<{ withdraw: () => void; first: boolean } | null>(null); // the request while it waits
  const holding = useRef(false); // this chart has the turn and has not passed it on
  useEffect(() => {
    if (!turns || Object.is(drawn.current, value)) return;
    if (asked.current) {
      if (asked.current.first || !now) return; // asked already
      asked.current.withdraw(); // the reader came to this card while it waited: to the front
      asked.current = null;
    }
    if (!live && !now) return;
    const withdraw = turns.ask(() => {
      asked.current = null;
      if (Object.is(drawn.current, latest.current)) return turns.pass(); // back to what it shows: nothing to draw
      holding.current = true;
      drawn.current = latest.current;
      setShown(() => drawn.current);
    }, now);
    asked.current = { withdraw, first: now };
  });
  useEffect(() => {
    if (!holding.current) return;
    holding.current = false;
    turns?.pass(); // this chart's drawing is committed
  }, [shown, turns]);
  useEffect(() => () => { // unmounted waiting or holding the turn (or remounted: StrictMode runs this once in development)
    asked.current?.withdraw();
    asked.current = null;
    if (holding.current) { holding.current = false; turns?.pass(); }
  }, [turns]);
  return turns ? shown : value;
}
