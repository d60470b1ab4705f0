/**
 * The verify CLI: the lab's strict (or weak) verifiers on JSONL, and seeded samples of any
 * task with the reference answer, so anyone can build and audit their own cases.
 *
 *   npm run verify -- --task ID [--weak NAME]      < cases.jsonl   (one verdict line per line)
 *   npm run verify -- --list                                        (tasks and answer specs)
 *   npm run verify -- --sample N [--task ID] [--seed S] [--difficulty D] [--split train|heldout]
 *   npm run verify -- --task-file spec.json [--sample N …]      (a custom task, docs/custom-tasks.md)
 *
 * Input lines are { "prompt": ..., "response": ... }, optionally with "task" (which then
 * overrides --task, so a mixed file such as data/adversarial/strings.jsonl can be piped in).
 * Output lines are { "line", "task", "reward", "correct", "formatOk", "reason", "verifierVersion" };
 * a malformed line gets { "line", "error" } instead and the run continues. Blank lines are skipped.
 * --task-file validates a task spec (one sentence and exit 2 when it is refused), registers it as
 * spec:<name> and uses it where --task would name a task.
 * Exit codes: 0 all lines verified, 1 some line malformed, 2 bad arguments, unknown task or refused spec.
 * Run directly with `npx tsx scripts/verify.ts ...`.
 */
import { createInterface } from 'node:readline';
import { Rng } from '../src/model/rng.ts';
import { readFileSync } from 'node:fs';
import { TASKS, WEAK_VERIFIERS, getTask, getWeakVerifier, registerTask } from '../src/tasks/registry.ts';
import { parseSpecText } from '../src/tasks/spec/data.ts';
import { taskFromSpec } from '../src/tasks/spec/task.ts';
import { isHeldOut, samplePrompts, type Split } from '../src/tasks/split.ts';
import type { Task, Verdict } from '../src/tasks/types.ts';

const USAGE = `usage:
  verify --task ID [--weak NAME]   read JSONL {"prompt","response"[,"task"]} on stdin, write one verdict per line
  verify --list                    list tasks with their answer specs, and the weak verifiers
  verify --sample N [--task ID] [--seed S] [--difficulty D] [--split train|heldout]
                                   write N JSONL lines {"task","prompt","answer"} per task
  --task-file spec.json            a custom task spec instead of --task ID (verify or --sample)`;

/** Bad arguments (exit 2); `showUsage` is false for an unknown task, which is one sentence. */
class UsageError extends Error {
  constructor(message: string, readonly showUsage = true) {
    super(message);
  }
}

function parseArgs(argv: string[]): Map<string, string | true> {
  const out = new Map<string, string | true>();
  const flags = new Set(['--list', '--help']);
  const valued = new Set(['--task', '--weak', '--sample', '--seed', '--difficulty', '--split', '--task-file']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (flags.has(a)) out.set(a, true);
    else if (valued.has(a)) {
      if (i + 1 >= argv.length) throw new UsageError(`${a} needs a value.`);
      out.set(a, argv[++i]);
    } else throw new UsageError(`unknown argument ${JSON.stringify(a)}.`);
  }
  return out;
}

function intArg(args: Map<string, string | true>, name: string, fallback: number): number {
  const v = args.get(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(n)) throw new UsageError(`${name} must be an integer, got ${JSON.stringify(v)}.`);
  return n;
}

/** getTask, but an unknown id is a usage error (exit 2) with one clear sentence. */
function taskArg(id: string): Task {
  try {
    return getTask(id);
  } catch (e) {
    throw new UsageError(`${(e as Error).message}.`, false);
  }
}

function list(): void {
  for (const t of TASKS) {
    console.log(`${t.id} (${t.family}, difficulties ${t.difficulties.join(',')}): ${t.title}`);
    console.log(`  e.g. ${t.generate(new Rng(1), t.difficulties[0]).prompt}  ->  ${t.referenceResponse(t.generate(new Rng(1), t.difficulties[0]).prompt, { think: true })}`);
    console.log(`  ${t.answerSpec}\n`);
  }
  console.log('weak verifiers (--weak NAME), for the reward-hacking lesson:');
  for (const w of WEAK_VERIFIERS) console.log(`  ${w.id}: ${w.title}. Exploits: ${w.exploits.join('; ')}`);
}

