import { type Child, h, ms } from './dom.ts';
import type { RunRecord } from './schemas.ts';

/** Everything a record says about one run: "which failed and why" without curl and jq. */
export function runDetails(r: RunRecord): HTMLElement {
  const rows: [string, Child][] = [
    ['cause', r.cause],
    ['reason', r.reason],
    ['exit code', r.exitCode],
    ['signal', r.signal],
    ['HTTP status', r.status],
    ['decision', r.decision],
    ['permission', r.permission],
    [
      'failed',
      r.failed === undefined
        ? undefined
        : `${r.failed} (fail-${r.failed} counted as ${r.failed === 'open' ? 'allow' : 'deny'})`,
    ],
    ['duration', `${ms(r.durationMs)} ms`],
    ['at', r.at],
    ['dialect', r.dialect],
    ['source', r.source],
    ['session', r.sessionId],
    ['depth', r.depth],
    ['worker', r.worker],
    ['consent', r.consent],
    ['truncated', r.truncated === undefined ? undefined : Object.keys(r.truncated).join(', ')],
  ];
  const dl = h('dl', { class: 'details-list' });
  for (const [name, value] of rows) {
    if (value === undefined || value === '') continue;
    dl.append(h('dt', {}, name), h('dd', {}, value));
  }
  return h(
    'div',
    { class: 'run-details' },
    dl,
    r.stderrTail !== undefined && r.stderrTail !== ''
      ? h('div', {}, h('h4', {}, 'stderr (tail)'), h('pre', { class: 'stderr' }, r.stderrTail))
      : null,
    r.additionalContext !== undefined
      ? h('div', {}, h('h4', {}, 'additional context'), h('pre', {}, r.additionalContext))
      : null,
  );
}
