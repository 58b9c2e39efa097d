/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The flame graph of a local profile, in the webview (bundled into dist/webview/flame.js, run under the panel's CSP
// nonce). An icicle: the request at the top, callees below, width = time per request. Frames are positioned through
// the CSSOM (no inline style attribute, which the CSP forbids) and every string reaches the DOM through textContent.
// Keyboard: a roving tabindex over the frames (a tree: down = callee, up = caller, left/right = siblings).
import type { ContextName } from '../core/model';
import type { FlameViewData } from '../core/present/flameView';
import type { FlameNode } from '../core/measure/profile/types';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): void };

const vscode = acquireVsCodeApi();
const data = JSON.parse(document.getElementById('wpb-data')?.textContent ?? '{}') as FlameViewData;
const container = document.getElementById('wpb-flame');
const detail = document.getElementById('wpb-detail');
const zoomLine = document.getElementById('wpb-zoom');
const reset = document.getElementById('wpb-reset') as HTMLButtonElement | null;
const ROW = 22;
/** Frames narrower than this share of the view are not drawn (nor reachable by keyboard: zoom in to see them). */
const MIN_SHARE = 0.002;

const saved = (vscode.getState() ?? {}) as { context?: ContextName };
let context: ContextName = saved.context && data.trees?.[saved.context] ? saved.context : data.context;
let zoom: FlameNode | undefined;
let selected: FlameNode | undefined;
const parents = new Map<FlameNode, FlameNode>();
const elements = new Map<FlameNode, HTMLElement>();

const fill = (template: string, ...args: (string | number)[]) => template.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));
const ms = (x: number) => `${x >= 100 ? Math.round(x) : x.toFixed(1)} ms`;
/** A value in the profile's unit: "30.4 ms", or (a profile by instructions) "1.42 M instr". */
const value = (x: number) => {
  if (data.unit !== 'instructions') return ms(x);
  const [d, u] = x >= 1e9 ? [1e9, 'G'] : x >= 1e6 ? [1e6, 'M'] : x >= 1e3 ? [1e3, 'K'] : [1, ''];
  return d === 1 ? `${Math.round(x)} instr` : `${(x / d).toPrecision(3)} ${u} instr`;
};

function tree(): FlameNode | undefined {
  return data.trees?.[context];
}

function index(node: FlameNode): void {
  for (const c of node.k ?? []) {
    parents.set(c, node);
    index(c);
  }
}

function label(node: FlameNode): string {
  return node === tree() ? data.labels.root : node.n;
}

function describe(node: FlameNode): string {
  const root = tree()!;
  const share = root.v > 0 ? `${Math.round((node.v / root.v) * 1000) / 10} %` : '—';
  const where = node.c && node.f ? fill(data.labels.openable, `${node.n} · ${node.f}`, node.l ?? 0) : node.f && node.f !== node.n.replace(/^\(file\) /, '') ? `${label(node)} · ${node.f}` : label(node);
  return fill(data.labels.detail, where, value(node.v), share);
}

function visibleChildren(node: FlameNode, scale: number): FlameNode[] {
  return (node.k ?? []).filter((c) => c.v * scale >= MIN_SHARE);
}

function draw(): void {
  if (!container) return;
  container.replaceChildren();
  elements.clear();
  const root = tree();
  if (!root || root.v <= 0) {
    const p = document.createElement('p');
    p.textContent = data.labels.nothing;
    container.append(p);
    return;
  }
  const top = zoom ?? root;
  const scale = 1 / top.v;
  const width = container.clientWidth || 800;
  let depth = 0;
  const place = (node: FlameNode, left: number, level: number, setSize: number, pos: number) => {
    const el = document.createElement('div');
    el.className = `frame ${node.c ? 'comp' : 'core'}${data.focus && node.c && node.f === data.focus.file && node.l === data.focus.line ? ' match' : ''}`;
    el.setAttribute('role', 'treeitem');
    el.setAttribute('aria-level', String(level + 1));
    el.setAttribute('aria-setsize', String(setSize));
    el.setAttribute('aria-posinset', String(pos));
    el.setAttribute('aria-label', describe(node));
    el.tabIndex = -1;
    el.style.left = `${left * 100}%`;
    el.style.width = `${node.v * scale * 100}%`;
    el.style.top = `${level * ROW}px`;
    // A label only where it has room to be read (the aria-label is always there).
    if (node.v * scale * width >= 28) {
      const text = document.createElement('span');
      text.textContent = label(node);
      el.append(text);
    }
    el.addEventListener('click', (e) => activate(node, e.altKey));
    el.addEventListener('mouseenter', () => show(node));
    el.addEventListener('mouseleave', () => selected && show(selected));
    el.addEventListener('focus', () => select(node, false));
    container.append(el);
    elements.set(node, el);
    depth = Math.max(depth, level + 1);
    const kids = visibleChildren(node, scale);
    let x = left;
    kids.forEach((c, i) => {
      place(c, x, level + 1, kids.length, i + 1);
      x += c.v * scale;
    });
  };
  place(top, 0, 0, 1, 1);
  container.style.height = `${depth * ROW + 2}px`;
  if (zoomLine) zoomLine.textContent = zoom && zoom !== root ? fill(data.labels.zoomed, label(zoom)) : '';
  if (reset) reset.disabled = !zoom || zoom === root;
  if (!selected || !elements.has(selected)) selected = top;
  for (const [n, el] of elements) el.tabIndex = n === selected ? 0 : -1;
  elements.get(selected)?.classList.add('selected');
  show(selected);
}

