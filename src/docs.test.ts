// The README is what a teacher reads in ten minutes: at most 3,000 words, the class session plan
// ("Teach a class with it") within its first 150 lines, and the reference in docs/. Every relative
// link in README.md and docs/*.md points to a file that exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

/** A Markdown file's link targets, outside code (fenced blocks and `inline code`). */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

describe('README and docs', () => {
  it('the README is at most 3,000 words (as wc -w counts them)', () => {
    const words = readme.split(/\s+/).filter(Boolean).length;
    console.log(`README.md: ${words} words`);
    expect(words).toBeLessThanOrEqual(3000);
  });

  it('"Teach a class with it" is a heading within the README\'s first 150 lines', () => {
    const line = readme.split('\n').findIndex((l) => /^#{2,3} Teach a class with it\s*$/.test(l)) + 1;
    expect(line).toBeGreaterThan(0);
    expect(line).toBeLessThanOrEqual(150);
  });

  it('every relative link in README.md and docs/*.md points to an existing file', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const f of docs) {
      for (const target of linkTargets(readFileSync(join(root, f), 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue; // https:, mailto:, an anchor in the same file
        const path = join(root, dirname(f), decodeURI(target.replace(/#.*$/, '')));
        checked++;
        if (!existsSync(path)) broken.push(`${f} → ${target} (${relative(root, path)})`);
      }
    }
    expect(checked).toBeGreaterThan(15); // the README's picture and its table of docs at least
    expect(broken).toEqual([]);
  });
});
