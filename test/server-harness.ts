import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import type { HookEngine } from '../src/engine-api.ts';
import type { HookwerkApp } from '../src/server/app.ts';
import { closeServer, listenLocal } from './http-server.ts';

export interface ServedApp {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Closes the SSE streams, the connections, the server, then the engines; a second call does nothing. */
  stop(): Promise<void>;
}

/** Serves `app` (over `engine`) on a real HTTP server on 127.0.0.1:<free port>. */
export async function serveApp(engine: HookEngine, app: HookwerkApp): Promise<ServedApp> {
  const server = createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server;
  const url = `http://127.0.0.1:${await listenLocal(server)}`;
  let stopped = false;
  return {
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      app.closeStreams();
      await closeServer(server);
      await Promise.all([app.closeEngines(), engine.close()]);
    },
  };
}
