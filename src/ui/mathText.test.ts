/** The lesson texts' symbols as math (issue 48.4): sub- and superscripts, never "_" or "^" on a student's screen. */
import { describe, expect, it } from 'vitest';
import { LESSONS } from '../rl/lessons.ts';
import { chartList } from '../store/chartNames.ts';
import { mathParts, type MathPart } from './mathText.ts';

/** What a screen shows as text, marks aside: the plain parts joined. */
const plain = (parts: MathPart[]) => parts.filter((p): p is string => typeof p === 'string').join('');

describe('mathParts', () => {
  it('sets lesson 2\'s |o_i| and lesson 8\'s (1 − w)·r_outcome as subscripts', () => {
    expect(mathParts('over its own length |o_i|: in a group')).toEqual(['over its own length |o', { sub: 'i' }, '|: in a group']);
    expect(mathParts('earns (1 − w)·r_outcome + w·(share')).toEqual(['earns (1 − w)·r', { sub: 'outcome' }, ' + w·(share']);
  });

  it('sets powers as superscripts, after a letter (with its accent) or a parenthesis; Greek letters take subscripts', () => {
    expect(mathParts('P(mixed) = 1 − p^G − (1 − p)^G.')).toEqual(['P(mixed) = 1 − p', { sup: 'G' }, ' − (1 − p)', { sup: 'G' }, '.']);
    expect(mathParts('1 − p̄^G')).toEqual(['1 − p̄', { sup: 'G' }]);
    expect(mathParts('k3 = e^d − d − 1')).toEqual(['k3 = e', { sup: 'd' }, ' − d − 1']);
    expect(mathParts('KL(π_θ ‖ π_ref)')).toEqual(['KL(π', { sub: 'θ' }, ' ‖ π', { sub: 'ref' }, ')']);
  });

  it('leaves words, identifiers and plain text alone', () => {
    expect(mathParts('no symbols here.')).toEqual(['no symbols here.']);
    expect(mathParts('frac_mixed')).toEqual(['frac_mixed']); // not a symbol: a field name (never meant for a student's screen)
    expect(mathParts('')).toEqual([]);
  });

  it('every lesson\'s text a student reads keeps no "_", "^" or backtick once set', () => {
    const texts = LESSONS.flatMap((l) => [l.title, l.watch, chartList(l.charts), l.contrast?.what ?? '', ...l.variants.flatMap((v) => [v.label, v.short ?? '', v.claim.text, v.claim.number.what])]);
    const left = texts.flatMap((t) => (/[_^`]/.test(plain(mathParts(t))) ? [t] : []));
    expect(left).toEqual([]);
    // and the two the issue names are among those set
    const set = LESSONS.flatMap((l) => mathParts(l.watch).filter((p) => typeof p !== 'string'));
    expect(set).toContainEqual({ sub: 'i' });
    expect(set).toContainEqual({ sub: 'outcome' });
  });
});
