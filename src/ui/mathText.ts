/**
 * The lesson texts' symbols set as math, not as typed code: "|o_i|" is o with a subscript i,
 * "(1 − w)·r_outcome" r with a subscript "outcome", "p^G" and "(1 − p)^G" carry a superscript G,
 * "π_θ", "π_ref", "e^d" likewise. A subscript follows a lone letter (one letter, not the end of a
 * word: an identifier such as "frac_mixed" is left as it is), a superscript a lone letter or a
 * closing parenthesis; either runs over letters and digits. Pure: the card (Lessons.tsx withCode)
 * turns the parts into <sub> and <sup> elements (React elements, never HTML).
 */
export type MathPart = string | { sub: string } | { sup: string };

// base (a lone letter with its accents: p̄, or a closing parenthesis), the mark, the script
const SYMBOL = /((?<![\p{L}\p{N}_])\p{L}\p{M}*|\))([_^])([\p{L}\p{N}]+)/gu;

export function mathParts(text: string): MathPart[] {
  const out: MathPart[] = [];
  let at = 0;
  for (const m of text.matchAll(SYMBOL)) {
    const end = m.index + m[1].length;
    if (end > at) out.push(text.slice(at, end));
    out.push(m[2] === '_' ? { sub: m[3] } : { sup: m[3] });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}
