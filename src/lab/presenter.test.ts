// The presenter view's navigation (src/lab/presenter.ts) on a real store with a stand-in
// session, its items and titles (src/store/presenterView.ts), and its address flag.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { LESSONS, getLesson, lessonSettings } from '../rl/lessons.ts';
import { defaultSettings, type Settings } from '../rl/settings.ts';
import { useLab, type InspectorState, type LabState } from '../store/labStore.ts';
import { hasLessonCaption, presenterIndex, presenterItems, presenterTitle, readLessonKey } from '../store/presenterView.ts';
import { labSearch, parseLabUrl } from '../store/url.ts';
import { Presenter, type PresenterHost } from './presenter.ts';

const inspector = (phase: number, computed = phase + 1): InspectorState => ({ phase, computed, busy: false, rollout: { step: 1, G: 2, groups: [] }, details: null, settings: null });

/** A store at lesson 1 and a session that records the calls and moves the inspector as the step-through would. */
function setup() {
  const store = createStore<LabState>()(() => ({ ...useLab.getState(), settings: getLessonSettings('mixed-groups'), lessonId: 'mixed-groups' }));
  const calls: string[] = [];
  const host: PresenterHost = {
    async applyLesson(id) { calls.push(`lesson ${id}`); store.setState({ lessonId: id, settings: getLessonSettings(id), stepMode: false, inspector: null }); },
    async setStepMode(on) { calls.push(`stepMode ${on}`); store.setState({ stepMode: on }); },
    togglePlay() { calls.push('play'); },
    stepThrough: {
      async forward() { calls.push('forward'); const i = store.getState().inspector; store.setState({ inspector: i ? { ...i, phase: i.phase + 1, computed: Math.max(i.computed, i.phase + 2) } : inspector(0, 2) }); },
      back() { calls.push('back'); const i = store.getState().inspector!; store.setState({ inspector: { ...i, phase: i.phase - 1 } }); },
    },
  };
  return { store, calls, presenter: new Presenter(host, store) };
}
const getLessonSettings = (id: string): Settings => lessonSettings(getLesson(id)!, defaultSettings(), 0);

