/**
 * [G-PERM-1] How many rules a policy file holds besides its hooks, read from its bare
 * value (approved or not, valid or not): each entry of `permissions.deny|ask|allow` and each
 * entry of `guards` (SPEC §14.3). A project policy of rules alone needs the project's approval as a hook does
 * [R-POL-1], so consent and `hookwerk trust` count them.
 */
const LISTS = ['deny', 'ask', 'allow'] as const;

export function policyRuleCount(value: object): number {
  let count = 0;
  const permissions: unknown = Reflect.get(value, 'permissions');
  if (typeof permissions === 'object' && permissions !== null)
    for (const list of LISTS) {
      const rules: unknown = Reflect.get(permissions, list);
      if (Array.isArray(rules)) count += rules.length;
    }
  const guards: unknown = Reflect.get(value, 'guards');
  if (typeof guards === 'object' && guards !== null && !Array.isArray(guards))
    count += Object.keys(guards).length;
  return count;
}
