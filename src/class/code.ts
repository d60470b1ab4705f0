/**
 * A lesson run's result as a short text code a student pastes into a class chat, and the one-way
 * decoder the teacher's page reads a whole chat log with.
 *
 *   rlvr1.<payload>.<checksum>
 *
 * "rlvr1": the code format, version 1 (the prefix is read in any case: a chat may capitalise it).
 * <payload>: base64 (A–Z a–z 0–9 + /, no padding: no "_" or "-" a chat's markdown could eat) of a
 * JSON object with exactly these fields — a app version, l lesson id, v variant (0-based), s seed,
 * w the starting weights' identity (16 hex digits, src/model/weightsId.ts), h verdict (1 held, 0
 * not), n the verdict step it was judged at (the variant's: a run that never reached it has no
 * code), x the claim's number (claimNumber.ts), c the lesson's contrast number
 * (src/rl/contrast.ts; null where the lesson has none), optional p the prediction (0 higher, 1
 * about the same, 2 lower; question.ts), optional d and t the lesson's contrast judged on this seed
 * against the student's run of the question's other variant (d: asked − against; t: its outcome, 0
 * higher, 1 about the same, 2 lower, 3 unclear: rl/contrast.ts), optional b 1 where the run started
 * from the lesson's shipped base (what lets lesson 6's variants, on different tasks from different
 * bases by design, pair: store/overlays.ts comparable), optional e the reason the student chose for
 * the lesson's "Why?" (its index in concepts.ts lessonConcepts(id).explain.reasons), optional q the
 * concept question before and after, 3·pre + post with each 0 not answered, 1 wrong, 2 right (1–8;
 * absent: neither answered). A code without d, t, b, e or q (made before they existed) still
 * decodes. Numbers are rounded to 4 significant digits (the claim
 * number to more where 4 would move it across its threshold: the decoder checks the verdict against
 * it); NaN is null.
 * Nothing else: no name, no device, no time.
 * <checksum>: CRC-32 of "rlvr1.<payload>", 8 lowercase hex digits.
 *
 * Decoding never evaluates anything (JSON.parse of checksummed, length-bounded text only), never
 * copies a field by assignment from the parsed object, and refuses each bad code with one
 * sentence: truncated, damaged (checksum), another format or app version, unreadable, a field
 * missing or extra, a value of the wrong type or out of range, a contract or verdict step other than
 * this page's lessons, an explain choice or concept answers out of range or for a lesson without
 * them. About 180–220 characters (e and q add up to 16: the test sample's code is 183 without them,
 * 199 with both).
 */
import { crc32 } from '../export/zip.ts';
import { getLesson } from '../rl/lessons.ts';
import { contractHash } from '../rl/lessonContract.ts';
import { describeValue, isRecord } from '../model/validate.ts';
import { claimNumber, onClaimSide } from './claimNumber.ts';
import { reasonCount } from './concepts.ts';

/** This page's version (package.json's; code.test.ts checks they agree). */
export const APP_VERSION = '0.4.0';
export const CODE_FORMAT = 1;
const PREFIX = `rlvr${CODE_FORMAT}.`;
/** A payload longer than this is no code of ours (the longest real one is about 180). */
const MAX_PAYLOAD = 320;
export const MAX_NUMBER = 1e6;
const MAX_SEED = 2147483647;
const MAX_STEPS = 100_000;

export interface ResultCode {
  app: string;
  lessonId: string;
  variant: number;
  seed: number;
  weights: string;
  /** The frozen verdict: holds, fails or unclear (`held` is holds). */
  verdict: 'holds' | 'fails' | 'unclear';
  held: boolean;
  /** The lesson's contract hash when it was judged (rl/lessons.ts contractHash): a code judged under another contract is refused. */
  contract: string;
  /** The verdict step the verdict was judged at. */
  steps: number;
  /** The claim's number (NaN: not measured). */
  claim: number;
  /** The contrast number (NaN: not measured, or the lesson has none). */
  contrast: number;
  /** 0 higher, 1 about the same, 2 lower; null: no prediction made. */
  prediction: 0 | 1 | 2 | null;
  /** The lesson's contrast on this seed, asked − against, and its outcome (null: not judged with this run). */
  pairedContrast?: { value: number; outcome: 0 | 1 | 2 | null } | null;
  /** The run started from the lesson's shipped base (false: another checkpoint, or a code that does not say). */
  shippedBase?: boolean;
  /** The reason chosen for the lesson's "Why?": its index in concepts.ts lessonConcepts(id).explain.reasons (absent or null: not answered). */
  explain?: number | null;
  /** The concept question before and after: right (true), wrong (false), not answered (null); absent or null: neither answered. */
  concept?: { pre: boolean | null; post: boolean | null } | null;
}

