/**
 * Codex CLI's own switches in its `config.toml` files [A-CDX-1]: `[features] hooks = false` (or the
 * old `codex_hooks`) turns every hook off, `[hooks.state."<file>:<event>:<group>:<handler>"]
 * enabled = false` that one hook.
 */
import { isPlainObject } from '../../core/plain-object.ts';
import { codexEventLabel, isCodexEvent } from './events.ts';

/** `[features] hooks` (or the deprecated `codex_hooks`), when the file sets it. */
export function featureFlag(value: object): boolean | undefined {
  const features: unknown = Reflect.get(value, 'features');
  if (!isPlainObject(features)) return undefined;
  const hooks: unknown = Reflect.get(features, 'hooks');
  if (typeof hooks === 'boolean') return hooks;
  const old: unknown = Reflect.get(features, 'codex_hooks');
  return typeof old === 'boolean' ? old : undefined;
}

/** `[hooks.state."<key>"] enabled = false` entries: key → why the hook is off. */
export function disabledStates(value: object, file: string): Array<[string, string]> {
  const hooks: unknown = Reflect.get(value, 'hooks');
  const states: unknown = isPlainObject(hooks) ? Reflect.get(hooks, 'state') : undefined;
  if (!isPlainObject(states)) return [];
  const out: Array<[string, string]> = [];
  for (const [key, s] of Object.entries(states))
    if (isPlainObject(s) && Reflect.get(s, 'enabled') === false)
      out.push([key, `enabled = false in [hooks.state."${key}"] of ${file}`]);
  return out;
}

/** Codex's key of a hook: `<absolute source file>:<event label>:<group index>:<handler index>`. */
export function stateKeyOf(entry: {
  event: string;
  origin: { file?: string; path?: string };
}): string | undefined {
  const m = /\[(\d+)\]\.hooks\[(\d+)\]$/.exec(entry.origin.path ?? '');
  if (m === null || entry.origin.file === undefined || !isCodexEvent(entry.event)) return undefined;
  return `${entry.origin.file}:${codexEventLabel(entry.event)}:${m[1]}:${m[2]}`;
}

/** What the config.toml files loaded switch: `[features] hooks` (the last that sets it) and `[hooks.state]`. */
export interface CodexSwitches {
  feature?: { on: boolean; file: string };
  state: Map<string, string>;
}

export function readSwitches(file: string, value: object, switches: CodexSwitches): void {
  const flag = featureFlag(value);
  if (flag !== undefined) switches.feature = { on: flag, file };
  for (const [key, why] of disabledStates(value, file)) switches.state.set(key, why);
}
