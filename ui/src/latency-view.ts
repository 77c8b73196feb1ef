import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { batched, h, ms, replace } from './dom.ts';
import { type HookLatency, latencyByHook } from './latency.ts';
import type { RunsStore } from './runs-store.ts';

/** Per-hook latency [UI-1]: p50 / p95 from the run records the page holds, as a table and a bar chart. */
export function latencyView(store: RunsStore): HTMLElement {
  const body = h('tbody');
  const chartBox = h('div', {
    class: 'chart',
    attrs: { role: 'img', 'aria-label': 'p50 and p95 latency per hook' },
  });
  let chart: uPlot | undefined;
  let names: string[] = [];

  const draw = (stats: HookLatency[]) => {
    names = stats.map((s) => s.hook);
    const data: uPlot.AlignedData = [
      stats.map((_, i) => i),
      stats.map((s) => s.p95),
      stats.map((s) => s.p50),
    ];
    const size = { width: chartBox.clientWidth || 320, height: chartHeight(stats.length) };
    if (chart === undefined) {
      if (stats.length === 0) return;
      chart = new uPlot(
        chartOptions(size, () => names),
        data,
        chartBox,
      );
      new ResizeObserver(() => {
        if (chart !== undefined && chartBox.clientWidth > 0)
          chart.setSize({ width: chartBox.clientWidth, height: chartHeight(names.length) });
      }).observe(chartBox);
      return;
    }
    if (chart.height !== size.height || chart.width !== size.width) chart.setSize(size);
    chart.setData(data);
  };

  const render = batched(() => {
    const stats = latencyByHook(store.records);
    replace(
      body,
      ...stats.map((s) =>
        h(
          'tr',
          { attrs: { 'data-hook': s.hook } },
          h('td', { class: 'hook' }, s.hook),
          h('td', { class: 'num' }, s.runs),
          h('td', { class: 'num p50' }, ms(s.p50)),
          h('td', { class: 'num p95' }, ms(s.p95)),
          h('td', { class: 'num' }, ms(s.max)),
        ),
      ),
    );
    if (stats.length === 0)
      body.append(h('tr', { class: 'empty' }, h('td', { attrs: { colspan: 5 } }, 'No runs yet.')));
    draw(stats);
  });
  store.onChange(render);
  // The chart needs the box's width: draw once the panel is in the document.
  requestAnimationFrame(render);

  return h(
    'section',
    { class: 'panel latency-panel', attrs: { id: 'latency', 'aria-labelledby': 'latency-title' } },
    h('header', { class: 'panel-head' }, h('h2', { attrs: { id: 'latency-title' } }, 'Latency per hook')),
    chartBox,
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { class: 'latency', attrs: { 'aria-label': 'latency per hook' } },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'hook'),
            h('th', { class: 'num' }, 'runs'),
            h('th', { class: 'num' }, 'p50 ms'),
            h('th', { class: 'num' }, 'p95 ms'),
            h('th', { class: 'num' }, 'max ms'),
          ),
        ),
        body,
      ),
    ),
  );
}

/** One row per hook, so the chart grows with their number and names stay readable on a phone. */
function chartHeight(hooks: number): number {
  return 40 + 26 * Math.max(1, hooks);
}

/**
 * Horizontal bars, one row per hook (names on the left): p95 wide and light, p50 narrow and dark
 * in front of it (p50 ≤ p95 always).
 */
function chartOptions(size: { width: number; height: number }, names: () => string[]): uPlot.Options {
  const bars = (width: number) => uPlot.paths.bars?.({ size: [width, 18], align: 0 });
  return {
    ...size,
    legend: { show: true, live: false },
    cursor: { show: false },
    scales: {
      // x is the hook's index, drawn top to bottom; y the milliseconds, left to right.
      x: { time: false, ori: 1, dir: -1, range: (u) => [-0.5, Math.max(0, (u.data[0]?.length ?? 1) - 0.5)] },
      y: { ori: 0, dir: 1, range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
    },
    axes: [
      {
        side: 3,
        size: 110,
        gap: 4,
        splits: (u) => [...(u.data[0] ?? [])].map(Number),
        values: (_u, splits) => splits.map((i) => shorten(names()[i] ?? '')),
        grid: { show: false },
      },
      { side: 2, size: 30 },
    ],
    series: [
      {},
      {
        label: 'p95 (ms)',
        fill: 'rgba(37, 99, 235, 0.25)',
        stroke: 'rgba(37, 99, 235, 0.6)',
        paths: bars(0.8),
        points: { show: false },
      },
      {
        label: 'p50 (ms)',
        fill: 'rgba(37, 99, 235, 0.85)',
        stroke: 'rgb(30, 64, 175)',
        paths: bars(0.4),
        points: { show: false },
      },
    ],
  };
}

function shorten(name: string): string {
  return name.length > 14 ? `${name.slice(0, 13)}…` : name;
}
