// The numbers the README and docs/ state about the lessons, read against the code (issue 48, item 8):
//   - every verdict step and step range stated in current text (a sentence or table row about a
//     verdict, "Play runs to step N", "N steps each", "A to B steps") is the named lesson's
//     `claim.steps` (src/rl/lessons.ts), or some lesson's where none is named;
//   - docs/lessons.md's "Verdict steps" table lists every lesson with its step;
//   - docs/classroom.md's lesson-time table (the table `npm run lesson-times -- --all-variants`
//     prints, between its marks) was measured at each variant's current verdict step, and the
//     README's summary of it (one step, a lesson run, lesson 1 at each G) is read from it; any
//     other time the README gives is quoted from a doc that states it, and a docs sentence that times
//     a lesson's run from Play to the verdict quotes that table;
//   - the README's picture caption names the lesson and step the picture shows (docs/lab-run.json,
//     written with it by `npm run screenshots`), and that is the lesson's verdict step.
// History is not current text: docs/lessons.md's lab notebook and any passage between
// <!-- history --> and <!-- /history --> keep the numbers they were written with.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LESSONS } from './rl/lessons.ts';

const root = join(import.meta.dirname, '..');
const read = (f: string) => readFileSync(join(root, f), 'utf8');
const FILES = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** Each lesson's verdict step (lesson n at index n − 1): every variant's, which the contract makes one. */
const STEP = LESSONS.map((l) => l.variants[0].claim.steps);
const ALL_STEPS = new Set(STEP);