/** A concept answer as q's digit: 0 not answered, 1 wrong, 2 right. */
const conceptDigit = (x: boolean | null) => (x === null ? 0 : x ? 2 : 1);
const conceptAnswer = (d: number) => (d === 0 ? null : d === 2);

const round4 = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(4)) : null);

/**
 * The claim number as a code carries it: 4 significant digits, or as many more as keep it on the
 * side of its threshold it is on (0.030004 above 0.03 would round to 0.03, at the threshold: the
 * decoder would refuse the genuine code as a held claim with its number not above it).
 */
function claimDigits(r: Pick<ResultCode, 'lessonId' | 'variant' | 'claim'>): number | null {
  const x = r.claim;
  if (!Number.isFinite(x)) return null;
  const cn = claimNumber(r.lessonId, r.variant);
  for (let d = 4; d <= 17; d++) {
    const y = Number(x.toPrecision(d));
    if (!cn || onClaimSide(cn, y) === onClaimSide(cn, x)) return y;
  }
  return x;
}

/** CRC-32 of an ASCII string, as 8 lowercase hex digits. */
export function crc32Hex(s: string): string {
  return crc32(new TextEncoder().encode(s)).toString(16).padStart(8, '0'); // the ZIP writer's CRC-32 (IEEE 802.3)
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const k = Math.min(3, bytes.length - i) + 1;
    for (let j = 0; j < k; j++) out += B64[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}
/** Strict base64 without padding; null when a character or the length is not base64's. */
function fromBase64(s: string): Uint8Array | null {
  if (s.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    let n = 0;
    const k = Math.min(4, s.length - i);
    for (let j = 0; j < 4; j++) {
      const v = j < k ? B64.indexOf(s[i + j]) : 0;
      if (v < 0) return null;
      n = (n << 6) | v;
    }
    for (let j = 0; j < k - 1; j++) out[o++] = (n >> (16 - 8 * j)) & 255;
  }
  return out;
}

/** The code for a result. */
export function encodeResult(r: ResultCode): string {
  const body: Record<string, unknown> = { a: r.app, l: r.lessonId, v: r.variant, s: r.seed, w: r.weights, h: VERDICT_CODE[r.verdict], k: r.contract, n: r.steps, x: claimDigits(r), c: round4(r.contrast) };
  if (r.prediction !== null) body.p = r.prediction;
  if (r.pairedContrast) { body.d = round4(r.pairedContrast.value); body.t = r.pairedContrast.outcome ?? 3; }
  if (r.shippedBase) body.b = 1;
  if (typeof r.explain === 'number') body.e = r.explain;
  if (r.concept && (r.concept.pre !== null || r.concept.post !== null)) body.q = 3 * conceptDigit(r.concept.pre) + conceptDigit(r.concept.post);
  const payload = toBase64(new TextEncoder().encode(JSON.stringify(body)));
  return `${PREFIX}${payload}.${crc32Hex(PREFIX + payload)}`;
}

export type Decoded = { ok: true; result: ResultCode } | { ok: false; why: string };
const refuse = (why: string): Decoded => ({ ok: false, why });

/** A verdict in a code: 0 fails, 1 holds, 2 unclear. */
const VERDICT_CODE = { fails: 0, holds: 1, unclear: 2 } as const;
const VERDICTS = ['fails', 'holds', 'unclear'] as const;
const REQUIRED = ['a', 'l', 'v', 's', 'w', 'h', 'k', 'n', 'x', 'c'] as const;
const ALLOWED = new Set<string>([...REQUIRED, 'p', 'd', 't', 'b', 'e', 'q']);
const FIELD_NAMES: Record<string, string> = { a: 'app version', l: 'lesson', v: 'variant', s: 'seed', w: 'starting weights', h: 'verdict', k: 'contract', n: 'steps', x: 'claim number', c: 'contrast number', p: 'prediction', d: 'paired contrast', t: 'contrast outcome', b: 'base', e: 'explain choice', q: 'concept answers' };
const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const numOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= MAX_NUMBER);
const shown = (v: unknown) => describeValue(v).slice(0, 40);

