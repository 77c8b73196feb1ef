import http from 'node:http';
import { type CliProcess, type Exit, startCli } from './cli-process.ts';
import { waitFor } from './helpers.ts';

// `hookwerk serve` as a real child process (optionally under `prlimit`), for the tests that need
// the process's own limits, exit codes or start-up lines.

export type ServeProcess = CliProcess;

export interface Served extends Omit<ServeProcess, 'stop'> {
  url: string;
  port: number;
  /** SIGTERM, then the exit. */
  stop(): Promise<Exit>;
}

/** `node bin/hookwerk.js serve …args`; with `nofile`, under `prlimit --nofile=N:N` (which execs node). */
export function spawnServe(
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: { nofile?: number } = {},
): ServeProcess {
  return startCli(['serve', ...args], { fullEnv: env, ...opts });
}

/** Starts serve and waits for its start-up lines (the last one is `connections: …`). */
export async function startServe(
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: { nofile?: number } = {},
): Promise<Served> {
  const p = spawnServe(args, env, opts);
  let exited = false;
  void p.exit.then(() => {
    exited = true;
  });
  const url = await waitFor(
    () => {
      if (exited) throw new Error(`serve exited early:\n${p.stdout()}\n${p.stderr()}`);
      return /listening on (http:\/\/\S+)\n[\s\S]*\nconnections: .*\n/.exec(p.stdout())?.[1];
    },
    'serve to print its start-up lines',
    20_000,
  );
  return {
    ...p,
    url: url!,
    port: Number(new URL(url!).port),
    stop: () => {
      p.child.kill('SIGTERM');
      return p.exit;
    },
  };
}

/** One request on a connection of its own (`agent: false`: never a pooled, possibly closed one). */
export function request(
  port: number,
  method: string,
  route: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: route,
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The value of one Prometheus sample, e.g. `http_connections_closed_total{reason="limit"}`; 0 when absent. */
export function sample(metrics: string, name: string): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}
