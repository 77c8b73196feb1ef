/**
 * Where the gate dialect's event maps are [L-SRC-1..5] and how each is read: the six sources
 * (`hooks.json`, and the `hooks` / `globalHooks` / `projectHooks` keys of `settings.json`, global
 * then project), global files read bounded [L-TRUST-4], a source's map found in its parsed file,
 * and an unapproved source's hooks listed from the bare JSON, never evaluated [L-TRUST-3].
 */
import path from 'node:path';
import type { AdmittedFile } from '../../consent/project-admission.ts';
import { lurusDir } from '../../consent/trust-store.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import { readSourceFile } from '../../core/read-source.ts';
import { isLurusEvent } from '../../events/lurus-events.ts';
import type { UnapprovedHook } from '../../registry/hook-definition.ts';
import { LURUS_LIMITS } from './schema.ts';

export type LurusScope = 'global' | 'project';

/** Where an event map lives: a whole `hooks.json`, or one key of a `settings.json`. */
export interface LurusSourceSpec {
  scope: LurusScope;
  file: string;
  /** `null`: the file is the event map; otherwise the settings key holding it. */
  key: null | 'hooks' | 'globalHooks' | 'projectHooks';
}

/** [L-SRC-1..3] The six sources, in the order their arrays are concatenated. */
export function lurusSourceSpecs(projectDir: string, home: string): LurusSourceSpec[] {
  const g = lurusDir(home);
  const p = lurusDir(projectDir);
  return [
    { scope: 'global', file: path.join(g, 'hooks.json'), key: null },
    { scope: 'global', file: path.join(g, 'settings.json'), key: 'hooks' },
    { scope: 'global', file: path.join(g, 'settings.json'), key: 'globalHooks' },
    { scope: 'project', file: path.join(p, 'hooks.json'), key: null },
    { scope: 'project', file: path.join(p, 'settings.json'), key: 'hooks' },
    { scope: 'project', file: path.join(p, 'settings.json'), key: 'projectHooks' },
  ];
}

export type FileText =
  | { exists: false }
  | { exists: true; text: string }
  | { exists: true; error: ConfigIssue };

/** An admitted project file or a read global one, as text, error or absence. */
export function fileText(admitted: AdmittedFile | FileText | undefined): FileText {
  if (admitted === undefined) return { exists: false };
  if (!('kind' in admitted)) return admitted;
  switch (admitted.kind) {
    case 'absent':
      return { exists: false };
    case 'error':
      return { exists: true, error: admitted.issue };
    case 'text':
    case 'unapproved':
      return { exists: true, text: admitted.text };
  }
}

/** The global sources, read bounded [L-TRUST-4]; they need no consent [L-SRC-5]. */
export function readGlobals(specs: readonly LurusSourceSpec[]): Map<string, FileText> {
  const files = new Map<string, FileText>();
  for (const { file, scope } of specs) {
    if (scope !== 'global' || files.has(file)) continue;
    const read = readSourceFile(file, LURUS_LIMITS.maxFileBytes);
    files.set(
      file,
      read.kind === 'missing'
        ? { exists: false }
        : read.kind === 'text'
          ? { exists: true, text: read.text }
          : { exists: true, error: { file, path: '$', message: `file ${read.message}` } },
    );
  }
  return files;
}

/** [L-TRUST-3] The hooks of an unapproved source, named from the bare JSON. */
export function unapprovedHooks(
  spec: LurusSourceSpec,
  map: unknown,
  base: PropertyKey[],
  why: string,
): UnapprovedHook[] {
  const out: UnapprovedHook[] = [];
  if (!isPlainObject(map)) return out;
  for (const [event, defs] of Object.entries(map)) {
    if (!isLurusEvent(event) || !Array.isArray(defs)) continue;
    defs.forEach((def: unknown, d) => {
      const hooks: unknown = isPlainObject(def) ? Reflect.get(def, 'hooks') : undefined;
      if (!Array.isArray(hooks)) return;
      hooks.forEach((hook: unknown, h) => {
        const at = [...base, event, d, 'hooks', h];
        out.push({
          kind: 'unapproved',
          name: isPlainObject(hook) ? bareName(hook) : jsonPath(at),
          event,
          dialect: 'lurus',
          origin: {
            source: `${spec.file}#/${at.map(String).join('/')}`,
            scope: 'project',
            file: spec.file,
            path: jsonPath(at),
          },
          reason: `project hooks are ${why}: run \`hookwerk trust\``,
        });
      });
    });
  }
  return out;
}

function bareName(hook: object): string {
  const command: unknown = Reflect.get(hook, 'command');
  if (typeof command === 'string') return command;
  const url: unknown = Reflect.get(hook, 'url');
  const method: unknown = Reflect.get(hook, 'method');
  if (typeof url === 'string') return `${typeof method === 'string' ? method.toUpperCase() : 'POST'} ${url}`;
  return '(hook)';
}

/** Finds the event map of a source inside its parsed file; `undefined` when a settings key is absent. */
export function locateMap(
  spec: LurusSourceSpec,
  value: unknown,
): { map: unknown; base: PropertyKey[] } | { issue: ConfigIssue } | undefined {
  if (spec.key === null) return { map: value, base: [] };
  if (!isPlainObject(value)) {
    return spec.key === 'hooks'
      ? { issue: { file: spec.file, path: '$', message: 'settings must be a JSON object' } }
      : undefined;
  }
  if (!Object.hasOwn(value, spec.key)) return undefined;
  const map: unknown = Reflect.get(value, spec.key);
  return { map, base: [spec.key] };
}
