// The expression language: precedence, integer semantics (truncating division, remainder with
// the dividend's sign), the concatenation rule, every function, the static types, and the
// errors (where an expression stops parsing, division by zero, bounds).
import { describe, expect, it } from 'vitest';
import { LanguageError, evaluate, parseExpression, typeOf, valueText, variablesOf, type Type, type Value } from './language.ts';

const env = new Map<string, Value>([['a', 7], ['b', -2], ['z', 0], ['w', 'banana'], ['e', ''], ['d', 'c3']]);
const types = new Map<string, Type>([['a', { t: 'int' }], ['b', { t: 'int' }], ['z', { t: 'int' }], ['w', { t: 'str', letters: true }], ['e', { t: 'str', letters: true }], ['d', { t: 'str', letters: false }]]);
const run = (src: string) => {
  const n = parseExpression(src);
  typeOf(n, types);
  return evaluate(n, env);
};
const error = (src: string) => {
  try {
    run(src);
  } catch (e) {
    if (e instanceof LanguageError) return `${e.kind}: ${e.message}`;
    throw e;
  }
  return 'no error';
};

describe('expression language', () => {
  it('integers: precedence, parentheses, unary minus, truncating division and the remainder', () => {
    const cases: [string, Value][] = [
      ['a*7', 49], ['1+2*3', 7], ['(1+2)*3', 9], ['10-4-3', 3], ['2*3%4', 2], ['-a', -7], ['--a', 7], ['-a*-b', -14], [' a  +  b ', 5],
      ['7/2', 3], ['-7/2', -3], ['7/-2', -3], ['-7/-2', 3], ['7%2', 1], ['-7%2', -1], ['7%-2', 1], ['a/b*b+a%b', 7], ['0/5', 0], ['-0', 0],
      ['min(a, b)', -2], ['max(a, b, 100, 3)', 100], ['abs(b)', 2], ['abs(-a)', 7], ['min(3,3)', 3], ['9999999999', 9999999999],
    ];
    for (const [src, want] of cases) expect(run(src), src).toBe(want);
    expect(valueText(run('-0') as number)).toBe('0');
    expect(valueText(run('z*-1') as number)).toBe('0'); // never "-0"
  });

  it('strings: len, reverse, sort, count, first, last, and "+" concatenates as soon as a string is involved', () => {
    const cases: [string, Value][] = [
      ['len(w)', 6], ['len(e)', 0], ['reverse(w)', 'ananab'], ['sort(w)', 'aaabnn'], ['sort(d)', '3c'], ['count(w, "a")', 3], ['count(w, "an")', 2], ['count("aaaa", "aa")', 2],
      ['count(w, "x")', 0], ['first(w)', 'b'], ['last(w)', 'a'], ['w + "s"', 'bananas'], ['"" + a', '7'], ['a + "x"', '7x'], ['b + "x"', '-2x'], ['1 + 2 + "a"', '3a'],
      ['"a" + 1 + 2', 'a12'], ['"a" + (1 + 2)', 'a3'], ['len(w) + len(e)', 6], ['reverse(first(w) + last(w))', 'ab'], ['""', ''],
    ];
    for (const [src, want] of cases) expect(run(src), src).toBe(want);
  });

  it('static types: letters-only strings are tracked; a number where a string is needed (or back) is refused', () => {
    const t = (src: string) => typeOf(parseExpression(src), types);
    expect(t('a+1')).toEqual({ t: 'int' });
    expect(t('reverse(w)')).toEqual({ t: 'str', letters: true });
    expect(t('w + "x"')).toEqual({ t: 'str', letters: true });
    expect(t('w + 1')).toEqual({ t: 'str', letters: false });
    expect(t('sort(d)')).toEqual({ t: 'str', letters: false });
    expect(t('count(w, "a")')).toEqual({ t: 'int' });
    expect([...variablesOf(parseExpression('a + len(w) * max(b, a)'))].sort()).toEqual(['a', 'b', 'w']);
  });

  it('errors say where and why', () => {
    const cases: [string, string][] = [
      ['a*(7', 'parse: expected ")" at the end'],
      ['a*', 'parse: the expression ends where a value was expected'],
      ['a 7', 'parse: unexpected "7" at character 3'],
      ['a ^ 2', 'parse: unexpected character "^" at character 3'],
      ['a × 2', 'parse: unexpected character U+00D7 at character 3'],
      ['"abc', 'parse: the text that starts at character 1 has no closing quote'],
      ['"ABC"', 'parse: the text at character 1 has a character outside the vocabulary (digits, a-z, "+-*/=(),?:" and space)'],
      ['12345678901', 'parse: the number at character 1 has more than 10 digits'],
      ['min(1,2,3,4,5,6,7,8,9)', 'parse: min at character 1 has more than 8 arguments'],
      ['(((((((((((((((((((a)))))))))))))))))))', 'parse: the expression nests deeper than 16 levels at character 18'],
      ['x+1', 'type: unknown variable "x" at character 1 (the variables are a, b, z, w, e, d)'],
      ['sqrt(a)', 'type: unknown function "sqrt" at character 1 (the functions are min, max, abs, len, reverse, sort, first, last, count)'],
      ['w*2', 'type: "*" at character 2 needs numbers on both sides, but its left side is a string'],
      ['-w', 'type: "-" at character 1 needs a number, but gets a string'],
      ['len(a)', 'type: len at character 1 needs strings, but argument 1 is a number'],
      ['abs(a, b)', 'type: abs at character 1 takes 1 argument, got 2'],
      ['min(a)', 'type: min at character 1 takes 2 to 8 arguments, got 1'],
      ['a/z', 'eval: division by zero at character 2'],
      ['a%(b+2)', 'eval: remainder by zero at character 2'],
      ['first(e)', 'eval: first of an empty string at character 1'],
      ['count(w, e)', 'eval: count of an empty string at character 1'],
      ['9999999999*9999999999', 'eval: a number grows past 10^15 at character 11'],
      ['w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w+w', 'eval: a string grows past 256 characters at character 84'],
    ];
    for (const [src, want] of cases) expect(error(src), src).toBe(want);
    expect(() => parseExpression('a+'.repeat(101) + 'a')).toThrow('the expression is 203 characters long, at most 200 are allowed');
    expect(() => parseExpression(42)).toThrow('an expression must be text');
  });

  it('never runs JavaScript: code-looking input is an unknown name or a parse error', () => {
    for (const src of ['constructor', 'this', 'process.exit(1)', 'eval("1")', 'Function("x")', 'a.constructor', '__proto__', 'globalThis', '`a`', 'a;b', '[1]']) {
      expect(error(src), src).toMatch(/^(parse|type): /);
    }
  });
});
