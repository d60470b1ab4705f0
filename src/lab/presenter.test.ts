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

/**
 * A store at lesson 1 and a session that records the calls and moves the inspector as the step-through would.
 * `atVerdict()` puts lesson 1's run at its verdict (step 40, judged): there, as the real session does
 * (lessonVerdict.leaveForStepThrough), step mode or a new batch leaves the lesson for a new run — unless continued past.
 */
function setup() {
  const store = createStore<LabState>()(() => ({ ...useLab.getState(), settings: getLessonSettings('mixed-groups'), lessonId: 'mixed-groups' }));
  const calls: string[] = [];
  let verdictStep: number | null = null; // the trainer at the verdict step (the store's verdict may come later: judged)
  const reached = () => verdictStep !== null && !store.getState().verdict?.continued;
  const leave = () => { if (reached()) { calls.push('left the lesson'); verdictStep = null; store.setState({ lessonId: null, settings: defaultSettings(), verdict: null, leftLesson: { n: 1, step: 40 } }); } };
  let tourStop: number | null = null;
  const host: PresenterHost = {
    async applyLesson(id) { calls.push(`lesson ${id}`); store.setState({ lessonId: id, settings: getLessonSettings(id), stepMode: false, inspector: null }); },
    async setStepMode(on) { calls.push(`stepMode ${on}`); if (on) leave(); store.setState({ stepMode: on }); },
    togglePlay() { calls.push('play'); },
    stepThrough: {
      async forward() {
        calls.push('forward');
        const i = store.getState().inspector;
        if (!i || i.computed >= 6 && i.phase === 5) leave(); // a new batch: the session's ready()
        store.setState({ inspector: i && !(i.computed >= 6 && i.phase === 5) ? { ...i, phase: i.phase + 1, computed: Math.max(i.computed, i.phase + 2) } : inspector(0, 2) });
      },
      back() { calls.push('back'); const i = store.getState().inspector!; store.setState({ inspector: { ...i, phase: i.phase - 1 } }); },
    },
    verdicts: {
      reached,
      continuePast() { const v = store.getState().verdict; if (!v) return false; calls.push('continue past the verdict'); store.setState({ verdict: { ...v, continued: true } }); return true; },
      async settled() { calls.push('settled'); },
    },
    tour: {
      get stop() { return tourStop; },
      open(stop = 0) { calls.push(`tour ${stop}`); tourStop = stop; },
      close() { calls.push('tour closed'); tourStop = null; },
    },
  };
  const atVerdict = (judged = true) => {
    verdictStep = 40;
    if (judged) store.setState({ verdict: { lessonId: 'mixed-groups', variant: 0, step: 40, judged: null, continued: false, contrast: null } });
  };
  return { store, calls, presenter: new Presenter(host, store), atVerdict };
}
const getLessonSettings = (id: string): Settings => lessonSettings(getLesson(id)!, defaultSettings(), 0);
/** The title bar and caption of the item shown now. */
const title = (store: { getState(): LabState }) => { const s = store.getState(); const items = presenterItems(s); const i = presenterIndex(s.presenter!, items); return presenterTitle(s, items[i], i, items.length - 1); };

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
    expect(title(store).item).toBe('step-through: phase 1 of 6 — prompts');
    await presenter.next();
    await presenter.next();
    expect(title(store).item).toBe('step-through: phase 3 of 6 — verdicts');
    presenter.back();
    expect(title(store).item).toBe('step-through: phase 2 of 6 — answers');
    presenter.back();
    presenter.back(); // at phase 1: back to the last chart
    expect(title(store).item).toMatch(new RegExp(`^chart ${n} of ${n}: `));
    expect(calls.filter((c) => c === 'back')).toHaveLength(2);
  });

  it('a lesson run at its verdict: → into the step-through says so first and computes nothing; ← back to the lesson\'s charts; → again steps through the lesson\'s own run past its verdict', async () => {
    const { store, calls, presenter, atVerdict } = setup();
    atVerdict();
    const n = getLesson('mixed-groups')!.charts.length;
    presenter.open();
    for (let i = 1; i <= n; i++) await presenter.next();
    // on the step-through, nothing computed, nothing left: the title says what the next → does
    expect(calls).toEqual([]);
    expect(title(store).item).toBe('step-through of one update: not started (the run is at its verdict, step 40)');
    expect(title(store).caption).toMatch(/^This run's verdict is in at step 40, judged once\. → steps through update 41 of this same run, past its verdict: the verdict stays as judged/);
    // ← back: the lesson's last chart, the lesson still the lesson
    presenter.back();
    expect(title(store).item).toMatch(new RegExp(`^chart ${n} of ${n}: `));
    expect(title(store).heading).toBe(getLesson('mixed-groups')!.title);
    // → twice: the step-through, then its first phase, of the lesson's own run (continued past its verdict)
    await presenter.next();
    expect(calls).toEqual([]);
    await presenter.next();
    expect(calls).toEqual(['continue past the verdict', 'stepMode true', 'forward']);
    expect(title(store).item).toBe('step-through: phase 1 of 6 — prompts');
    expect(title(store).heading).toBe(getLesson('mixed-groups')!.title);
    const s = store.getState();
    expect([s.lessonId, s.leftLesson, s.verdict?.step, s.verdict?.continued]).toEqual(['mixed-groups', null, 40, true]);
    // ← from its first phase: the lesson's charts, the lesson still selected
    presenter.back();
    expect(title(store).item).toMatch(new RegExp(`^chart ${n} of ${n}: `));
    expect(store.getState().lessonId).toBe('mixed-groups');
    presenter.togglePlay(); // Space: the session's Play, on the lesson's own run
    expect(calls.at(-1)).toBe('play');
    expect(calls).not.toContain('left the lesson');
  });

  it('an update stepped through to the verdict step: its last phase says the run is at its verdict, and → goes on past it (before the verdict is judged: nothing)', async () => {
    const { store, calls, presenter, atVerdict } = setup();
    store.setState({ stepMode: true, inspector: inspector(5, 6) }); // the update of step 40 applied, its last phase shown
    presenter.open();
    expect(title(store).item).toBe('step-through: phase 6 of 6 — update');
    atVerdict(false); // the trainer is at step 40, the verdict is being judged
    await presenter.next();
    expect(calls).toEqual(['settled']); // no new batch: the session would leave the lesson for it
    expect(title(store).caption).not.toContain('verdict');
    atVerdict(); // judged: the caption says what → does now
    expect(title(store).caption).toMatch(/The run is at its verdict \(step 40\): → steps through update 41 of this same run, past its verdict/);
    await presenter.next();
    expect(calls).toEqual(['settled', 'continue past the verdict', 'forward']);
    expect(title(store).item).toBe('step-through: phase 1 of 6 — prompts');
    expect(title(store).caption).not.toContain('verdict');
    expect(store.getState().lessonId).toBe('mixed-groups');
    // a phase already computed is a page turn at the verdict too (no new batch, nothing asked)
    const { store: s2, calls: c2, presenter: p2, atVerdict: v2 } = setup();
    s2.setState({ stepMode: true, inspector: inspector(3, 6) });
    v2();
    p2.open();
    await p2.next();
    expect(c2).toEqual(['forward']);
    expect(title(s2).caption).not.toContain('verdict');
  });

  it('T opens the class tour in the view and closes it; not over the class results, nor with the view closed; C opens the class results under an open tour', async () => {
    const { store, calls, presenter } = setup();
    presenter.toggleTour();
    expect(calls).toEqual([]);
    presenter.open();
    presenter.toggleTour();
    expect(calls).toEqual(['tour 0']);
    presenter.openClass(); // C with the tour open: the class results, over the item
    expect(store.getState().presenter).toEqual({ item: 0, classResults: 'item' });
    presenter.toggleTour(); // the class results' keys are theirs
    expect(calls).toEqual(['tour 0']);
    presenter.back();
    expect(store.getState().presenter).toEqual({ item: 0 });
    presenter.toggleTour();
    expect(calls).toEqual(['tour 0', 'tour closed']);
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

  it('the class results show one lesson a screen: → ← walk the pooled lessons, kept across a close and open', () => {
    const { store, presenter } = setup();
    const ids = ['mixed-groups', 'scratchpad', 'small-pool'];
    expect(presenter.classLesson(ids, 1)).toBe(false); // not open: nothing
    presenter.open();
    presenter.openClass();
    expect(presenter.classLesson(ids, -1)).toBe(false); // the first (unset) has no previous: the key goes back instead
    expect(presenter.classLesson(ids, 1)).toBe(true);
    expect(store.getState().presenter!.classLesson).toBe('scratchpad');
    expect(presenter.classLesson(ids, 1)).toBe(true);
    expect(presenter.classLesson(ids, 1)).toBe(false); // the last
    expect(store.getState().presenter!.classLesson).toBe('small-pool');
    presenter.closeClass();
    presenter.openClass();
    expect(store.getState().presenter!.classLesson).toBe('small-pool');
    presenter.showClassLesson('mixed-groups');
    expect(presenter.classLesson(ids, -1)).toBe(false);
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
