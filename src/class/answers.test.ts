import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A localStorage for node: a Map, or one that refuses every write (private mode, quota). */
function fakeStorage(refuse = false) {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => (m.has(k) ? m.get(k)! : null),
    setItem: (k: string, v: string) => { if (refuse) throw new Error('QuotaExceededError'); m.set(k, String(v)); },
    removeItem: (k: string) => { m.delete(k); },
    map: m,
  };
}

/** The module fresh (its store reads localStorage when it loads). */
async function load() {
  vi.resetModules();
  return import('./answers.ts');
}

describe('answers: this browser\'s answers per lesson (issue 49)', () => {
  let storage: ReturnType<typeof fakeStorage>;
  beforeEach(() => { storage = fakeStorage(); vi.stubGlobal('localStorage', storage); });
  afterEach(() => vi.unstubAllGlobals());

  it('keeps each answer per lesson in localStorage and in the store; a reload reads them back', async () => {
    const a = await load();
    expect(a.answerStore.getState().all).toEqual({});
    a.chooseAnswer('mixed-groups', 'pre', 2);
    a.chooseAnswer('mixed-groups', 'explain', 1);
    a.chooseAnswer('kl-estimators', 'pre', 'skipped');
    expect(a.answerStore.getState().all).toEqual({ 'mixed-groups': { pre: 2, explain: 1 }, 'kl-estimators': { pre: 'skipped' } });
    const again = await load(); // the next visit
    expect(again.answerStore.getState().all).toEqual({ 'mixed-groups': { pre: 2, explain: 1 }, 'kl-estimators': { pre: 'skipped' } });
    expect(again.answersFor(again.answerStore.getState().all, 'mixed-groups')).toEqual({ pre: 2, explain: 1 });
    expect(again.answersFor(again.answerStore.getState().all, 'toString')).toBeUndefined();
  });

  it('each question is answered once: a second click does not change the kept answer', async () => {
    const a = await load();
    a.chooseAnswer('mixed-groups', 'explain', 3);
    a.chooseAnswer('mixed-groups', 'explain', 1);
    a.chooseAnswer('mixed-groups', 'post', 'skipped');
    a.chooseAnswer('mixed-groups', 'post', 0);
    expect(a.readAnswers()).toEqual({ 'mixed-groups': { explain: 3, post: 'skipped' } });
  });

  it('refuses what no question has: a skipped "Why?", a negative or fractional index', async () => {
    const a = await load();
    a.chooseAnswer('mixed-groups', 'explain', 'skipped');
    a.chooseAnswer('mixed-groups', 'pre', -1);
    a.chooseAnswer('mixed-groups', 'post', 1.5);
    expect(a.readAnswers()).toEqual({});
  });

  it('a damaged entry, or a damaged part of one, reads as none', async () => {
    storage.setItem('rlvr-lab:answers', JSON.stringify({ 'mixed-groups': { explain: 'x', pre: 1, post: 99, extra: 2 }, l2: [1], l3: null, l4: { explain: 'skipped' }, ['x'.repeat(41)]: { pre: 1 } }));
    const a = await load();
    expect(a.readAnswers()).toEqual({ 'mixed-groups': { pre: 1 } });
    expect(a.answerStore.getState().all).toEqual({ 'mixed-groups': { pre: 1 } });
    storage.setItem('rlvr-lab:answers', '{not json');
    expect(a.readAnswers()).toEqual({});
    storage.setItem('rlvr-lab:answers', '[1,2]');
    expect(a.readAnswers()).toEqual({});
  });

  it('a prototype key stays data', async () => {
    storage.setItem('rlvr-lab:answers', '{"__proto__":{"pre":1}}');
    const a = await load();
    const all = a.readAnswers();
    expect(Object.keys(all)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).pre).toBeUndefined();
  });

  it('New student: forgetAnswers empties the storage and tells every reader', async () => {
    const a = await load();
    a.chooseAnswer('mixed-groups', 'pre', 0);
    const seen: unknown[] = [];
    a.answerStore.subscribe((s) => seen.push(s.all));
    a.forgetAnswers();
    expect(storage.getItem('rlvr-lab:answers')).toBeNull();
    expect(a.answerStore.getState().all).toEqual({});
    expect(seen).toEqual([{}]);
  });

  it('storage refused: the answers live for this visit, never an error', async () => {
    vi.stubGlobal('localStorage', fakeStorage(true));
    const a = await load();
    a.chooseAnswer('mixed-groups', 'pre', 1);
    a.chooseAnswer('mixed-groups', 'explain', 2);
    expect(a.answerStore.getState().all).toEqual({ 'mixed-groups': { pre: 1, explain: 2 } });
    expect(a.readAnswers()).toEqual({});
    vi.stubGlobal('localStorage', undefined); // no storage at all
    const b = await load();
    b.chooseAnswer('mixed-groups', 'pre', 1);
    expect(b.answerStore.getState().all).toEqual({ 'mixed-groups': { pre: 1 } });
    b.forgetAnswers();
    expect(b.answerStore.getState().all).toEqual({});
  });
});
