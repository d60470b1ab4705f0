/**
 * A panel as one PNG: its marked lines (data-png-line: "h" a heading, "t" text, wrapped), its
 * charts (their own SVGs) and the charts' legends (each entry's icon and name, in its colour,
 * flowed into rows), stacked in the panel's order on white, in the page's font. Used for a chart
 * card (its title, the chart, its legend) and for the class results. Built with DOM calls (text
 * as text nodes: nothing pasted becomes markup), rasterised through an <img> of the SVG.
 *
 * A slide (`SlideLook`, the class results): a title first, the picture at most `maxPx` wide, and
 * every text — the lines, the legends and the charts' own labels — at least `minTextPx` tall in
 * the picture, whatever the panel's width on screen.
 */
import { svgToPng } from '../store/exports.ts';

const NS = 'http://www.w3.org/2000/svg';
const FONT = 'system-ui, sans-serif';
const LEGEND_SIZE = 13;

/** A line's text as the page breaks it: a <br> starts a new paragraph (its text nodes alone would run the two together). */
function paragraphs(el: Element): string[] {
  const out = [''];
  const walk = (n: Node) => {
    if (n.nodeName === 'BR') out.push('');
    else if (n.nodeType === Node.TEXT_NODE) out[out.length - 1] += n.textContent ?? '';
    else n.childNodes.forEach(walk);
  };
  walk(el);
  return out.filter((p) => p.trim());
}

function wrap(text: string, perLine: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/)) {
    if (line && line.length + 1 + w.length > perLine) { out.push(line); line = w; } else line = line ? `${line} ${w}` : w;
  }
  if (line) out.push(line);
  return out;
}

function text(x: number, y: number, size: number, content: string, fill = '#111', bold = false): SVGTextElement {
  const t = document.createElementNS(NS, 'text');
  t.setAttribute('x', String(x));
  t.setAttribute('y', String(y));
  t.setAttribute('font-size', String(size));
  t.setAttribute('fill', fill);
  if (bold) t.setAttribute('font-weight', 'bold');
  t.textContent = content;
  return t;
}

/** How a picture meant for a slide looks: its title, its widest (in the picture's pixels), its smallest text (likewise). */
export interface SlideLook { title: string; maxPx: number; minTextPx: number; /** At most this tall too (the picture scales down to fit, its text with it). */ maxHeightPx?: number }

/** The picture's scale: 2× (crisp), or less so that it is at most `maxPx` wide. */
const pictureScale = (width: number, look?: SlideLook) => (look ? Math.min(2, look.maxPx / width) : 2);