/** The text a doc states as current: no code, no history passages, no lesson-time table (checked on its own). */
export function currentText(md: string): string {
  return md
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/^ {4}\S.*$/gm, '') // indented code
    .replace(/<!-- history\b[\s\S]*?(<!-- \/history -->|$(?![\s\S]))/g, '')
    .replace(/<!-- lesson-times\b[\s\S]*?<!-- \/lesson-times -->/g, '')
    .replace(/`[^`\n]*`/g, 'CODE');
}

/** Sentences and table rows: a table row is one unit, a paragraph or list item is split into sentences. */
export function units(text: string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\n\s*\n|\n(?=\s*(?:[-*] |\d+\. |#))/)) {
    const lines = block.split('\n');
    out.push(...lines.filter((l) => l.trimStart().startsWith('|')));
    const prose = lines.filter((l) => !l.trimStart().startsWith('|')).join(' ').replace(/\s+/g, ' ').trim();
    if (prose) out.push(...prose.split(/(?<=[.!?])\s+(?=[A-Z“"(*[])/));
  }
  return out;
}

/** A unit about a lesson's verdict step: said outright, or "verdict"/"judged" beside a lesson's number (a chart's "verdict marks" are not). */
const VERDICT_STEP = /verdict (?:step|comes|at)|judged (?:at|once)|(?:at|to|after) (?:its|the) verdict|Play runs to|Play stops|steps each|lesson runs|\d+ to \d+ steps|number of steps/i;
const VERDICT_WORD = /\bverdicts?\b|\bjudged\b/i;

/** The lessons a unit names: "lesson 4", "lessons 1, 6 and 4", "Lesson 6,". */
export function lessonsNamed(u: string): number[] {
  const out = new Set<number>();
  for (const m of u.matchAll(/\blessons? (\d+(?:(?:, | and | or )\d+)*)/gi)) for (const n of m[1].split(/, | and | or /)) out.add(Number(n));
  return [...out].filter((n) => n >= 1 && n <= LESSONS.length);
}

/** Every verdict-step statement in current text that disagrees with the code, as "file: what it says (what the code says)". */
export function staleSteps(file: string, md: string): string[] {
  const bad: string[] = [];
  const lo = Math.min(...STEP), hi = Math.max(...STEP);
  for (const u of units(currentText(md))) {
    const named = lessonsNamed(u);
    if (!VERDICT_STEP.test(u) && !(named.length && VERDICT_WORD.test(u))) continue;
    let rest = u;
    for (const m of u.matchAll(/\b(\d+) to (\d+)(?=\)| steps|;)/g)) {
      if (Number(m[1]) !== lo || Number(m[2]) !== hi) bad.push(`${file}: "${u}" says ${m[0]} steps; the lessons run ${lo} to ${hi}`);
      rest = rest.replace(m[0], '');
    }
    const allowed = named.length ? new Set(named.map((n) => STEP[n - 1])) : ALL_STEPS;
    const said = [...rest.matchAll(/\bstep (\d+)\b|\b(\d+)(?:-step\b| steps?\b)(?! or (?:more|fewer|less))/gi)].map((m) => Number(m[1] ?? m[2])).filter((n) => n > 0);
    for (const n of said) {
      if (!allowed.has(n)) bad.push(`${file}: "${u}" says step ${n}; ${named.length ? named.map((l) => `lesson ${l}'s verdict step is ${STEP[l - 1]}`).join(', ') : `no lesson's verdict step is ${n}`}`);
    }
  }
  return bad;
}

interface TimeRow { lesson: number; id: string; variant: string; steps: number; times: Record<string, { s: number; ms: number }> }

/** docs/classroom.md's lesson-time table, between its marks. */
export function lessonTimes(md: string): { engines: string[]; rows: TimeRow[] } {
  const block = md.match(/<!-- lesson-times\b[^\n]*-->([\s\S]*?)<!-- \/lesson-times -->/);
  if (!block) throw new Error('docs/classroom.md has no <!-- lesson-times … --> … <!-- /lesson-times --> table');
  const lines = block[1].split('\n').filter((l) => l.startsWith('|'));
  const cells = (l: string) => l.split('|').slice(1, -1).map((c) => c.trim());
  const engines = cells(lines[0]).slice(3);
  const rows = lines.slice(2).map((l) => {
    const [lesson, variant, steps, ...t] = cells(l);
    const m = lesson.match(/^(\d+)\. (\S+)$/);
    if (!m) throw new Error(`lesson-time row "${l}": its lesson is not "N. id"`);
    const times = Object.fromEntries(t.map((c, i) => {
      const x = c.match(/^(\d+(?:\.\d+)?) s \((\d+) ms\)$/);
      if (!x) throw new Error(`lesson-time row "${l}": "${c}" is not "S s (MS ms)"`);
      return [engines[i], { s: Number(x[1]), ms: Number(x[2]) }];
    }));
    return { lesson: Number(m[1]), id: m[2], variant, steps: Number(steps), times };
  });
  return { engines, rows };
}

/** "0.2–1.7 s" from 214 … 1729 ms a step; "6–46 s" from 6.4 … 46.3 s; one figure where both round alike. */
const span = (xs: number[], f: (x: number) => string) => {
  const a = f(Math.min(...xs)), b = f(Math.max(...xs));
  return a === b ? `${a} s` : `${a}–${b} s`;
};
const TIME = /\b\d+(?:\.\d+)?(?:–\d+(?:\.\d+)?)? (?:ms|s)\b/g;

describe('the docs\' numbers are the code\'s', () => {
  it('every lesson shares one verdict step across its variants (the premise of "a lesson runs N steps")', () => {
    expect(LESSONS.filter((l) => new Set(l.variants.map((v) => v.claim.steps)).size > 1).map((l) => l.id)).toEqual([]);
  });

  it('every verdict step and step range stated in README.md and docs/*.md is the code\'s', () => {
    const bad = FILES.flatMap((f) => staleSteps(f, read(f)));
    expect(bad).toEqual([]);
  });

  it('the scanner reads the statements it must (a stale one goes red)', () => {
    const l1 = STEP[0], l4 = STEP[3];
    expect(staleSteps('x', `Each lesson fixes its number of steps (${Math.min(...STEP)} to ${Math.max(...STEP)}). Play stops there by itself; the card says so (lesson 1: "Play runs to step ${l1} and stops").`)).toEqual([]);
    expect(staleSteps('x', `the card says so (lesson 1: "Play runs to step ${l1 + 10} and stops")`)).toHaveLength(1);
    expect(staleSteps('x', `Lesson 1's verdict comes at step 50.`)).toHaveLength(STEP[0] === 50 ? 0 : 1);
    expect(staleSteps('x', `| 36–45 | **Lesson 4, a weak verifier.** Predict, run both (${l4 + 5} steps each), share. | students |`)).toHaveLength(1);
    expect(staleSteps('x', `A lesson runs 10 to 50 steps.`)).toHaveLength(Math.max(...STEP) === 50 && Math.min(...STEP) === 10 ? 0 : 1);
    expect(staleSteps('x', `Lesson 1 was judged at step 7. <!-- history -->Lesson 1 was judged at step 7.<!-- /history -->`)).toHaveLength(1); // history is not read
    expect(staleSteps('x', 'Lesson 1, G = 8, steps 0–7, seeds 1–2: J > 0 after all three steps in 8 of 8 steps.')).toEqual([]); // no verdict: a measurement
  });

  it('docs/lessons.md\'s "Verdict steps" table lists every lesson with its verdict step', () => {
    const md = read('docs/lessons.md');
    const section = md.slice(md.indexOf('## Verdict steps'), md.indexOf('\n## ', md.indexOf('## Verdict steps') + 3));
    const rows = [...section.matchAll(/^\| (\d+)\. (\S+) \| (\d+) \|$/gm)].map((m) => `${m[1]}. ${m[2]}: ${m[3]}`);
    expect(rows).toEqual(LESSONS.map((l, i) => `${i + 1}. ${l.id}: ${STEP[i]}`));
  });

  it('docs/classroom.md\'s lesson-time table was measured at every variant\'s current verdict step', () => {
    const { engines, rows } = lessonTimes(read('docs/classroom.md'));
    expect(engines).toEqual(['CPU reference', 'WebGPU']);
    // one row per variant, in the lessons' order (the variant names are the script's at the time; the step is what makes a time stale)
    expect(rows.map((r) => `${r.lesson}. ${r.id}`)).toEqual(LESSONS.flatMap((l, i) => l.variants.map(() => `${i + 1}. ${l.id}`)));
    const stale = rows.filter((r) => r.steps !== STEP[r.lesson - 1]).map((r) => `${r.lesson}. ${r.id} (${r.variant}) was timed over ${r.steps} steps; its verdict is at step ${STEP[r.lesson - 1]}: run npm run lesson-times -- --all-variants and paste its table`);
    expect(stale).toEqual([]);
    for (const r of rows) for (const t of Object.values(r.times)) expect(Math.abs(t.ms - (1000 * t.s) / r.steps)).toBeLessThanOrEqual((50 / r.steps) + 1); // the table's own arithmetic
  });

  it('the README\'s lesson times are read from that table, and its other times quoted from the docs', () => {
    const { rows } = lessonTimes(read('docs/classroom.md'));
    const readme = currentText(read('README.md'));
    const derived = new Set<string>();
    const expectRow = (marker: string, engine: string) => {
      const row = readme.split('\n').find((l) => l.startsWith('|') && l.includes(marker));
      expect(row, `the README's time table has a row for ${marker}`).toBeDefined();
      const [, step, run, lesson1] = row!.split('|').slice(1, -1).map((c) => c.trim());
      const want = {
        step: span(rows.map((r) => r.times[engine].ms / 1000), (x) => x.toFixed(1)),
        run: span(rows.map((r) => r.times[engine].s), (x) => x.toFixed(0)),
        lesson1: rows.filter((r) => r.lesson === 1).map((r) => `${r.times[engine].s.toFixed(0)} s`).join(', '),
      };
      expect({ step, run, lesson1 }).toEqual(want);
      for (const c of [step, run, lesson1]) for (const m of c.matchAll(TIME)) derived.add(m[0]);
    };
    expectRow('SwiftShader', 'WebGPU');
    expectRow('CPU reference', 'CPU reference');
    // lesson 1's column names its variants: G = 2, 8, 16
    expect(readme).toContain(`lesson 1 (${STEP[0]} steps) at ${LESSONS[0].variants.map((v) => v.label.replace('G = ', '')).join(', ').replace(/^/, 'G = ')}`);
    const docs = FILES.filter((f) => f !== 'README.md').map(read).join('\n');
    const unsourced = [...readme.matchAll(TIME)].map((m) => m[0]).filter((t) => !derived.has(t) && !docs.includes(t));
    expect(unsourced).toEqual([]);
    expect(readme).not.toMatch(/minutes? (?:a|per) lesson/); // the table's seconds are the lesson's time
  });

  it('a docs sentence that times a lesson\'s run from Play to the verdict quotes the table', () => {
    const { rows } = lessonTimes(read('docs/classroom.md'));
    const bad: string[] = [];
    for (const f of FILES.filter((x) => x !== 'README.md')) {
      for (const u of units(currentText(read(f)))) {
        if (!/Play to the\s+verdict/.test(u) || u.startsWith('|')) continue;
        const named = lessonsNamed(u);
        if (named.length !== 1) continue;
        const known = new Set(rows.filter((r) => r.lesson === named[0]).flatMap((r) => Object.values(r.times).flatMap((t) => [`${t.s.toFixed(1)} s`, `${t.s.toFixed(0)} s`])));
        for (const m of u.matchAll(/\b\d+(?:\.\d+)? s\b/g)) if (!known.has(m[0])) bad.push(`${f}: "${u}" gives lesson ${named[0]} ${m[0]}, not in the lesson-time table`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the README\'s picture caption names the lesson and step the picture shows, and that is the lesson\'s verdict step', () => {
    const shown = JSON.parse(read('docs/lab-run.json')) as { lesson: number; lessonId: string; variant: number; backend: string; step: number };
    expect(LESSONS[shown.lesson - 1].id).toBe(shown.lessonId);
    expect(shown.step).toBe(LESSONS[shown.lesson - 1].variants[shown.variant].claim.steps); // else: npm run screenshots
    const caption = read('README.md').match(/!\[([^\]]*)\]\(docs\/lab-run\.png\)/)![1];
    const m = caption.match(/^Lesson (\d+) just after its verdict \(step (\d+), (WebGPU|CPU)\)/);
    expect(m, caption).not.toBeNull();
    expect([Number(m![1]), Number(m![2]), m![3]]).toEqual([shown.lesson, shown.step, shown.backend === 'webgpu' ? 'WebGPU' : 'CPU']);
    const gif = read('README.md').match(/!\[([^\]]*)\]\(docs\/lab-run\.gif\)/)![1];
    expect(gif).toMatch(new RegExp(`^Lesson ${shown.lesson}'s run to its verdict`));
  });
});
