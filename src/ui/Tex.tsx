/**
 * A KaTeX formula. Only our own formulas go in here (numbers we format), never model output.
 * KaTeX (about a quarter of the page's script) and its stylesheet load with the first formula
 * shown, in a chunk of their own (the module loader keeps them after), so the lab's first load
 * does not wait for them; until then the formula's source stands in, as text.
 */
import { useEffect, useRef } from 'react';

const loadKatex = () => Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(([k]) => k.default);

export function Tex({ tex, display = false, label }: { tex: string; display?: boolean; label?: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    let live = true;
    if (ref.current && !ref.current.firstChild) ref.current.textContent = tex; // React renders no children here: KaTeX owns them
    void loadKatex().then((katex) => {
      if (live && ref.current) katex.render(tex, ref.current, { displayMode: display, throwOnError: false, output: 'htmlAndMathml' });
    });
    return () => { live = false; };
  }, [tex, display]);
  return <span ref={ref} className="tex" aria-label={label} data-tex={tex} />;
}

/** A formula on a line of its own, scrolled sideways where it is wider than its column: focusable, so the keyboard can scroll it too. */
export function FormulaLine({ tex }: { tex: string }) {
  return <div className="formula-line" tabIndex={0}><Tex tex={tex} /></div>;
}
