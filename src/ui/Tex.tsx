/** A KaTeX formula. Only our own formulas go in here (numbers we format), never model output. */
import { useEffect, useRef } from 'react';
import katex from 'katex';
import 'katex/dist/katex.min.css';

export function Tex({ tex, display = false, label }: { tex: string; display?: boolean; label?: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (ref.current) katex.render(tex, ref.current, { displayMode: display, throwOnError: false, output: 'htmlAndMathml' });
  }, [tex, display]);
  return <span ref={ref} className="tex" aria-label={label} data-tex={tex} />;
}
