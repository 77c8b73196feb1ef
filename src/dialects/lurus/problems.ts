import { existsSync } from 'node:fs';
import { scriptPathsOf } from '../../core/command-words.ts';
import { type ConfigIssue, jsonPath } from '../../core/issues.ts';
import { compileMatcher } from '../../registry/matcher.ts';
import { hookProblems } from './compile.ts';
import type { LurusConfig } from './source.ts';

/**
 * [L-VAL-1] Everything `validate` reports for the gate dialect, in one run: the problems that made
 * a source be skipped, plus a walk over every definition of every parsed source — so one kind of
 * problem never hides another — for invalid matcher regexes, refused HTTP settings, and command
 * hooks whose script file is missing.
 */
export function lurusProblems(config: LurusConfig): ConfigIssue[] {
  const seen = new Set<string>();
  const out: ConfigIssue[] = [];
  const add = (issue: ConfigIssue) => {
    const key = `${issue.file}\0${issue.path}\0${issue.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(issue);
  };
  for (const issue of config.issues) add(issue);
  for (const issue of config.warnings) add(issue);
  for (const source of config.sources) {
    const map = source.raw;
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    const base = source.base ?? [];
    for (const [event, definitions] of Object.entries(map)) {
      if (!Array.isArray(definitions)) continue;
      definitions.forEach((def: unknown, d) => {
        if (typeof def !== 'object' || def === null) return;
        const matcher: unknown = Reflect.get(def, 'matcher');
        if (typeof matcher === 'string') {
          const compiled = compileMatcher(matcher);
          if (compiled.error !== undefined) {
            add({
              file: source.file,
              path: jsonPath([...base, event, d, 'matcher']),
              message: compiled.error,
            });
          }
        }
        const hooks: unknown = Reflect.get(def, 'hooks');
        if (!Array.isArray(hooks)) return;
        hooks.forEach((hook: unknown, h) => {
          if (typeof hook !== 'object' || hook === null) return;
          const at = [...base, event, d, 'hooks', h];
          for (const problem of lintHook(hook, config)) {
            add({ file: source.file, path: jsonPath([...at, problem.field]), message: problem.message });
          }
        });
      });
    }
  }
  return out;
}

function lintHook(hook: object, config: LurusConfig): Array<{ field: string; message: string }> {
  const type: unknown = Reflect.get(hook, 'type');
  if (type === 'http') {
    const str = (key: string) => {
      const v: unknown = Reflect.get(hook, key);
      return typeof v === 'string' ? v : undefined;
    };
    const headers: unknown = Reflect.get(hook, 'headers');
    const headerMap: Record<string, string> = {};
    if (typeof headers === 'object' && headers !== null) {
      for (const [k, v] of Object.entries(headers)) if (typeof v === 'string') headerMap[k] = v;
    }
    const url = str('url');
    return hookProblems({
      type: 'http',
      ...(url !== undefined ? { url } : {}),
      method: str('method') ?? 'POST',
      headers: headerMap,
      allowLinkLocal: Reflect.get(hook, 'allowLinkLocal') === true,
    });
  }
  const command: unknown = Reflect.get(hook, 'command');
  if (type !== 'command' || typeof command !== 'string') return [];
  return scriptPathsOf(command, config.projectDir, config.home)
    .filter((script) => !existsSync(script))
    .map((script) => ({ field: 'command', message: `script file ${script} does not exist` }));
}
