// The charts' drawing queue (drawTurns.ts): one chart per task, in the order they asked; a chart
// that withdraws (unmounted while waiting) is skipped; the queue idles when empty and restarts.
import { describe, expect, it } from 'vitest';
import { DrawTurns } from './drawTurns.ts';

const task = () => new Promise((r) => setTimeout(r, 0));

describe('DrawTurns', () => {
  it('gives one turn per task, in order, skips a withdrawn request, and starts again after idling', async () => {
    const turns = new DrawTurns();
    const seen: string[] = [];
    const take = (name: string) => () => { seen.push(name); turns.pass(); }; // a chart draws, then passes the turn on
    turns.ask(take('a'));
    const withdraw = turns.ask(take('b'));
    turns.ask(take('c'));
    withdraw();
    expect(seen).toEqual([]); // nothing in the asking task
    await task();
    expect(seen).toEqual(['a']);
    await task();
    expect(seen).toEqual(['a', 'c']);
    await task();
    await task();
    turns.ask(take('d')); // idle by now: a new request starts the queue again
    await task();
    expect(seen).toEqual(['a', 'c', 'd']);
  });

  it('a turn not passed on holds the queue (a chart passes it once its drawing has committed)', async () => {
    const turns = new DrawTurns();
    const seen: string[] = [];
    turns.ask(() => seen.push('a')); // draws, never passes
    turns.ask(() => seen.push('b'));
    for (let i = 0; i < 4; i++) await task();
    expect(seen).toEqual(['a']);
    turns.pass();
    await task();
    expect(seen).toEqual(['a', 'b']);
  });

  it('the card the reader is on asks ahead of the others, and still draws in a task of its own', async () => {
    const turns = new DrawTurns();
    const seen: string[] = [];
    const take = (name: string) => () => { seen.push(name); turns.pass(); };
    turns.ask(take('a'));
    turns.ask(take('b'));
    turns.ask(take('pointed'), true);
    expect(seen).toEqual([]); // not inside the asking task
    await task();
    expect(seen).toEqual(['pointed']);
    await task();
    await task();
    expect(seen).toEqual(['pointed', 'a', 'b']);
  });
});
