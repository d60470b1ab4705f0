/**
 * Structured fuzz of the address decoder (parseLabUrl). Start from a REAL lab address (labSearch
 * of a state with a lesson, a variant, a backend, classroom mode, hidden controls and settings
 * that differ from the defaults), replace every parameter's value with hostile texts, delete it,
 * repeat it, and add junk and prototype keys. parseLabUrl never refuses an address: it must
 * never throw, always return valid settings and page options, name every bad parameter in a
 * notice, and say it in a short sentence (never a raw JavaScript message), with bounded work.
 *
 * Bounded work is counted, not timed (a timed bound fails on a loaded machine; speed lives in
 * `npm run bench`): every address is decoded through `decode`, which counts what parseLabUrl
 * hands on — the characters given to URLSearchParams (MAX_URL_CHARS), the parameters given to
 * the settings table (MAX_URL_PARAMS), the controls to hide looked up (MAX_HIDDEN), and the
 * prompts a taskSpec's validation renders (ENUM_LIMIT per level). A cap that stops working
 * shows up as a count above it. The times are still printed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getLesson } from '../rl/lessons.ts';
import { defaultSettings, parseSetting, SETTINGS, SETTINGS_BY_KEY, type Settings } from '../rl/settings.ts';
import { EXAMPLES, ENUM_LIMIT, MAX_LEVELS } from '../tasks/spec/spec.ts';
import { labSearch, MAX_URL_CHARS, MAX_URL_PARAMS, parseLabUrl, type LabUrlState } from './url.ts';

/** What one parseLabUrl call did (reset by `decode`). */
const work = vi.hoisted(() => ({ chars: 0, settingPairs: 0, hideLookups: 0, rendered: 0 }));
vi.mock('../persist/settingsFile.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../persist/settingsFile.ts')>();
  return {
    ...m,
    // url.ts looks each control to hide up with isSettingKey, and hands the other parameters to ownSettingPairs
    isSettingKey: (k: string) => (work.hideLookups++, m.isSettingKey(k)),
    ownSettingPairs: (pairs: Iterable<[string, string]>) => {
      const list = [...pairs];
      work.settingPairs += list.length;
      return m.ownSettingPairs(list);
    },
  };
});
vi.mock('../tasks/spec/vars.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../tasks/spec/vars.ts')>();
  return { ...m, render: (...a: Parameters<typeof m.render>) => (work.rendered++, m.render(...a)) }; // one prompt made by validateSpec
});
/** URLSearchParams counts the text it is given (parseLabUrl's only parse of the address). */
const RealSearchParams = URLSearchParams;
beforeAll(() => {
  vi.stubGlobal('URLSearchParams', class extends RealSearchParams {
    constructor(init?: ConstructorParameters<typeof URLSearchParams>[0]) {
      if (typeof init === 'string') work.chars += init.length;
      super(init);
    }
  });
});
afterAll(() => vi.unstubAllGlobals());

/** Controls to hide read from one `hide` parameter (url.ts's MAX_HIDDEN, not exported). */
const MAX_HIDDEN = 64;
/** Prompts validateSpec may render for one spec: per level, the enumeration (ENUM_LIMIT), the random examples and edge values. */
const MAX_RENDERED = MAX_LEVELS * (ENUM_LIMIT + 2 * EXAMPLES);