describe('presenter view', () => {
  it('items: the lesson\'s charts in order, then the step-through; every chart without a lesson', () => {
    const s = { lessonId: 'mixed-groups', settings: getLessonSettings('mixed-groups') };
    expect(presenterItems(s)).toEqual([...getLesson('mixed-groups')!.charts.map((chart) => ({ kind: 'chart', chart })), { kind: 'step' }]);
    const none = presenterItems({ lessonId: null, settings: defaultSettings() });
    expect(none.at(-1)).toEqual({ kind: 'step' });
    expect(none.length).toBeGreaterThan(5);
    expect(presenterIndex({ item: 99 }, none)).toBe(none.length - 1);
  });

  it('→ through the charts into the step-through (step mode on, the first phase computed), then one phase per →; ← back', async () => {
    const { store, calls, presenter } = setup();
    const n = getLesson('mixed-groups')!.charts.length;
    presenter.open();
    expect(store.getState().presenter).toEqual({ item: 0 });
    for (let i = 1; i < n; i++) await presenter.next();
    expect(store.getState().presenter).toEqual({ item: n - 1 });
    expect(calls).toEqual([]);
    await presenter.next();
    expect(calls).toEqual(['stepMode true', 'forward']);
    const title = () => { const s = store.getState(); const items = presenterItems(s); const i = presenterIndex(s.presenter!, items); return presenterTitle(s, items[i], i, items.length - 1).item; };
    expect(title()).toBe('step-through: phase 1 of 6 — prompts');
    await presenter.next();
    await presenter.next();
    expect(title()).toBe('step-through: phase 3 of 6 — verdicts');
    presenter.back();
    expect(title()).toBe('step-through: phase 2 of 6 — answers');
    presenter.back();
    presenter.back(); // at phase 1: back to the last chart
    expect(title()).toMatch(new RegExp(`^chart ${n} of ${n}: `));
    expect(calls.filter((c) => c === 'back')).toHaveLength(2);
  });

  it('→ from a finished lesson\'s last chart: the step-through of a new run outside the lesson, shown, not the new item list\'s chart at that place', async () => {
    const { store, calls, presenter } = setup();
    // the session leaves a lesson run at its verdict for the step-through (lessonVerdict.leaveForStepThrough)
    const host = (presenter as unknown as { lab: PresenterHost }).lab;
    host.setStepMode = async (on) => { calls.push(`stepMode ${on}`); store.setState({ stepMode: on, lessonId: null, settings: defaultSettings(), leftLesson: { n: 1, step: 40 } }); };
    const n = getLesson('mixed-groups')!.charts.length;
    presenter.open();
    for (let i = 1; i <= n; i++) await presenter.next();
    expect(calls).toEqual(['stepMode true', 'forward']);
    const s = store.getState();
    const items = presenterItems(s);
    expect(items.length).toBeGreaterThan(n + 1); // every chart: no lesson now
    const i = presenterIndex(s.presenter!, items);
    expect(presenterTitle(s, items[i], i, items.length - 1).item).toBe('step-through: phase 1 of 6 — prompts');
    // and the heading says where the lesson's run went
    expect(presenterTitle(s, items[i], i, items.length - 1).heading).toBe("rlvr-lab: no lesson (lesson 1's run keeps its verdict at step 40, under Runs)");
  });

  it('a number picks that lesson from its first chart; out of range does nothing; Space plays; Esc closes', async () => {
    const { store, calls, presenter } = setup();
    await presenter.lesson(3); // closed: keys do nothing
    expect(calls).toEqual([]);
    presenter.open();
    await presenter.next();
    await presenter.lesson(LESSONS.length);
    expect(calls).toEqual([`lesson ${LESSONS[LESSONS.length - 1].id}`]);
    expect(store.getState().presenter).toEqual({ item: 0 });
    await presenter.lesson(LESSONS.length + 1);
    expect(calls).toHaveLength(1);
    presenter.togglePlay();
    expect(calls.at(-1)).toBe('play');
    presenter.close();
    expect(store.getState().presenter).toBeNull();
  });

  it('the class results: over the item (→ nothing, ← back to it), or opened from the page (back leaves the view)', async () => {
    const { store, calls, presenter } = setup();
    presenter.open();
    await presenter.next();
    presenter.openClass();
    expect(store.getState().presenter).toEqual({ item: 1, classResults: 'item' });
    await presenter.next(); // the class results have no next: the item stays, nothing is computed
    expect(store.getState().presenter).toEqual({ item: 1, classResults: 'item' });
    presenter.back();
    expect(store.getState().presenter).toEqual({ item: 1 });
    presenter.openClass();
    presenter.closeClass();
    expect(store.getState().presenter).toEqual({ item: 1 });
    presenter.close();
    presenter.openClass(); // from the page's Class results panel: the view opens on them …
    expect(store.getState().presenter).toEqual({ item: 0, classResults: 'page' });
    presenter.closeClass(); // … and back is the page
    expect(store.getState().presenter).toBeNull();
    presenter.openClass();
    presenter.back();
    expect(store.getState().presenter).toBeNull();
    expect(calls).toEqual([]);
  });

  it('opens at the step-through when one is on the page', () => {
    const { store, presenter } = setup();
    store.setState({ stepMode: true, inspector: inspector(2) });
    presenter.open();
    const items = presenterItems(store.getState());
    expect(items[presenterIndex(store.getState().presenter!, items)]).toEqual({ kind: 'step' });
  });

  it('captions: each chart of a lesson has its own, saying what to see on it (never the same line under two charts)', () => {
    const caption = (lessonId: string | null, settings: Settings) => {
      const items = presenterItems({ lessonId, settings });
      return items.flatMap((it, i) => (it.kind === 'chart' ? [{ chart: it.chart, text: presenterTitle({ lessonId, settings, inspector: null, stepMode: false }, it, i, items.length - 1).caption }] : []));
    };
    for (const lesson of LESSONS) {
      for (let v = 0; v < lesson.variants.length; v++) {
        const shown = caption(lesson.id, lessonSettings(lesson, defaultSettings(), v));
        expect(shown.length, lesson.id).toBeGreaterThan(0);
        const texts = shown.map((c) => c.text);
        expect(new Set(texts).size, `${lesson.id} variant ${v}: ${texts.join(' | ')}`).toBe(texts.length);
        for (const c of shown) expect(hasLessonCaption(lesson.id, c.chart), `${lesson.id} has a caption of its own for ${c.chart}`).toBe(true);
      }
    }
    const none = caption(null, defaultSettings()).map((c) => c.text);
    expect(new Set(none).size).toBe(none.length);
    // lesson 3's KL and groups charts said the same sentence (the lesson's first) before
    const l3 = caption('entropy-collapse', getLessonSettings('entropy-collapse'));
    expect(l3.find((c) => c.chart === 'kl')!.text).toContain('KL');
    expect(l3.find((c) => c.chart === 'groups')!.text).toContain('mix');
  });

  it('the address carries present=1 and reads it back; a bad value is named', () => {
    const base = { settings: defaultSettings(), lessonId: 'kl-estimators', lessonVariant: 0, backend: 'cpu' as const, classroom: false, hidden: [] };
    const q = labSearch({ ...base, presenter: { item: 2 } });
    expect(q).toContain('present=1');
    expect(parseLabUrl(q)).toMatchObject({ present: true, lessonId: 'kl-estimators', notices: [] });
    expect(labSearch({ ...base, presenter: null })).not.toContain('present');
    expect(parseLabUrl('?present=maybe').present).toBe(false);
    expect(parseLabUrl('?present=maybe').notices.join()).toContain('present');
  });
});

describe('readLessonKey: a lesson number typed digit by digit', () => {
  const read = (keys: string[], count: number) => {
    let pending = '';
    const got: (number | string)[] = [];
    for (const k of keys) {
      const r = readLessonKey(pending, k, count);
      pending = r.pending;
      if (r.lesson) got.push(r.lesson);
    }
    if (pending) got.push(`pending ${pending}`);
    return got;
  };
  it('one digit is a lesson at once where no longer number begins with it', () => {
    expect(read(['7'], 11)).toEqual([7]);
    expect(read(['1'], 9)).toEqual([1]);
    expect(read(['0'], 11)).toEqual([10]);
    expect(read(['0'], 9)).toEqual([]);
  });
  it('"1" waits with 10 or more lessons; a second digit makes 10 or 11, the wait makes 1', () => {
    expect(read(['1'], 11)).toEqual(['pending 1']);
    expect(read(['1', '1'], 11)).toEqual([11]);
    expect(read(['1', '0'], 11)).toEqual([10]);
    expect(read(['1', '5'], 11)).toEqual([5]); // no lesson 15: the second digit starts afresh
    expect(read(['1', '2'], 12)).toEqual([12]);
  });
  it('every lesson can be reached', () => {
    for (let n = 1; n <= LESSONS.length; n++) {
      const keys = String(n).split('');
      const got = read(keys, LESSONS.length);
      expect(got[0] === `pending ${n}` || got[0] === n).toBe(true);
    }
  });
});
