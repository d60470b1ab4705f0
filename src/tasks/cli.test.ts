// The verify CLI end to end (three spawns of `npx tsx scripts/verify.ts`): sampling, a file of
// good, hostile and malformed lines, and an unknown task.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function cli(args: string[], input = '') {
  const r = spawnSync('npx', ['tsx', 'scripts/verify.ts', ...args], { input, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('verify CLI', () => {
  it('samples, verifies good/hostile/malformed lines, and exits 1 on malformed ones', () => {
    const s = cli(['--sample', '4', '--task', 'reverse', '--seed', '3', '--difficulty', '2', '--split', 'heldout']);
    expect(s.code).toBe(0);
    const sampled = s.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(sampled).toHaveLength(4);
    for (const x of sampled) {
      expect(x).toMatchObject({ task: 'reverse', difficulty: 2, split: 'heldout' });
      expect(x.answer).toBe([...x.prompt.slice(2, -1)].reverse().join(''));
    }
    const lines = [
      ...sampled.map((x) => JSON.stringify({ prompt: x.prompt, response: x.answer })), // good: lines 1-4
      JSON.stringify({ prompt: '12+34=', response: '46 or 47' }), // 5 malformed: no task field, and not a reverse prompt
      '{"prompt": "12+34=", "response": ', // 6 malformed JSON
      JSON.stringify({ task: 'add', prompt: '12+34=', response: '<script>46</script>' }), // 7 hostile
      JSON.stringify({ prompt: 'r:abc=', response: 'x'.repeat(10_000) }), // 8 hostile, long
      JSON.stringify({ prompt: 'r:abc=' }), // 9 malformed: no response
      JSON.stringify({ task: 'add', prompt: '12+34=', response: ' 46 ' }), // 10 good, unusual form
    ];
    const r = cli(['--task', 'reverse'], lines.join('\n') + '\n');
    expect(r.code).toBe(1);
    const out = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(10);
    for (let i = 0; i < 4; i++) expect(out[i]).toMatchObject({ line: i + 1, task: 'reverse', correct: true, reward: 1, verifierVersion: 'reverse@1' });
    // Line 5 has no task field, so it is graded as reverse: "12+34=" is not a reverse prompt.
    expect(out[4]).toEqual({ line: 5, error: expect.stringMatching(/^line 5: task reverse: malformed prompt/) });
    expect(out[5]).toEqual({ line: 6, error: 'line 6: not valid JSON' });
    expect(out[6]).toMatchObject({ line: 7, task: 'add', correct: false, formatOk: false, reward: 0 });
    expect(out[7]).toMatchObject({ line: 8, correct: false, formatOk: false, reason: 'answer too long' });
    expect(out[8]).toEqual({ line: 9, error: 'line 9: "response" must be a string' });
    expect(out[9]).toMatchObject({ line: 10, task: 'add', correct: true });
    expect(r.err).toMatch(/3 malformed line\(s\) of 10/);
  });

  it('an unknown task is one clear sentence and exit 2', () => {
    const r = cli(['--task', 'nope'], '{"prompt":"1+1=","response":"2"}\n');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trim()).toBe('verify: unknown task "nope"; valid tasks: add, sub, mul, chain, digitsum, modsum, countdown, reverse, sort, count, palindrome, dedup, shift.');
  });

  it('--task-file: samples and verifies a custom task; a refused spec is one sentence and exit 2', () => {
    const s = cli(['--task-file', 'public/tasks/times7.json', '--sample', '3', '--seed', '2', '--split', 'heldout']);
    expect(s.code, s.err).toBe(0);
    const sampled = s.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(sampled).toHaveLength(3);
    for (const x of sampled) {
      expect(x).toMatchObject({ task: 'spec:times7', difficulty: 1, split: 'heldout' });
      expect(x.answer).toBe(String(Number(x.prompt.split('*')[0]) * 7));
    }
    const lines = [JSON.stringify({ prompt: sampled[0].prompt, response: sampled[0].answer }), JSON.stringify({ prompt: '12*7=', response: '084' }), JSON.stringify({ prompt: '1234*7=', response: '8638' })];
    const r = cli(['--task-file', 'public/tasks/times7.json'], lines.join('\n') + '\n');
    expect(r.code).toBe(1);
    const out = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(out[0]).toMatchObject({ line: 1, task: 'spec:times7', correct: true, reward: 1, verifierVersion: 'spec:times7@1' });
    expect(out[1]).toMatchObject({ line: 2, correct: false, formatOk: false, reason: 'not an integer in canonical form (leading zero)' });
    expect(out[2]).toEqual({ line: 3, error: 'line 3: task spec:times7: malformed prompt "1234*7="; expected "{a}*7=" with the variables in their ranges' });
    const bad = cli(['--task-file', 'package.json']);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe('');
    expect(bad.err.trim()).toBe('verify: task file package.json refused: spec: the key "version" is not part of a task spec (the keys are name, title, prompt, vars, answer, scratchpad, levels, data).');
  });
});
