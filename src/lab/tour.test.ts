// The class tour's controller (src/lab/tour.ts) on a real store with a stand-in session whose
// step-through computes phases as the real one does (rollout → 2, verdicts → 3, advantages → 4,
// update → 6): moving between stops, the presenter following them, and the stops' buttons.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { getLesson, lessonSettings } from '../rl/lessons.ts';
import { defaultSettings } from '../rl/settings.ts';
import { presenterItems } from '../store/presenterView.ts';
import { useLab, type InspectorState, type LabState } from '../store/labStore.ts';
import { TOUR } from '../store/tour.ts';
import { Tour, type TourHost } from './tour.ts';

const NEXT_COMPUTED: Record<number, number> = { 2: 3, 3: 4, 4: 6 };

function setup() {
  const store = createStore<LabState>()(() => ({ ...useLab.getState(), settings: defaultSettings() }));
  const calls: string[] = [];
  const ins = () => store.getState().inspector;
  const set = (i: Partial<InspectorState>) => store.setState({ inspector: { ...(ins() ?? { phase: 0, computed: 0, busy: false, rollout: { step: 0, G: 2, groups: [] }, details: null, settings: null }), ...i } });
  const host: TourHost = {
    async applyLesson(id) { calls.push(`lesson ${id}`); store.setState({ lessonId: id, settings: lessonSettings(getLesson(id)!, defaultSettings()), stepMode: false, inspector: null }); },
    async setStepMode(on) { if (on === store.getState().stepMode) return; calls.push(`stepMode ${on}`); store.setState({ stepMode: on, ...(on ? {} : { inspector: ins() && ins()!.computed >= 6 ? ins() : null }) }); },
    async play(o) { calls.push(o?.untilStep !== undefined ? `play until ${o.untilStep}` : 'play'); store.setState({ status: 'running' }); },
    pause() { calls.push('pause'); store.setState({ status: 'paused' }); },
    stepThrough: {
      async forward() {
        const i = ins();
        if (!i) { calls.push('compute'); return set({ computed: 2, phase: 0 }); }
        if (i.phase + 1 < i.computed) return set({ phase: i.phase + 1 });
        calls.push('compute');
        if (i.computed >= 6) return set({ computed: 2, phase: 0, comparison: null });
        const c = NEXT_COMPUTED[i.computed];
        set({ computed: c, phase: c === 6 ? 4 : i.computed });
      },
      back() { const i = ins()!; set({ phase: i.phase - 1 }); },
      async compare() { calls.push('compare'); set({ comparison: { objectives: [], runObjective: 'grpo', answers: 0 } as unknown as InspectorState['comparison'] }); },
      get canCompare() { return ins()?.computed === 4; },
    },
  };
  return { store, calls, tour: new Tour(host, store) };
}

describe('class tour controller', () => {
  it('opens, moves with next/back within the stops, closes; the address hook hears every move', async () => {
    const { tour } = setup();
    const moves: (number | null)[] = [];
    tour.init(null, () => moves.push(tour.stop));
    expect(tour.stop).toBeNull();
    tour.open();
    await tour.back();
    expect(tour.stop).toBe(0);
    for (let i = 0; i < 10; i++) await tour.next();
    expect(tour.stop).toBe(TOUR.length - 1);
    tour.close();
    expect(moves).toEqual([0, 1, 2, 3, 4, 5, 6, 7, null]);
    const other = setup().tour;
    other.init(99, () => {});
    expect(other.stop).toBe(TOUR.length - 1); // tour=99 in the address: the last stop
  });

  it('in the presenter view the tour shows the stop\'s chart, or the step-through', async () => {
    const { store, tour } = setup();
    store.setState({ lessonId: 'mixed-groups', settings: lessonSettings(getLesson('mixed-groups')!, defaultSettings()), presenter: { item: 0 } });
    const items = presenterItems(store.getState());
    tour.open(TOUR.findIndex((s) => s.id === 'mixed-groups'));
    await tour.arrange();
    expect(items[store.getState().presenter!.item]).toEqual({ kind: 'chart', chart: 'groups' });
    await tour.go(TOUR.findIndex((s) => s.id === 'advantages'));
    expect(items[store.getState().presenter!.item]).toEqual({ kind: 'step' });
  });

  it('"Sample and grade a batch": step mode on, phases pulled until the verdicts are shown; moving on turns pages only', async () => {
    const { store, calls, tour } = setup();
    tour.open(0);
    await tour.act(TOUR[0].say(store.getState()).action!);
    expect(store.getState().inspector).toMatchObject({ computed: 3, phase: 2 });
    expect(calls).toEqual(['stepMode true', 'compute', 'compute']);
    await tour.go(TOUR.findIndex((s) => s.id === 'one-update'));
    expect(calls).toHaveLength(3); // moving to a stop computes nothing
    await tour.act(TOUR[3].say(store.getState()).action!);
    expect(store.getState().inspector).toMatchObject({ computed: 6, phase: 5 });
    await tour.go(0);
    expect(store.getState().inspector).toMatchObject({ computed: 6, phase: 2 }); // the verdicts of the batch just applied
  });

  it('"Compare the four objectives" after an applied update: the next batch to its advantages, then the comparison', async () => {
    const { store, calls, tour } = setup();
    store.setState({ stepMode: true });
    tour.open(TOUR.findIndex((s) => s.id === 'objectives'));
    await tour.act({ kind: 'step-to', phase: 'update', label: '' });
    calls.length = 0;
    await tour.act(TOUR[4].say(store.getState()).action!);
    expect(calls).toEqual(['compute', 'compute', 'compute', 'compare']);
    expect(store.getState().inspector).toMatchObject({ computed: 4, phase: 3 });
    expect(store.getState().inspector!.comparison).toBeTruthy();
  });

  it('"Load lesson N", then "Play to step N": plays with the verdict\'s step as the loop\'s target', async () => {
    const { store, calls, tour } = setup();
    tour.open(TOUR.findIndex((s) => s.id === 'mixed-groups'));
    await tour.act(TOUR[2].say(store.getState()).action!);
    expect(store.getState().lessonId).toBe('mixed-groups');
    const play = TOUR[2].say(store.getState()).action!;
    const at = getLesson('mixed-groups')!.variants[0].claim.steps; // the lesson's verdict step, every variant's
    expect(play).toMatchObject({ kind: 'play-until', step: at });
    await tour.act(play);
    expect(calls).toEqual(['lesson mixed-groups', `play until ${at}`]); // the loop stops itself there (session.ts; src/lab/playUntil.test.ts)
  });
});
