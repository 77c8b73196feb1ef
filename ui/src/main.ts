import './style.css';
import { agentRunsView } from './agent-runs-view.ts';
import { Api } from './api.ts';
import { h, replace } from './dom.ts';
import { explainView } from './explain-view.ts';
import { gatePage } from './gate-page.ts';
import { gateView } from './gate-view.ts';
import { hooksView } from './hooks-view.ts';
import { latencyView } from './latency-view.ts';
import { loginView } from './login.ts';
import { type FeedState, followRuns } from './run-stream.ts';
import { RunsStore } from './runs-store.ts';
import { runsView } from './runs-view.ts';
import { hooksAnswerSchema } from './schemas.ts';

// The token lives in sessionStorage: asked once per tab, gone when the tab closes, never in a URL.
const TOKEN_KEY = 'hookwerk.token';
const root = document.getElementById('app')!;
let stopCurrent: (() => void) | undefined;

/** Whether the API takes `token`: undefined if so, else what to tell the user. */
async function check(token: string): Promise<string | undefined> {
  const answer = await new Api(token, () => {}).call('GET', '/api/hooks', hooksAnswerSchema);
  if (answer.ok) return undefined;
  return answer.status === 401 ? 'This token is not the one serve uses.' : answer.error;
}

function showLogin(message?: string): void {
  stopCurrent?.();
  stopCurrent = undefined;
  sessionStorage.removeItem(TOKEN_KEY);
  replace(
    root,
    loginView(message, async (token) => {
      const problem = await check(token);
      if (problem === undefined) {
        sessionStorage.setItem(TOKEN_KEY, token);
        showDashboard(token);
      }
      return problem;
    }),
  );
}

function showDashboard(token: string): void {
  const api = new Api(token, () =>
    showLogin('The server refused the token (was it rotated?). Enter it again.'),
  );
  const store = new RunsStore();
  const feed = h(
    'span',
    { class: 'feed', attrs: { role: 'status', 'data-state': 'connecting' } },
    'connecting…',
  );
  const stopFeed = followRuns(api, store, (s: FeedState) => {
    feed.dataset.state = s.state;
    feed.textContent =
      s.state === 'live'
        ? 'live'
        : s.state === 'connecting'
          ? 'connecting…'
          : `reconnecting in ${Math.round(s.inMs / 1000)} s (${s.why})`;
  });
  const agentRuns = agentRunsView(api);
  void agentRuns.load();
  const gate = gatePage(api, store);
  void gate.load();
  stopCurrent = () => {
    stopFeed();
    agentRuns.stop();
    gate.stop();
  };
  const hooks = hooksView(api);
  void hooks.load();
  const nav = h(
    'nav',
    { attrs: { 'aria-label': 'sections' } },
    ...[
      ['#runs', 'Runs'],
      ['#agents', 'Agents'],
      ['#gate', 'Gate'],
      ['#latency', 'Latency'],
      ['#explain', 'Explain'],
      ['#hooks', 'Hooks'],
    ].map(([href, text]) => h('a', { attrs: { href } }, text)),
  );
  replace(
    root,
    h(
      'header',
      { class: 'top' },
      h('h1', {}, 'hookwerk'),
      feed,
      nav,
      h('button', { class: 'link', attrs: { type: 'button' }, on: { click: () => showLogin() } }, 'Sign out'),
    ),
    h(
      'main',
      { class: 'dashboard' },
      runsView(store),
      h('div', { class: 'side' }, gateView(store), latencyView(store), explainView(api)),
      gate.element,
      agentRuns.element,
      hooks.element,
    ),
  );
}

const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved === null) showLogin();
else {
  // A token from earlier in this tab: used if it still works, else asked for again.
  void check(saved).then((problem) => (problem === undefined ? showDashboard(saved) : showLogin(problem)));
}
