import { h, s } from './dom.js';
import type { Rate } from './api.js';

/**
 * Horizontal bars (percent 0–100) with Wilson-interval whiskers, as inline SVG. The chart is `role=img` with a
 * summary label; the numbers are also in the table next to it.
 */
export function rateChart(title: string, rows: { label: string; rate: Rate }[]): HTMLElement {
  const rowHeight = 26;
  const labelWidth = 230;
  const barWidth = 420;
  const height = rows.length * rowHeight + 30;
  const x = (percent: number): number => labelWidth + (percent / 100) * barWidth;
  const svg = s(
    'svg',
    { viewBox: `0 0 ${labelWidth + barWidth + 90} ${height}`, width: labelWidth + barWidth + 90, height, role: 'img', 'aria-label': `${title}: ${rows.map((row) => `${row.label} ${row.rate.percent === null ? 'no instances' : `${row.rate.percent.toFixed(1)}%`}`).join(', ')}` },
    s('title', {}, title),
    [0, 25, 50, 75, 100].map((tick) => [
      s('line', { x1: x(tick), x2: x(tick), y1: 0, y2: height - 20, class: 'grid' }),
      s('text', { x: x(tick), y: height - 6, 'text-anchor': 'middle', class: 'tick' }, `${tick}%`),
    ]),
    rows.map((row, index) => {
      const y = index * rowHeight + 4;
      const percent = row.rate.percent ?? 0;
      return s(
        'g',
        {},
        s('text', { x: labelWidth - 8, y: y + 14, 'text-anchor': 'end', class: 'label' }, row.label),
        s('rect', { x: labelWidth, y, width: Math.max(0, x(percent) - labelWidth), height: rowHeight - 8, class: 'bar' }),
        row.rate.ci === null
          ? null
          : s('line', { x1: x(row.rate.ci.lower), x2: x(row.rate.ci.upper), y1: y + (rowHeight - 8) / 2, y2: y + (rowHeight - 8) / 2, class: 'whisker' }),
        s('text', { x: labelWidth + barWidth + 8, y: y + 14, class: 'value' }, row.rate.percent === null ? 'n/a' : `${row.rate.count}/${row.rate.total}`),
      );
    }),
  );
  return h('figure', { class: 'chart' }, svg, h('figcaption', {}, `${title} (bars: rate; lines: 95% Wilson interval)`));
}

/** A stacked bar of outcome groups (counts), with a legend listing each group. */
export function stackedBar(title: string, parts: { label: string; count: number; kind: string }[]): HTMLElement {
  const total = parts.reduce((sum, part) => sum + part.count, 0);
  const width = 640;
  let offset = 0;
  const svg = s(
    'svg',
    { viewBox: `0 0 ${width} 24`, width, height: 24, role: 'img', 'aria-label': `${title}: ${parts.map((part) => `${part.label} ${part.count}`).join(', ')}` },
    s('title', {}, title),
    parts.map((part) => {
      const w = total === 0 ? 0 : (part.count / total) * width;
      const rect = s('rect', { x: offset, y: 0, width: w, height: 24, class: `seg seg-${part.kind}` });
      offset += w;
      return rect;
    }),
  );
  return h(
    'figure',
    { class: 'chart' },
    svg,
    h('figcaption', {}, h('ul', { class: 'legend' }, parts.map((part) => h('li', {}, h('span', { class: `swatch seg-${part.kind}`, 'aria-hidden': 'true' }), `${part.label}: ${part.count}`)))),
  );
}