/** The panel drawn as one SVG element (not attached), with its width and height in SVG units, and the scale it is drawn at. */
export function panelSvg(root: HTMLElement, look?: SlideLook): { svg: SVGSVGElement; width: number; height: number; scale: number } {
  const parts = [...root.querySelectorAll('[data-png-line], svg.recharts-surface, .recharts-legend-item')]
    .filter((el) => !(el instanceof SVGSVGElement && el.closest('.recharts-legend-item'))) // a legend entry's icon: drawn with its entry
    .map((el, i) => ({ el, i, box: el.getBoundingClientRect() }));
  // as wide as the panel (text wraps to it, up to 1200 px) and never narrower than a chart in it (a strip plot at 1920 px was cut)
  const width = Math.max(480, Math.min(1200, root.clientWidth || 900), ...parts.filter((p) => p.el instanceof SVGSVGElement).map((p) => Math.ceil(p.box.width)));
  const scale = pictureScale(width, look);
  const least = look ? Math.ceil((look.minTextPx / scale) * 10) / 10 : 0; // the smallest text, in SVG units
  const [textSize, headingSize, legendSize] = [Math.max(13, least), Math.max(16, least * 1.25), Math.max(LEGEND_SIZE, least)];
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('xmlns', NS);
  svg.setAttribute('font-family', getComputedStyle(root).fontFamily || FONT); // the page's font, not the image's serif default
  if (look) svg.setAttribute('font-size', String(least)); // text that names no size of its own
  let y = 12;
  if (look) {
    const size = Math.max(24, least * 1.6);
    y += size;
    svg.appendChild(text(8, y, size, look.title, '#111', true));
    y += 14;
  }
  let legend: { x: number } | null = null; // the legend row being filled
  const endLegend = () => { if (legend) { y += legendSize + 10; legend = null; } };
  // in the order a student sees them, top to bottom (recharts puts a chart's legend before its svg, and draws it below)
  parts.sort((a, b) => Math.round(a.box.top) - Math.round(b.box.top) || a.i - b.i);
  for (const { el, box } of parts) {
    if (el.classList.contains('recharts-legend-item')) {
      const name = el.querySelector('.recharts-legend-item-text');
      const label = name?.textContent ?? '';
      const icon = el.querySelector('svg');
      // the entry's width on screen at the picture's type size (an estimate where it has none)
      const onScreen = name ? (box.width * legendSize) / (parseFloat(getComputedStyle(name).fontSize) || legendSize) : 0;
      const w = (onScreen > 0 ? onScreen : 18 + label.length * legendSize * 0.56) + 14;
      if (!legend) legend = { x: 8 };
      else if (legend.x + w > width - 8) { y += legendSize + 8; legend.x = 8; }
      if (icon) {
        const clone = icon.cloneNode(true) as SVGSVGElement;
        clone.setAttribute('x', String(legend.x));
        clone.setAttribute('y', String(y + 2));
        svg.appendChild(clone);
      }
      svg.appendChild(text(legend.x + 18, y + 14, legendSize, label, name ? getComputedStyle(name).color : '#111'));
      legend.x += w;
      continue;
    }
    endLegend();
    if (el instanceof SVGSVGElement) {
      // recharts keeps room for its legend inside the chart's svg, under the plot: the picture draws the legend itself, so the svg stops where its legend starts
      const inside = parts.filter((q) => q.el.classList.contains('recharts-legend-item') && q.box.top > box.top + 20 && q.box.top < box.bottom).map((q) => q.box.top);
      const labels = Math.max(box.top, ...[...el.querySelectorAll('text')].map((t) => t.getBoundingClientRect().bottom)); // the axes' labels end here ("step" sits beside the legend's first row)
      const w = box.width, h = inside.length ? Math.min(box.height, Math.max(Math.min(...inside), labels + 2) - box.top) : box.height;
      const clone = el.cloneNode(true) as SVGSVGElement;
      if (look) {
        // the chart's labels at their size on screen (the page's CSS does not travel with the picture), and at least the slide's smallest
        const shown = [...el.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) || 0);
        clone.querySelectorAll('text').forEach((t, i) => t.setAttribute('font-size', String(Math.max(shown[i] ?? 0, least))));
      }
      clone.setAttribute('width', String(w));
      clone.setAttribute('height', String(box.height));
      const view = document.createElementNS(NS, 'svg'); // its viewport clips the chart at h (the chart keeps its own size)
      view.setAttribute('x', '0');
      view.setAttribute('y', String(y));
      view.setAttribute('width', String(w));
      view.setAttribute('height', String(h));
      view.appendChild(clone);
      svg.appendChild(view);
      y += h + 8;
      continue;
    }
    const heading = el.getAttribute('data-png-line') === 'h';
    const size = heading ? headingSize : textSize;
    for (const line of paragraphs(el).flatMap((p) => wrap(p, Math.floor(width / (size * (heading ? 0.62 : 0.55)))))) {
      y += size + 4;
      svg.appendChild(text(8, y, size, line, '#111', heading));
    }
    y += 6;
  }
  endLegend();
  return { svg, width, height: y + 12, scale };
}

/** The panel as a PNG: 2× its size on screen, or as a slide (`look`: a title, at most maxPx wide, no text under minTextPx). */
export async function panelPng(root: HTMLElement, look?: SlideLook): Promise<Blob> {
  const { svg, width, height, scale } = panelSvg(root, look);
  return svgToPng(svg, look?.maxHeightPx ? Math.min(scale, look.maxHeightPx / height) : scale, { width, height });
}