/** parseLabUrl with its work counted: the counts must stay under the caps whatever the address. */
function decode(search: string, where: string): { u: LabUrlState; work: typeof work } {
  const hideParams = Math.max(1, search.slice(0, MAX_URL_CHARS).match(/[?&]hide=/g)?.length ?? 0);
  Object.assign(work, { chars: 0, settingPairs: 0, hideLookups: 0, rendered: 0 });
  let u: LabUrlState;
  try {
    u = parseLabUrl(search);
  } catch (e) {
    throw new Error(`${where}: threw ${String(e)}`);
  }
  const over = [
    work.chars > MAX_URL_CHARS && `${work.chars} characters parsed (cap ${MAX_URL_CHARS})`,
    work.settingPairs > MAX_URL_PARAMS && `${work.settingPairs} parameters read (cap ${MAX_URL_PARAMS})`,
    work.hideLookups > MAX_HIDDEN * hideParams && `${work.hideLookups} controls to hide looked up in ${hideParams} hide parameters (cap ${MAX_HIDDEN} each)`,
    work.rendered > MAX_RENDERED && `${work.rendered} prompts rendered to check a taskSpec (cap ${MAX_RENDERED})`,
  ].filter(Boolean);
  if (over.length) expect(over, where).toEqual([]);
  return { u, work: { ...work } };
}

const BAD_WORDS = ['TypeError', 'RangeError', 'SyntaxError', 'undefined', 'Cannot read', 'is not a function', '[object Object]', 'Unexpected token'];
const ALL_KEYS = SETTINGS.map((s) => s.key).sort().join();

const HOSTILE: string[] = ['', ' ', 'x', 'NaN', 'Infinity', '-Infinity', '1e309', '-1e309', '1e308', '9007199254740993', '-1', '-0', '0', '1', '1.5', '0x10', '1,5', ' 3 ',
  'true', 'false', 'null', 'undefined', '[]', '{}', '[object Object]', '{"a":1}', '__proto__', 'constructor', 'toString', '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>',
  '😀', '\u0000', '\u202e', 'a'.repeat(5000), '../../etc/passwd', '%E0%A4%A', 'sequence', 'cpu', 'webgpu', 'mixed-groups', 'beta,epsilon,zzz', ',,,', 'beta,'.repeat(500)];

function check(u: LabUrlState, where: string): void {
  const problems: string[] = [];
  const keys = Object.keys(u.settings).sort().join();
  if (keys !== ALL_KEYS) problems.push(`settings keys ${keys}`);
  for (const [k, v] of Object.entries(u.settings)) if (!SETTINGS_BY_KEY[k] || !parseSetting(SETTINGS_BY_KEY[k], String(v)).ok) problems.push(`setting ${k}=${String(v)}`);
  const lesson = u.lessonId === null ? null : getLesson(u.lessonId);
  if (u.lessonId !== null && !lesson) problems.push(`lesson ${u.lessonId}`);
  if (!Number.isInteger(u.lessonVariant) || u.lessonVariant < 0 || (lesson && u.lessonVariant >= lesson.variants.length)) problems.push(`variant ${u.lessonVariant}`);
  if (!['auto', 'cpu', 'webgpu'].includes(u.backend)) problems.push(`backend ${u.backend}`);
  if (typeof u.classroom !== 'boolean') problems.push('classroom');
  if (!u.hidden.every((k) => Object.prototype.hasOwnProperty.call(SETTINGS_BY_KEY, k))) problems.push(`hidden ${u.hidden}`);
  for (const n of u.notices) {
    for (const w of BAD_WORDS) if (n.includes(w) && !n.includes(`"${w}`)) problems.push(`notice says ${w}: ${n}`); // an echoed value is quoted
    if (n.length > 240 || n.length < 8) problems.push(`notice of ${n.length} characters`);
  }
  if (problems.length) expect(problems, where).toEqual([]);
}

/** Is `value` valid for the address parameter `key` (so that no notice needs to name it)? */
function validValue(key: string, value: string): boolean {
  if (Object.prototype.hasOwnProperty.call(SETTINGS_BY_KEY, key)) return parseSetting(SETTINGS_BY_KEY[key], value).ok;
  if (key === 'lesson') return !!getLesson(value);
  if (key === 'variant') return value.trim() !== '' && Number.isInteger(Number(value)) && Number(value) >= 0 && Number(value) <= 7;
  if (key === 'backend') return ['cpu', 'webgpu', 'auto'].includes(value);
  if (key === 'classroom') return ['1', '0', 'true', 'false'].includes(value);
  if (key === 'hide') return value.split(',').filter(Boolean).every((k) => Object.prototype.hasOwnProperty.call(SETTINGS_BY_KEY, k));
  return false;
}

