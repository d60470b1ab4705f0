/**
 * Structured fuzz of the address decoder (parseLabUrl). Start from a REAL lab address (labSearch
 * of a state with a lesson, a variant, a backend, classroom mode, hidden controls and settings
 * that differ from the defaults), replace every parameter's value with hostile texts, delete it,
 * repeat it, and add junk and prototype keys. parseLabUrl never refuses an address: it must
 * never throw, always return valid settings and page options, name every bad parameter in a
 * notice, and say it in a short sentence (never a raw JavaScript message), quickly.
 */
import { describe, expect, it } from 'vitest';
import { getLesson } from '../rl/lessons.ts';
import { defaultSettings, parseSetting, SETTINGS, SETTINGS_BY_KEY, type Settings } from '../rl/settings.ts';
import { labSearch, MAX_URL_PARAMS, parseLabUrl, type LabUrlState } from './url.ts';

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
    const run = (pairs: [string, string][], where: string, mustName: string[]) => {
      const search = `?${new URLSearchParams(pairs)}`;
      const c0 = performance.now();
      let u: LabUrlState;
      try {
        u = parseLabUrl(search);
      } catch (e) {
        throw new Error(`${where}: threw ${String(e)}`);
      }
      slowest = Math.max(slowest, performance.now() - c0);
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
    console.log(`address fuzz: ${params.length} parameters, ${cases} cases in ${ms.toFixed(0)} ms; slowest ${slowest.toFixed(1)} ms`);
    expect(params.length).toBeGreaterThan(8);
    expect(cases).toBeGreaterThan(1000);
    expect(slowest).toBeLessThan(250);
  });

  it('huge addresses are bounded: a million characters, ten thousand parameters', () => {
    const t0 = performance.now();
    const long = parseLabUrl(`?beta=0.1&x=${'a'.repeat(1_000_000)}`);
    check(long, 'long');
    expect(long.notices.join('\n')).toMatch(/longer than/);
    const many = parseLabUrl(`?${Array.from({ length: 10_000 }, (_, i) => `k${i}=1`).join('&')}`);
    check(many, 'many');
    expect(many.notices.length).toBeLessThan(20);
    expect(many.notices.join('\n')).toContain(`only the first ${MAX_URL_PARAMS} were read`);
    const hide = parseLabUrl(`?hide=${'beta,'.repeat(50_000)}`);
    check(hide, 'hide');
    expect(hide.hidden).toEqual(['beta']);
    expect(performance.now() - t0).toBeLessThan(1000);
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
    const t0 = performance.now();
    for (const [where, v] of values) {
      const q = new URLSearchParams(good);
      q.set('taskSpec', v);
      const c0 = performance.now();
      let u: LabUrlState;
      try {
        u = parseLabUrl(`?${q}`);
      } catch (e) {
        throw new Error(`${where}: threw ${String(e)}`);
      }
      slowest = Math.max(slowest, performance.now() - c0);
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
    console.log(`taskSpec fuzz: ${cases} addresses (${refused} refused with one sentence, ${cases - refused} accepted) in ${ms.toFixed(0)} ms; slowest ${slowest.toFixed(1)} ms`);
    expect(cases).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(400);
    expect(slowest).toBeLessThan(1000); // a valid spec is checked by generating (as spec.fuzz.test.ts bounds it): about 0.1 s on a loaded 2-core machine
  });

  it('a custom task named without its spec: one sentence, the task stays the default', () => {
    const u = parseLabUrl('?task=spec%3Anever-registered&beta=0.04');
    check(u, 'unregistered');
    expect(u.settings.task).toBe(defaultSettings().task);
    expect(u.settings.beta).toBe(0.04);
    expect(u.notices).toEqual(['the custom task "spec:never-registered" was not used: the address does not carry its valid spec (taskSpec)']);
  });
});
