import { selectBackend } from '../src/runners/launcher-backend.ts';

export type Backend = 'native' | 'node' | 'direct';

/**
 * The backend an engine asking for `choice` really gets: `HOOKWERK_LAUNCHER` overrides the choice,
 * and without a C build `native` is the Node launcher. Tests hold each backend to what it
 * guarantees (docs/hook-processes.md), so they branch on this, not on what they asked for.
 */
export function backendOf(choice: Backend): Backend {
  const kind = selectBackend(choice).kind;
  return kind === 'posix_spawn launcher' ? 'native' : kind === 'node launcher' ? 'node' : 'direct';
}
