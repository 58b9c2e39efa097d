/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The chart of the site report and the comparison, in the webview (bundled with Chart.js into dist/webview/chart.js;
// no CDN, run under the panel's CSP nonce). Data comes from the extension as JSON in a non-executed <script> element;
// every string reaches the DOM through textContent, never as HTML.
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip, type ChartConfiguration, type Plugin } from 'chart.js';
import type { ChartData, ChartMetric } from '../core/report/glance';
import type { ContextName } from '../core/model';

import { signed } from '../core/present/format';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

export interface ViewData {
  mode: 'site' | 'compare';
  context: ContextName;
  metric: ChartMetric;
  charts: Record<ContextName, Record<ChartMetric, ChartData>>;
  labels: {
    contexts: Record<ContextName, string>;
    metrics: Record<ChartMetric, string>;
    notMeasured: string;
    unknown: string;
    budget: string;
    open: string;
    nothing: string;
    component: string;
    value: string;
    share: string;
  };
}

declare function acquireVsCodeApi(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): void };

const vscode = acquireVsCodeApi();
const data = JSON.parse(document.getElementById('wpb-data')?.textContent ?? '{}') as ViewData;
const saved = (vscode.getState() ?? {}) as { context?: ContextName; metric?: ChartMetric };
let context: ContextName = saved.context && data.charts[saved.context] ? saved.context : data.context;
let metric: ChartMetric = saved.metric ?? data.metric;
let chart: Chart<'bar'> | undefined;

const css = (name: string, fallback: string) => getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
};

const open = (kind: string, slug: string) => vscode.postMessage({ type: 'open', kind, slug });

/** The budget as a vertical dashed line across the bars. */
const budgetLine: Plugin<'bar'> = {
  id: 'wpbBudget',
  afterDatasetsDraw(c) {
    const current = data.charts[context][metric];
    if (current.budget === null) return;
    const x = c.scales.x.getPixelForValue(current.budget);
    const { top, bottom } = c.chartArea;
    const ctx = c.ctx;
    ctx.save();
    ctx.strokeStyle = css('--vscode-charts-red', '#f14c4c');
    ctx.lineWidth = 2;
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    ctx.restore();
  },
};

/** Each bar's value at its end ("+68.1 ms"): the chart reads without hovering. */
const valueLabels: Plugin<'bar'> = {
  id: 'wpbValues',
  afterDatasetsDraw(c) {
    const current = data.charts[context][metric];
    const ctx = c.ctx;
    ctx.save();
    ctx.fillStyle = css('--vscode-descriptionForeground', '#999');
    ctx.font = `12px ${css('--vscode-font-family', 'sans-serif')}`;
    ctx.textBaseline = 'middle';
    c.getDatasetMeta(0).data.forEach((bar, i) => {
      const b = current.bars[i];
      if (b) ctx.fillText(signed(b.display), bar.x + 6, bar.y);
    });
    ctx.restore();
  },
};

function renderChart(current: ChartData): void {
  const canvas = document.getElementById('wpb-chart') as HTMLCanvasElement;
  const wrap = canvas.parentElement as HTMLElement;
  wrap.style.height = `${Math.max(120, current.bars.length * 30 + 48)}px`;
  wrap.hidden = current.bars.length === 0;
  canvas.setAttribute('aria-label', `${current.title}: ${current.bars.map((b) => `${b.name} +${b.display}`).join(', ')}`);
  const fg = css('--vscode-foreground', '#ccc');
  const grid = css('--vscode-panel-border', 'rgba(128,128,128,0.35)');
  const config: ChartConfiguration<'bar'> = {
    type: 'bar',
    data: {
      labels: current.bars.map((b) => b.name),
      datasets: [{ label: current.title, data: current.bars.map((b) => b.value), backgroundColor: css('--vscode-charts-blue', '#3794ff'), borderRadius: 3, barPercentage: 0.8, maxBarThickness: 22 }],
    },
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      layout: { padding: { right: 80 } },
      scales: {
        x: { beginAtZero: true, suggestedMax: current.budget ?? undefined, ticks: { color: fg }, grid: { color: grid }, title: { display: true, text: current.unit, color: fg } },
        y: { ticks: { color: fg, autoSkip: false }, grid: { display: false } },
      },
      plugins: {
        tooltip: { callbacks: { label: (item) => `${signed(current.bars[item.dataIndex].display)} (${Math.round(current.bars[item.dataIndex].share * 100)}%)` } },
      },
      onClick: (_event, elements) => {
        const hit = elements[0];
        if (hit) open(current.bars[hit.index].kind, current.bars[hit.index].slug);
      },
      onHover: (event, elements) => {
        const target = event.native?.target as HTMLElement | undefined;
        if (target) target.style.cursor = elements.length ? 'pointer' : 'default';
      },
    },
    plugins: [budgetLine, valueLabels],
  };
  if (chart) chart.destroy();
  chart = new Chart(canvas, config);
}

function renderSide(current: ChartData): void {
  const side = document.getElementById('wpb-side') as HTMLElement;
  side.replaceChildren();
  const list = (title: string, items: { name: string; slug: string; why?: string }[]) => {
    if (!items.length) return;
    side.append(el('h3', `${title} (${items.length})`));
    const ul = el('ul');
    for (const i of items) {
      const li = el('li', i.name);
      if (i.name.toLowerCase() !== i.slug.toLowerCase()) li.append(' ', el('code', i.slug));
      if (i.why) li.append(el('span', ` — ${i.why}`, 'why'));
      ul.append(li);
    }
    side.append(ul);
  };
  list(data.labels.notMeasured, current.notMeasured);
  list(data.labels.unknown, current.unknown);
  if (current.budget !== null) side.append(el('p', `${data.labels.budget}: ${current.budgetDisplay} · Σ ${current.totalDisplay}`, current.overBudget ? 'over' : 'within'));
}

function renderTable(current: ChartData): void {
  const body = document.querySelector('#wpb-values tbody') as HTMLElement;
  body.replaceChildren();
  for (const b of current.bars) {
    const tr = el('tr');
    tr.dataset.slug = b.slug;
    const name = el('th', b.name);
    name.scope = 'row';
    const button = el('button', data.labels.open, 'link');
    button.type = 'button';
    button.setAttribute('aria-label', `${data.labels.open}: ${b.name}`);
    button.addEventListener('click', () => open(b.kind, b.slug));
    const action = el('td');
    action.append(button);
    tr.append(name, el('td', signed(b.display)), el('td', `${Math.round(b.share * 100)}%`), action);
    body.append(tr);
  }
  const empty = document.getElementById('wpb-empty') as HTMLElement;
  empty.hidden = current.bars.length > 0;
}

function render(): void {
  const current = data.charts[context][metric];
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-context]')) b.setAttribute('aria-pressed', String(b.dataset.context === context));
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-metric]')) b.setAttribute('aria-pressed', String(b.dataset.metric === metric));
  (document.getElementById('wpb-chart-title') as HTMLElement).textContent = current.title;
  renderChart(current);
  renderSide(current);
  renderTable(current);
  vscode.setState({ context, metric });
}

for (const b of document.querySelectorAll<HTMLButtonElement>('[data-context]')) {
  b.addEventListener('click', () => {
    context = b.dataset.context as ContextName;
    render();
  });
}
for (const b of document.querySelectorAll<HTMLButtonElement>('[data-metric]')) {
  b.addEventListener('click', () => {
    metric = b.dataset.metric as ChartMetric;
    render();
  });
}
render();
// A theme change restyles the page (VS Code swaps the body's class and CSS variables); the canvas is redrawn with the
// new colours.
new MutationObserver(() => render()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
