/**
 * The walk every structured fuzz test shares (persist decoders, the TRL import, task specs): the
 * paths of a real input, a copy with one value replaced or deleted, an own property even for
 * "__proto__", and a path as text. Test-only; no engine code imports it.
 */
export type Seg = string | number;
/** Put at a path: the value is deleted (or removed from its list). */
export const MISSING = Symbol('missing');

/** A path as a field name reads: `evals[0].pass_at_k`. */
export const pathText = (p: Seg[]) => p.reduce<string>((a, s) => (typeof s === 'number' ? `${a}[${s}]` : a ? `${a}.${s}` : s), '');
/** A plain object (not a list, not binary data). */
export const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.prototype.toString.call(v) === '[object Object]';

/** Every path in a value (the root [] included); binary data is a leaf. */
export function allPaths(v: unknown, p: Seg[] = []): Seg[][] {
  const out: Seg[][] = [p];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...allPaths(x, [...p, i])));
  else if (isPlain(v)) for (const [k, x] of Object.entries(v)) out.push(...allPaths(x, [...p, k]));
  return out;
}

/** The value at a path. */
export const get = (root: unknown, p: Seg[]) => p.reduce<unknown>((o, s) => (o as Record<Seg, unknown>)[s], root);

/** A copy of `root` with the value at `p` replaced (MISSING: deleted, or removed from its list), copying only the objects on the path. */
export function setAt(root: unknown, p: Seg[], value: unknown): unknown {
  if (p.length === 0) return value === MISSING ? undefined : value;
  const [s, ...rest] = p;
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<Seg, unknown>;
  if (rest.length) copy[s] = setAt((root as Record<Seg, unknown>)[s], rest, value);
  else if (value !== MISSING) copy[s] = value;
  else if (Array.isArray(copy)) (copy as unknown[]).splice(s as number, 1);
  else delete copy[s];
  return copy;
}

/** An own property, even "__proto__", as JSON.parse or structuredClone would create it. */
export function withKey(o: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...o };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}