describe('address decoder, structured fuzz from a real lab address', () => {
  it('every parameter × every hostile value, deleted, repeated; junk and prototype keys', () => {
    const settings: Settings = { ...defaultSettings(), ...({ numGenerations: 5, beta: 0.04, epsilon: 0.25, task: 'add', dynamicSampling: true, seed: 42, lossType: 'dr_grpo' } as Partial<Settings>) };
    const real = labSearch({ settings, lessonId: 'mixed-groups', lessonVariant: 1, backend: 'cpu', classroom: true, hidden: ['beta', 'epsilon'] });
    const params = [...new URLSearchParams(real)];
    expect(parseLabUrl(real).notices).toEqual([]); // the starting address is good
    const t0 = performance.now();
    let cases = 0;
    let slowest = 0;
    let mostHideLookups = 0;
    const run = (pairs: [string, string][], where: string, mustName: string[]) => {
      const search = `?${new URLSearchParams(pairs)}`;
      const c0 = performance.now();
      const { u, work: w } = decode(search, where); // bounded work: the counts stay under the caps
      slowest = Math.max(slowest, performance.now() - c0);
      mostHideLookups = Math.max(mostHideLookups, w.hideLookups);
      cases++;
      check(u, where);
      const text = u.notices.join('\n');
      const unnamed = mustName.filter((k) => !text.includes(k.slice(0, 40)));
      if (unnamed.length) expect(unnamed, `${where}: ${text}`).toEqual([]);
      return u;
    };
    for (let i = 0; i < params.length; i++) {
      const [key] = params[i];
      for (const v of HOSTILE) {
        const pairs = params.map((p, j): [string, string] => (j === i ? [key, v] : p));
        // a bad value is named in a notice: by the parameter's name, or for a lesson or a control to hide by the value itself
        const named = validValue(key, v) ? [] : [key === 'hide' ? v.split(',').find((k) => k && !validValue('hide', k))! : key === 'lesson' ? v : key];
        run(pairs, `${key}=${JSON.stringify(v.slice(0, 30))}`, named);
        run([...params, [key, v]], `${key} repeated with ${JSON.stringify(v.slice(0, 30))}`, named); // the later one wins, and is checked
      }
      run(params.filter((_, j) => j !== i), `${key} deleted`, []);
    }
    for (const junk of ['zzz', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'BETA', 'beta[]', 'a'.repeat(300), '<b>x</b>', '😀']) {
      for (const v of ['1', '', '{}', 'a'.repeat(5000)]) run([...params, [junk, v]], `junk key ${JSON.stringify(junk.slice(0, 20))}`, [junk]);
    }
    const ms = performance.now() - t0;
    console.log(`address fuzz: ${params.length} parameters, ${cases} cases in ${ms.toFixed(0)} ms; slowest ${slowest.toFixed(1)} ms (for information: speed lives in the bench)`);
    expect(params.length).toBeGreaterThan(8);
    expect(cases).toBeGreaterThan(1000);
    expect(mostHideLookups).toBeGreaterThanOrEqual(MAX_HIDDEN); // hide=beta,beta,… (500 of them) reached the cap, and decode checked no case went past it
  });

  it('huge addresses are bounded: a million characters, ten thousand parameters, fifty thousand controls to hide', () => {
    const t0 = performance.now();
    // decode checks each count against its cap; here each cap is reached, so each is exercised
    const { u: long, work: longWork } = decode(`?beta=0.1&x=${'a'.repeat(1_000_000)}`, 'long');
    check(long, 'long');
    expect(long.notices.join('\n')).toMatch(/longer than/);
    expect(longWork.chars).toBe(MAX_URL_CHARS); // cut before it is parsed
    const { u: many, work: manyWork } = decode(`?${Array.from({ length: 10_000 }, (_, i) => `k${i}=1`).join('&')}`, 'many');
    check(many, 'many');
    expect(many.notices.length).toBeLessThan(20);
    expect(many.notices.join('\n')).toContain(`only the first ${MAX_URL_PARAMS} were read`);
    expect(manyWork.settingPairs).toBe(MAX_URL_PARAMS);
    const { u: hide, work: hideWork } = decode(`?hide=${'beta,'.repeat(50_000)}`, 'hide');
    check(hide, 'hide');
    expect(hide.hidden).toEqual(['beta']);
    expect(hideWork.hideLookups).toBe(MAX_HIDDEN);
    const { u: unknown, work: unknownWork } = decode(`?hide=${Array.from({ length: 5000 }, (_, i) => `zz${i}`).join(',')}`, 'hide unknown');
    check(unknown, 'hide unknown');
    expect(unknown.notices.length).toBeLessThanOrEqual(MAX_HIDDEN + 1); // one per control read, and the cut
    expect(unknownWork.hideLookups).toBe(MAX_HIDDEN);
    console.log(`huge addresses: ${(performance.now() - t0).toFixed(0)} ms (for information)`);
  });

  it('a value that is not a text never throws', () => {
    for (const x of [undefined, null, 5, {}, []]) check(parseLabUrl(x as unknown as string), String(x));
  });
});