function sample(args: Map<string, string | true>): void {
  const n = intArg(args, '--sample', 0);
  if (n < 1) throw new UsageError('--sample needs a positive count.');
  const seed = intArg(args, '--seed', 1);
  const splitArg = args.get('--split');
  if (splitArg !== undefined && splitArg !== 'train' && splitArg !== 'heldout') throw new UsageError('--split must be train or heldout.');
  const tasks = typeof args.get('--task') === 'string' ? [taskArg(args.get('--task') as string)] : TASKS;
  for (const t of tasks) {
    const d = intArg(args, '--difficulty', t.difficulties[0]);
    if (!t.difficulties.includes(d)) throw new UsageError(`task ${t.id} has difficulties ${t.difficulties.join(', ')}, not ${d}.`);
    const rng = new Rng(seed);
    const insts = splitArg ? samplePrompts(t, rng, d, splitArg as Split, n) : Array.from({ length: n }, () => t.generate(rng, d));
    for (const x of insts) {
      const split = isHeldOut(t.id, x.prompt) ? 'heldout' : 'train';
      process.stdout.write(JSON.stringify({ task: t.id, prompt: x.prompt, answer: x.answer, difficulty: d, split }) + '\n');
    }
  }
}

async function verifyStdin(args: Map<string, string | true>): Promise<number> {
  const defaultTask = typeof args.get('--task') === 'string' ? taskArg(args.get('--task') as string) : null;
  const weakName = args.get('--weak');
  if (weakName === true) throw new UsageError('--weak needs a name.');
  let weak = null;
  if (typeof weakName === 'string') {
    try {
      weak = getWeakVerifier(weakName);
    } catch (e) {
      throw new UsageError(`${(e as Error).message}.`, false);
    }
  }
  if (!defaultTask) throw new UsageError('--task ID is required to verify (or use --list / --sample).');

  let malformed = 0;
  let lineNo = 0;
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    lineNo++;
    if (line.trim() === '') continue;
    let out: Record<string, unknown>;
    try {
      let o: unknown;
      try {
        o = JSON.parse(line);
      } catch {
        throw new Error('not valid JSON');
      }
      if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new Error('not a JSON object');
      const rec = o as Record<string, unknown>;
      if (typeof rec.prompt !== 'string') throw new Error('"prompt" must be a string');
      if (typeof rec.response !== 'string') throw new Error('"response" must be a string');
      if (rec.task !== undefined && typeof rec.task !== 'string') throw new Error('"task" must be a string');
      const task = typeof rec.task === 'string' ? getTask(rec.task) : defaultTask;
      const v: Verdict = weak ? weak.verify(task, rec.prompt, rec.response) : task.verify(rec.prompt, rec.response);
      out = { line: lineNo, task: task.id, ...v };
    } catch (e) {
      malformed++;
      out = { line: lineNo, error: `line ${lineNo}: ${(e as Error).message}` };
    }
    process.stdout.write(JSON.stringify(out) + '\n');
  }
  if (malformed > 0) console.error(`verify: ${malformed} malformed line(s) of ${lineNo}.`);
  return malformed > 0 ? 1 : 0;
}

/** --task-file PATH: validate the spec, register it, and let it stand for --task (a refusal is one sentence, exit 2). */
function useTaskFile(args: Map<string, string | true>): void {
  const path = args.get('--task-file');
  if (typeof path !== 'string') return;
  if (args.has('--task')) throw new UsageError('use --task ID or --task-file spec.json, not both.');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`cannot read the task file ${path.slice(0, 80)}.`, false);
  }
  const r = parseSpecText(text);
  if (!r.ok) throw new UsageError(`task file ${path.slice(0, 80)} refused: ${r.error}`, false);
  args.set('--task', registerTask(taskFromSpec(r.spec)).id);
}

async function main(): Promise<number> {
  try {
    const args = parseArgs(process.argv.slice(2));
    useTaskFile(args);
    if (args.has('--help')) {
      console.log(USAGE);
      return 0;
    }
    if (args.has('--list')) {
      list();
      return 0;
    }
    if (args.has('--sample')) {
      sample(args);
      return 0;
    }
    return await verifyStdin(args);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`verify: ${e.message}`);
      if (e.showUsage) console.error(USAGE);
      return 2;
    }
    throw e;
  }
}

// A closed pipe (`verify --list | head`) ends the output quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

main().then((code) => {
  process.exitCode = code;
});