/** One code: the whole text must be the code, spaces around it aside. */
export function decodeResult(text: string): Decoded {
  const m = /^\s*rlvr(\d{1,6})\.([A-Za-z0-9+/]*)(?:\.([0-9a-fA-F]*))?(.*)$/is.exec(typeof text === 'string' ? text.slice(0, 1000) : '');
  if (!m) return refuse('it does not begin with rlvr1.');
  if (m[4].trim() !== '') return refuse('it has characters after its checksum');
  return decodeParts(m[1], m[2], m[3]);
}

function decodeParts(version: string, payload: string, checksum: string | undefined): Decoded {
  if (Number(version) !== CODE_FORMAT) return refuse(`it is a version ${Number(version)} code; this page reads version ${CODE_FORMAT}`);
  if (payload.length > MAX_PAYLOAD) return refuse(`it is too long to be a result code (${payload.length} characters of content, at most ${MAX_PAYLOAD})`);
  if (checksum === undefined || checksum.length < 8) return refuse('it is truncated (a code ends in a dot and 8 hex digits)');
  if (crc32Hex(PREFIX + payload) !== checksum.toLowerCase()) return refuse('it is damaged: its checksum does not match (a character was changed, lost or added)');
  const bytes = fromBase64(payload);
  if (!bytes) return refuse('its content is not base64');
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse('its content is not text');
  }
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return refuse('its content is not readable JSON');
  }
  if (!isRecord(v)) return refuse(`its content is ${shown(v)}, not a result`);
  const keys = Object.keys(v);
  const extra = keys.find((k) => !ALLOWED.has(k));
  if (extra !== undefined) return refuse(`it has a field this version does not have ("${extra.slice(0, 20)}")`);
  const missing = REQUIRED.find((k) => !Object.prototype.hasOwnProperty.call(v, k));
  if (missing) return refuse(`its ${FIELD_NAMES[missing]} is missing`);
  const r = v as Record<string, unknown>;
  if (typeof r.a !== 'string' || !/^\d{1,4}\.\d{1,4}\.\d{1,4}$/.test(r.a)) return refuse(`its app version must read like 0.1.0, got ${shown(r.a)}`);
  if (r.a !== APP_VERSION) return refuse(`it was made by rlvr-lab ${r.a}; this page is ${APP_VERSION}, whose lessons may differ`);
  const lesson = typeof r.l === 'string' && r.l.length <= 40 ? getLesson(r.l) : undefined;
  if (!lesson) return refuse(`its lesson ${shown(r.l)} is not one of this page's lessons`);
  if (!isInt(r.v, 0, lesson.variants.length - 1)) return refuse(`its variant must be a whole number from 0 to ${lesson.variants.length - 1} for this lesson, got ${shown(r.v)}`);
  if (!isInt(r.s, 0, MAX_SEED)) return refuse(`its seed must be a whole number from 0 to ${MAX_SEED}, got ${shown(r.s)}`);
  if (typeof r.w !== 'string' || !/^[0-9a-f]{16}$/.test(r.w)) return refuse(`its starting weights must be 16 hex digits, got ${shown(r.w)}`);
  if (r.h !== 0 && r.h !== 1 && r.h !== 2) return refuse(`its verdict must be 0 (fails), 1 (holds) or 2 (unclear), got ${shown(r.h)}`);
  if (typeof r.k !== 'string' || !/^[0-9a-f]{8}$/.test(r.k)) return refuse(`its contract must be 8 hex digits, got ${shown(r.k)}`);
  if (r.k !== contractHash(lesson)) return refuse(`it was judged under another version of this lesson (its settings, claim or verdict step differ from this page's): it cannot be pooled with this page's verdicts`);
  const need = lesson.variants[r.v].claim.steps;
  if (!isInt(r.n, 0, MAX_STEPS)) return refuse(`its verdict step must be a whole number from 0 to ${MAX_STEPS}, got ${shown(r.n)}`);
  if (r.n < need) return refuse(`its run never reached the verdict step: it stopped at step ${r.n}, and this lesson's verdict comes at step ${need}`);
  if (r.n !== need) return refuse(`its verdict was judged at step ${r.n}, not at this lesson's verdict step ${need}: it cannot be pooled with this page's verdicts`);
  for (const k of ['x', 'c'] as const) if (!numOrNull(r[k])) return refuse(`its ${FIELD_NAMES[k]} must be a number within ±${MAX_NUMBER} or null, got ${shown(r[k])}`);
  if (r.p !== undefined && !isInt(r.p, 0, 2)) return refuse(`its prediction must be 0, 1 or 2, got ${shown(r.p)}`);
  if ((r.d === undefined) !== (r.t === undefined)) return refuse('it has a paired contrast without its outcome, or an outcome without its contrast');
  if (r.d !== undefined && !numOrNull(r.d)) return refuse(`its ${FIELD_NAMES.d} must be a number within ±${MAX_NUMBER} or null, got ${shown(r.d)}`);
  if (r.t !== undefined && !isInt(r.t, 0, 3)) return refuse(`its contrast outcome must be 0, 1, 2 or 3, got ${shown(r.t)}`);
  if (r.d !== undefined && !lesson.contrast) return refuse('it carries a paired contrast, yet this lesson compares no variants');
  if (r.b !== undefined && r.b !== 1) return refuse(`its base must be 1 where given, got ${shown(r.b)}`);
  const reasons = reasonCount(lesson.id);
  if (r.e !== undefined && !reasons) return refuse('it carries an explain choice, yet this lesson asks no "Why?"');
  if (r.e !== undefined && !isInt(r.e, 0, reasons - 1)) return refuse(`its explain choice must be a whole number from 0 to ${reasons - 1} for this lesson, got ${shown(r.e)}`);
  if (r.q !== undefined && !reasons) return refuse('it carries concept answers, yet this lesson has no concept question');
  if (r.q !== undefined && !isInt(r.q, 1, 8)) return refuse(`its concept answers must be a whole number from 1 to 8 (3 × before + after; 0 not answered, 1 wrong, 2 right), got ${shown(r.q)}`);
  const x = r.x === null ? NaN : (r.x as number);
  const cn = claimNumber(lesson.id, r.v);
  if (r.h === 1 && cn && !onClaimSide(cn, x)) return refuse(`it says the claim held, yet its claim number ${shown(r.x)} is not ${cn.side} ${+cn.threshold.toFixed(3)}`);
  return {
    ok: true,
    result: {
      app: r.a, lessonId: lesson.id, variant: r.v, seed: r.s, weights: r.w, verdict: VERDICTS[r.h], held: r.h === 1, contract: r.k, steps: r.n,
      claim: x, contrast: r.c === null ? NaN : (r.c as number), prediction: r.p === undefined ? null : (r.p as 0 | 1 | 2),
      ...(r.d === undefined ? {} : { pairedContrast: { value: r.d === null ? NaN : (r.d as number), outcome: r.t === 3 ? null : (r.t as 0 | 1 | 2) } }),
      ...(r.b === 1 ? { shippedBase: true } : {}),
      ...(r.e === undefined ? {} : { explain: r.e as number }),
      ...(r.q === undefined ? {} : { concept: { pre: conceptAnswer(Math.floor((r.q as number) / 3)), post: conceptAnswer((r.q as number) % 3) } }),
    },
  };
}