describe('the taskSpec parameter (a custom task in the address), structured fuzz', () => {
  /** Real specs: a generated one, a string one with levels, one with a scratchpad, a data one. */
  const REAL: Record<string, unknown>[] = [
    { name: 'fuzz7', title: 'The 7 times table', prompt: '{a}*7=', vars: { a: [0, 99] }, answer: 'a*7' },
    { name: 'fuzzv', prompt: 'v:{w}=', vars: { w: { string: { alphabet: 'abcdeiou', length: [3, 6] } } }, answer: 'count(w, "a") + count(w, "e")', levels: [{ w: { string: { alphabet: 'abcde', length: [3, 3] } } }, {}] },
    { name: 'fuzzds', prompt: 'ds:{a}{b}{c}=', vars: { a: [0, 9], b: [0, 9], c: [0, 9] }, answer: 'a+b+c', scratchpad: ['a', 'a+b', 'a+b+c'] },
    { name: 'fuzzdata', data: Array.from({ length: 60 }, (_, i) => ({ prompt: `n${i}?`, answer: String(i * 7) })) },
  ];
  const VALUES: unknown[] = [null, true, 0, -1, 1.5, 1e308, '', 'x', '<img src=x onerror=alert(1)>', '__proto__', [], [9, 2], [0, 1e15], {}, { choice: [] }, { string: { alphabet: '', length: [0, 0] } }, 'a/0', 'a%0', 'len(a)', '('.repeat(300), 'z'.repeat(5000), new Array(5000).fill(1)];
  function* paths(v: unknown, p: (string | number)[] = []): Generator<(string | number)[]> {
    yield p;
    if (Array.isArray(v)) for (let i = 0; i < Math.min(v.length, 3); i++) yield* paths(v[i], [...p, i]);
    else if (v && typeof v === 'object') for (const k of Object.keys(v)) yield* paths((v as Record<string, unknown>)[k], [...p, k]);
  }
  const setAt = (root: unknown, p: (string | number)[], value: unknown): unknown => {
    if (!p.length) return value;
    const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<string | number, unknown>;
    copy[p[0]] = setAt((root as Record<string | number, unknown>)[p[0]], p.slice(1), value);
    return copy;
  };
  const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

  it('hostile specs (mutated real ones, junk, broken encodings): one sentence naming taskSpec, never a throw, nothing else lost', () => {
    const settings: Settings = { ...defaultSettings(), beta: 0.04, numGenerations: 5, seed: 42 };
    const realSpec = REAL[0];
    const good = new URLSearchParams(labSearch({ settings, lessonId: null, lessonVariant: 0, backend: 'cpu', classroom: true, hidden: ['beta'] }));
    good.set('task', 'spec:fuzz7');
    good.set('taskSpec', b64(JSON.stringify(realSpec)));
    const start = parseLabUrl(`?${good}`);
    expect(start.notices).toEqual([]);
    expect(start.settings.task).toBe('spec:fuzz7');
    const values: [string, string][] = HOSTILE.map((h) => [`junk ${JSON.stringify(h.slice(0, 20))}`, h]);
    for (const spec of REAL) {
      const json = JSON.stringify(spec);
      values.push([`real ${spec.name}`, b64(json)], [`real ${spec.name} as JSON`, json], [`real ${spec.name} cut`, b64(json).slice(0, -7)], [`real ${spec.name} padded`, `${b64(json)}==`]);
      for (const p of paths(spec)) {
        for (const v of VALUES) {
          const text = JSON.stringify(setAt(spec, p, v));
          values.push([`${spec.name}.${p.join('.')}=${JSON.stringify(v)?.slice(0, 20)}`, p.length % 2 ? text : b64(text)]);
        }
        if (p.length) values.push([`${spec.name}.${p.join('.')} key __proto__`, b64(JSON.stringify(setAt(spec, p.slice(0, -1), JSON.parse(`{"__proto__": 1, "constructor": 2}`))))]);
      }
    }
    values.push(['not UTF-8', btoa('\xff\xfe\xfd').replace(/=+$/, '')], ['base64 with + and /', '+/+/'], ['huge', 'A'.repeat(250_000)], ['deep JSON', `${'['.repeat(5000)}${']'.repeat(5000)}`]);
    let cases = 0;
    let refused = 0;
    let slowest = 0;
    let mostRendered = 0;
    const t0 = performance.now();
    for (const [where, v] of values) {
      const q = new URLSearchParams(good);
      q.set('taskSpec', v);
      const c0 = performance.now();
      const { u, work: w } = decode(`?${q}`, where); // bounded work: a valid spec is checked by generating, at most ENUM_LIMIT prompts a level
      slowest = Math.max(slowest, performance.now() - c0);
      mostRendered = Math.max(mostRendered, w.rendered);
      cases++;
      check(u, where);
      const said = u.notices.filter((n) => n.includes('taskSpec'));
      if (Object.keys(u.taskSpecs).length === 0) {
        refused++;
        expect(said.length, `${where}: ${u.notices.join(' | ')}`).toBeGreaterThanOrEqual(1);
        expect(said[0], where).toMatch(/^the task spec in the address \(taskSpec\) was not used: .+[.…]$/);
      } else expect(said, where).toEqual([]);
      // nothing else is lost: the other settings and page options are the good address's
      expect({ ...u.settings, task: 0 }, where).toEqual({ ...start.settings, task: 0 });
      expect([u.backend, u.classroom, u.hidden], where).toEqual([start.backend, start.classroom, start.hidden]);
    }
    const ms = performance.now() - t0;
    console.log(`taskSpec fuzz: ${cases} addresses (${refused} refused with one sentence, ${cases - refused} accepted) in ${ms.toFixed(0)} ms; slowest ${slowest.toFixed(1)} ms (for information); at most ${mostRendered} prompts rendered for one spec`);
    expect(cases).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(400);
    // the string spec's 8^3 + … + 8^6 words are more than ENUM_LIMIT: the enumeration was cut there (decode checked every case against the cap)
    expect(mostRendered).toBeGreaterThan(ENUM_LIMIT);
  });

  it('a custom task named without its spec: one sentence, the task stays the default', () => {
    const u = parseLabUrl('?task=spec%3Anever-registered&beta=0.04');
    check(u, 'unregistered');
    expect(u.settings.task).toBe(defaultSettings().task);
    expect(u.settings.beta).toBe(0.04);
    expect(u.notices).toEqual(['the custom task "spec:never-registered" was not used: the address does not carry its valid spec (taskSpec)']);
  });
});