function show(node: FlameNode): void {
  if (detail) detail.textContent = describe(node);
}

function select(node: FlameNode, focus = true): void {
  if (!elements.has(node)) return;
  if (selected) {
    const old = elements.get(selected);
    old?.classList.remove('selected');
    if (old) old.tabIndex = -1;
  }
  selected = node;
  const el = elements.get(node)!;
  el.classList.add('selected');
  el.tabIndex = 0;
  if (focus) el.focus();
  show(node);
}

function zoomTo(node: FlameNode | undefined): void {
  zoom = node && node !== tree() ? node : undefined;
  selected = node ?? tree();
  draw();
  if (selected) elements.get(selected)?.focus();
}

/** A component frame opens its line (Alt+click zooms instead); any other frame zooms in. */
function activate(node: FlameNode, zoomInstead = false): void {
  select(node, false);
  if (node.c && node.f && !zoomInstead) vscode.postMessage({ type: 'open', file: node.f, line: node.l ?? 0 });
  else zoomTo(node);
}

container?.addEventListener('keydown', (e) => {
  if (!selected) return;
  const top = zoom ?? tree()!;
  const scale = 1 / top.v;
  const parent = selected === top ? undefined : parents.get(selected);
  const siblings = parent ? visibleChildren(parent, scale) : [selected];
  const i = siblings.indexOf(selected);
  let next: FlameNode | undefined;
  switch (e.key) {
    case 'ArrowDown':
      next = visibleChildren(selected, scale)[0];
      break;
    case 'ArrowUp':
      next = parent;
      break;
    case 'ArrowLeft':
      next = siblings[i - 1];
      break;
    case 'ArrowRight':
      next = siblings[i + 1];
      break;
    case 'Home':
      next = top;
      break;
    case 'Enter':
      activate(selected);
      e.preventDefault();
      return;
    case 'z':
    case 'Z':
      zoomTo(selected);
      e.preventDefault();
      return;
    case 'Escape':
      zoomTo(undefined);
      e.preventDefault();
      return;
    default:
      return;
  }
  e.preventDefault();
  if (next) select(next);
});

reset?.addEventListener('click', () => zoomTo(undefined));
// Labels follow the width: drawn again when the panel is resized.
let resizing: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
  clearTimeout(resizing);
  resizing = setTimeout(draw, 100);
});

for (const b of document.querySelectorAll<HTMLButtonElement>('button[data-context]')) {
  b.addEventListener('click', () => {
    const c = b.dataset.context as ContextName;
    if (!data.trees[c]) return;
    context = c;
    vscode.setState({ context });
    for (const o of document.querySelectorAll<HTMLButtonElement>('button[data-context]')) o.setAttribute('aria-pressed', String(o === b));
    start();
  });
}

function start(): void {
  parents.clear();
  zoom = undefined;
  selected = undefined;
  const root = tree();
  if (root) index(root);
  // A function asked for (a CodeLens): its largest frame selected.
  if (root && data.focus) {
    let best: FlameNode | undefined;
    const find = (n: FlameNode) => {
      if (n.c && n.f === data.focus!.file && n.l === data.focus!.line && (!best || n.v > best.v)) best = n;
      (n.k ?? []).forEach(find);
    };
    find(root);
    selected = best;
  }
  draw();
}

start();
