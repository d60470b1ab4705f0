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
