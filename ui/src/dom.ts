/** A tiny element builder: h('a', { href: '#/runs' }, 'Runs'). Text children are escaped (text nodes). */
export type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) for (const item of child) append(parent, item);
  else parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
}

function setAttrs(element: Element, attrs: Attrs): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
}

export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  setAttrs(element, attrs);
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
export function s(tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag);
  setAttrs(element, attrs);
  append(element, children);
  return element;
}

export function mount(target: HTMLElement, ...children: Child[]): void {
  target.replaceChildren();
  append(target, children);
}

export const pct = (value: number | null | undefined, digits = 1): string => (value === null || value === undefined ? '–' : `${value.toFixed(digits)}%`);
export const when = (value: string | null | undefined): string => (value === null || value === undefined ? '–' : new Date(value).toISOString().replace('T', ' ').slice(0, 19) + ' UTC');

/** A table with a caption and column headers (scope=col) for screen readers. */
export function table(caption: string, headers: string[], rows: Child[][], attrs: Attrs = {}): HTMLElement {
  return h(
    'table',
    attrs,
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, headers.map((header) => h('th', { scope: 'col' }, header)))),
    h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((cell) => h('td', {}, cell))))),
  );
}

export const badge = (text: string, kind = text): HTMLElement => h('span', { class: `badge badge-${kind.replace(/[^a-z_]/gi, '')}` }, text);
