/**
 * The class results as one PNG: the panel's lines (its text, wrapped) and its strip plots (the
 * charts' own SVGs), stacked in the panel's order on white. Built with DOM calls (text as text
 * nodes: nothing pasted becomes markup), rasterised through an <img> of the SVG.
 */
import { svgToPng } from '../store/exports.ts';

const NS = 'http://www.w3.org/2000/svg';

function wrap(text: string, perLine: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/)) {
    if (line && line.length + 1 + w.length > perLine) { out.push(line); line = w; } else line = line ? `${line} ${w}` : w;
  }
  if (line) out.push(line);
  return out;
}

export async function classPng(root: HTMLElement, scale = 2): Promise<Blob> {
  const width = Math.max(480, Math.min(1200, root.clientWidth || 900));
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('xmlns', NS);
  let y = 12;
  for (const el of root.querySelectorAll('[data-png-line], svg.recharts-surface')) {
    if (el instanceof SVGSVGElement) {
      const { width: w, height: h } = el.getBoundingClientRect();
      const clone = el.cloneNode(true) as SVGSVGElement;
      clone.setAttribute('x', '0');
      clone.setAttribute('y', String(y));
      clone.setAttribute('width', String(w));
      clone.setAttribute('height', String(h));
      svg.appendChild(clone);
      y += h + 8;
      continue;
    }
    const heading = el.getAttribute('data-png-line') === 'h';
    const size = heading ? 16 : 13;
    for (const line of wrap(el.textContent ?? '', Math.floor(width / (size * 0.55)))) {
      y += size + 4;
      const t = document.createElementNS(NS, 'text');
      t.setAttribute('x', '8');
      t.setAttribute('y', String(y));
      t.setAttribute('font-family', 'system-ui, sans-serif');
      t.setAttribute('font-size', String(size));
      if (heading) t.setAttribute('font-weight', 'bold');
      t.textContent = line;
      svg.appendChild(t);
    }
    y += 6;
  }
  const height = y + 12;
  return svgToPng(svg, scale, { width, height });
}
