/**
 * [G-LIB-1, G-LIB-3] `publish` (asks by default): a command that publishes what the project
 * builds — `npm|pnpm|yarn|bun publish`, `yarn npm publish`, `cargo publish`, `twine upload`,
 * `uv publish`, `poetry publish`, `gem push`, `docker|podman push` (also `image push`, `manifest
 * push`, `compose push`, `buildx build|bake --push`, `build --push`), `gh release create|upload`,
 * `vsce publish`, `ovsx publish` — and beside that list `lerna|changeset publish`, `np` (not
 * `--preview`), `semantic-release` (not `-d`), `flit|hatch|pdm publish`, `mvn deploy`, `gradle
 * publish…` (not `publishToMavenLocal`), `dotnet nuget push`, `nuget push`, `pod trunk push`, `mix
 * hex.publish`, `helm push`. Found through the package runners the action view reads
 * (`npx`, `pnpm exec`, `python -m twine`, `uvx`, …) like any launcher. A dry run (`--dry-run`,
 * `cargo publish -n`) passes. A command whose name is only known when it runs, followed by
 * `publish` or `upload`, is objected to.
 */
import { z } from 'zod';
import type { SimpleCommand } from '../action/view-types.ts';
import { shownCommand } from './guard-text.ts';
import type { GuardContext, GuardDefinition, GuardHit } from './guard-types.ts';

const OPTIONS = z.strictObject({});

export type PublishOptions = z.infer<typeof OPTIONS>;

/** `docker buildx build --push`, `--output type=registry`, `-o …,push=true`. */
function pushesImage(c: SimpleCommand): boolean {
  if (c.options.includes('push')) return true;
  return c.flags.some(
    (f) =>
      (f.names.includes('output') || f.names.includes('o')) &&
      f.value !== undefined &&
      /(^|,)(type=registry|push=true)(,|$)/.test(f.value),
  );
}

/**
 * `--dry-run` (`cargo publish -n`), but not `--dry-run=false` nor `--dry-run false` (npm's option
 * parser takes a following `true`/`false` as the flag's value).
 */
function dryRun(c: SimpleCommand): boolean {
  const off = /^(false|no|0|off)$/i;
  if (!c.flags.some((f) => f.names.includes('dry-run') && !off.test(f.value ?? ''))) return false;
  return !c.argv.some((w, i) => /^--dry-run$/.test(w) && off.test(c.argv[i + 1] ?? ''));
}

/** What `c` publishes to, or undefined when it publishes nothing. */
function published(c: SimpleCommand): string | undefined {
  // `cargo +nightly publish`: the toolchain is no subcommand.
  const pos =
    c.name === 'cargo' && c.positionals[0]?.startsWith('+') ? c.positionals.slice(1) : c.positionals;
  const [first, second] = pos;
  switch (c.name) {
    case 'npm':
    case 'pnpm':
    case 'bun':
      return first === 'publish' ? 'a package to its registry' : undefined;
    case 'yarn':
      return first === 'publish' || (first === 'npm' && second === 'publish')
        ? 'a package to its registry'
        : undefined;
    case 'cargo':
      return first === 'publish' ? 'a crate to its registry' : undefined;
    case 'twine':
      return first === 'upload' ? 'Python packages to an index' : undefined;
    case 'uv':
    case 'poetry':
      return first === 'publish' ? 'Python packages to an index' : undefined;
    case 'gem':
      return first === 'push' ? 'a gem to its registry' : undefined;
    case 'docker':
    case 'podman':
      if (first === 'push') return 'an image to its registry';
      if ((first === 'image' || first === 'manifest' || first === 'compose') && second === 'push')
        return 'images to their registry';
      if ((first === 'buildx' && (second === 'build' || second === 'bake')) || first === 'build')
        return pushesImage(c) ? 'an image to its registry' : undefined;
      return undefined;
    case 'gh':
      return first === 'release' && (second === 'create' || second === 'upload')
        ? 'a GitHub release'
        : undefined;
    case 'vsce':
    case 'ovsx':
      return first === 'publish' ? 'an editor extension' : undefined;
    // The publishers beside the SPEC's list that a release reaches for.
    case 'lerna':
    case 'changeset':
      return first === 'publish' ? 'packages to their registry' : undefined;
    case 'np':
      return c.options.includes('preview') ? undefined : 'a package to its registry';
    case 'semantic-release':
      return c.options.includes('d') || c.options.includes('no-ci') ? undefined : 'a release';
    case 'flit':
    case 'hatch':
    case 'pdm':
      return first === 'publish' ? 'Python packages to an index' : undefined;
    case 'mvn':
    case 'mvnw':
      return pos.includes('deploy') ? 'artifacts to a repository' : undefined;
    case 'gradle':
    case 'gradlew':
      return pos.some((t) => /^(:?[\w-]+:)*publish(?!ToMavenLocal)\w*$/.test(t))
        ? 'artifacts to a repository'
        : undefined;
    case 'dotnet':
      return first === 'nuget' && second === 'push' ? 'a NuGet package' : undefined;
    case 'nuget':
      return first === 'push' ? 'a NuGet package' : undefined;
    case 'pod':
      return first === 'trunk' && second === 'push' ? 'a CocoaPod' : undefined;
    case 'mix':
      return first === 'hex.publish' ? 'a Hex package' : undefined;
    case 'helm':
      return first === 'push' ? 'a chart to its registry' : undefined;
    default:
      return undefined;
  }
}

function check(
  call: Parameters<GuardDefinition<PublishOptions>['check']>[0],
  _options: PublishOptions,
  ctx: GuardContext,
): GuardHit[] {
  if (call.tool !== 'Bash') return [];
  const hits: GuardHit[] = [];
  for (const c of call.view.commands) {
    // Made only for a reason: most commands give none.
    const shown = () => shownCommand(c, ctx);
    if (c.dynamic) {
      const verb = c.positionals[0];
      if (verb === 'publish' || verb === 'upload')
        hits.push({ saw: `${shown()}: cannot tell which command ${c.name} is (it may publish)`, command: c });
      continue;
    }
    if (dryRun(c)) continue;
    const what = published(c);
    if (what !== undefined) hits.push({ saw: `${shown()} publishes ${what}`, command: c });
  }
  return hits;
}

export const publishGuard: GuardDefinition<PublishOptions> = {
  name: 'publish',
  defaultDecision: 'ask',
  options: OPTIONS,
  tools: ['Bash'],
  check,
};