/** A code found in pasted text: where (1-based line), its text (cut for display), and what it decoded to. */
export interface FoundCode {
  line: number;
  text: string;
  decoded: Decoded;
}

/** The paste box reads at most this many characters (1 MB of text). */
export const MAX_PASTE = 1_000_000;
/** At most this many codes are read from one paste (a class is tens; a hostile paste is not read further). */
export const MAX_CODES = 20_000;

/**
 * Every code in a pasted text (a chat log): each occurrence of "rlvr<digits>." in any case,
 * read as far as a code's characters go. Bounded: the text is cut at MAX_PASTE characters and at
 * most MAX_CODES occurrences are read (`cut` says so).
 */
export function findCodes(text: string): { found: FoundCode[]; cut: { chars: boolean; codes: boolean } } {
  const src = typeof text === 'string' ? text : '';
  const chars = src.length > MAX_PASTE;
  const t = chars ? src.slice(0, MAX_PASTE) : src;
  const re = /rlvr(\d{1,6})\.([A-Za-z0-9+/]{0,400})(?:\.([0-9a-fA-F]{0,8}))?/gi;
  const found: FoundCode[] = [];
  let line = 1, lineAt = 0, codes = false;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    if (found.length >= MAX_CODES) { codes = true; break; }
    for (let i = t.indexOf('\n', lineAt); i !== -1 && i < m.index; i = t.indexOf('\n', i + 1)) { line++; lineAt = i + 1; }
    const whole = m[0];
    found.push({ line, text: whole.length > 28 ? `${whole.slice(0, 24)}…${whole.slice(-4)}` : whole, decoded: decodeParts(m[1], m[2], m[3]) });
  }
  return { found, cut: { chars, codes } };
}
