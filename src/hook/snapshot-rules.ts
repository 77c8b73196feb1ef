/**
 * [G-PERF-1] The CEL rules of the home a startup snapshot is built for, compiled while it is
 * built (cli/snapshot-entry.ts): a cold call from that blob then finds each rule of the user's and
 * the managed policy already compiled in compileWhen's cache, which is keyed by the condition's
 * text alone — a rule edited after the build is simply not found there and is compiled as before,
 * so nothing the blob holds can stand for a policy that changed. Compiling only: no rule runs here.
 */
import { MAX_SOURCE_BYTES } from '../consent/project-surface.ts';
import { parseJsoncText } from '../core/json-text.ts';
import { isPlainObject } from '../core/plain-object.ts';
import { readSourceFile } from '../core/read-source.ts';
import { MANAGED_POLICY_FILE, policyFile } from '../dialects/surfaces/policy-files.ts';
import { compileWhen } from '../rules/cel-program.ts';

/** Conditions compiled at most (compileWhen's cache keeps 512). */
const MAX_RULES = 256;

/** The `when` of every `{"type": "rule"}` object in `value`, in document order, each once. */
export function ruleConditions(value: unknown, into = new Set<string>()): Set<string> {
  const stack: unknown[] = [value];
  while (stack.length > 0 && into.size < MAX_RULES) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (isPlainObject(v)) {
      if (v.type === 'rule' && typeof v.when === 'string') into.add(v.when);
      for (const child of Object.values(v).reverse()) if (typeof child === 'object') stack.push(child);
    }
  }
  return into;
}

/** The conditions of the user's policy of `home` and of the managed policy (files that do not read: none). */
export function policyRuleConditions(
  home: string,
  files = [policyFile(home), MANAGED_POLICY_FILE],
): string[] {
  const found = new Set<string>();
  for (const file of files) {
    const read = readSourceFile(file, MAX_SOURCE_BYTES);
    if (read.kind !== 'text') continue;
    const parsed = parseJsoncText(file, read.text);
    if (parsed.ok) ruleConditions(parsed.value, found);
  }
  return [...found];
}

/** Compiles them into compileWhen's cache; how many compiled (a condition with an error counts too). */
export function precompileRules(home: string): number {
  const whens = policyRuleConditions(home);
  for (const when of whens) compileWhen(when);
  return whens.length;
}
