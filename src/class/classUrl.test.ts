/** Class mode in the address: class=1 is read and written back; the start gives this browser's seed in class mode only. */
import { describe, expect, it } from 'vitest';
import { labSearch, parseLabUrl } from '../store/url.ts';
import { drawClassSeed, withClassSeed } from './local.ts';

describe('class mode in the address', () => {
  it('class=1 is read, kept in the address, and a bad value is one notice', () => {
    const u = parseLabUrl('?class=1&lesson=mixed-groups&variant=1');
    expect(u.classMode).toBe(true);
    expect(labSearch(u)).toContain('class=1');
    expect(parseLabUrl(labSearch(u)).classMode).toBe(true);
    expect(parseLabUrl('?lesson=mixed-groups').classMode).toBe(false);
    expect(labSearch(parseLabUrl('?lesson=mixed-groups'))).not.toContain('class=');
    const bad = parseLabUrl('?class=maybe');
    expect(bad.classMode).toBe(false);
    expect(bad.notices.join(' ')).toContain('class mode is off');
  });

  it('class mode gives this browser\'s seed (over the address\'s); the teacher\'s page keeps its own', () => {
    expect(parseLabUrl(withClassSeed('?class=1&lesson=mixed-groups', () => 4127)).settings.seed).toBe(4127);
    expect(parseLabUrl(withClassSeed('?class=1&seed=9', () => 4127)).settings.seed).toBe(4127);
    expect(parseLabUrl(withClassSeed('?lesson=mixed-groups', () => 4127)).settings.seed).toBe(1);
    expect(withClassSeed('?class=0&seed=9', () => 4127)).toBe('?class=0&seed=9');
    for (const r of [0, 0.5, 0.999999]) expect(drawClassSeed(() => r)).toBeGreaterThanOrEqual(2);
    expect(drawClassSeed(() => 0.9999999)).toBeLessThanOrEqual(99_999);
  });
});
