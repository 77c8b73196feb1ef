/**
 * [G-LIB-1] Which files the `secrets` guard keeps: the shipped names (`.env`, `*.pem`, `id_rsa`…,
 * at any depth), the shipped places under the home (`~/.ssh/**`, `~/.aws/credentials`…) and the
 * globs of its `paths` option; `**\/.git/config`, `.env.example` and kin, public keys,
 * `known_hosts` and `~/.ssh/config` are not secret. Also: whether a glob the call names can
 * stand for one of them, and whether a folder holds one of the places (a recursive copy of `~`).
 */
import path from 'node:path';
import { compilePathGlob, type PathGlob, pathGlobMatches } from '../core/path-glob.ts';
import { globCovers, lastSegmentCovers, optionGlob, within } from './guard-paths.ts';
import type { GuardContext } from './guard-types.ts';

/** `.env.*` files that are templates, not secrets (any dot-part of the name). */
const ENV_TEMPLATES = new Set(['example', 'sample', 'template', 'dist']);

/** A secret by its name alone, wherever it is; undefined when the name is none. */
export function secretName(name: string): string | undefined {
  if (name === '.env' || name === '.envrc') return name;
  if (name.startsWith('.env.')) {
    const parts = name.slice(5).split('.');
    return parts.some((p) => ENV_TEMPLATES.has(p.toLowerCase())) ? undefined : '.env.*';
  }
  if (/^id_(rsa|dsa|ecdsa|ed25519)/.test(name))
    return name.endsWith('.pub') ? undefined : 'a private SSH key';
  const ext = /\.(pem|key|p12|pfx)$/i.exec(name)?.[1];
  return ext === undefined ? undefined : `*.${ext.toLowerCase()}`;
}

/** Example names that stand for `secretName`'s kinds, to test a glob against. */
const NAME_EXAMPLES = [
  '.env',
  '.env.local',
  '.envrc',
  'x.pem',
  'x.key',
  'x.p12',
  'x.pfx',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
];

/** The places under the home, relative to it; `/**` means everything below (and the folder). */
const HOME_PLACES = [
  '.ssh/**',
  '.aws/credentials',
  '.config/gcloud/**',
  '.azure/**',
  '.netrc',
  '.git-credentials',
  '.docker/config.json',
  '.kube/config',
  '.npmrc',
  '.pypirc',
];
/** Under `~/.ssh`, these are not secret (nor `*.pub`). */
const SSH_PUBLIC = new Set(['known_hosts', 'known_hosts.old', 'config']);
/** Names to test a glob's last segment against, inside a secret folder (`~/.ssh/*`). */
const FOLDER_EXAMPLES = ['id_rsa', 'x', 'x.json', 'x.db'];

export class SecretFiles {
  readonly #home: string;
  readonly #places: readonly { glob: PathGlob; folder: string; example: string }[];
  readonly #extra: readonly PathGlob[];
  /** Examples of the `paths` globs, to test a call's glob against. */
  readonly #extraExamples: readonly string[];

  constructor(ctx: GuardContext, paths: readonly string[] = []) {
    this.#home = ctx.home;
    this.#places = HOME_PLACES.map((rel) => {
      const abs = `${ctx.home}/${rel}`;
      const folder = rel.endsWith('/**') ? abs.slice(0, -3) : abs;
      const example = rel.endsWith('/**') ? `${folder}/id_rsa` : abs;
      return { glob: compilePathGlob(abs), folder, example };
    });
    this.#extra = paths.map((p) => optionGlob(p, ctx));
    this.#extraExamples = this.#extra.map((g) =>
      g.source
        .split('/')
        .filter((s) => s !== '**')
        .join('/')
        .replace(/[*?]/g, 'x'),
    );
  }

  /** What kind of secret the absolute path `p` is; undefined when none. */
  kind(p: string): string | undefined {
    const name = path.posix.basename(p);
    // [G-LIB-1] `.git/config` is never secret (a remote's URL is no credential file).
    if (name === 'config' && path.posix.basename(path.posix.dirname(p)) === '.git') return undefined;
    // The places are all below the home's dotfolders and dotfiles: most paths are answered without a glob.
    const places = p.startsWith(`${this.#home}/.`) ? this.#places : [];
    for (const place of places) {
      if (!pathGlobMatches(place.glob, p)) continue;
      if (place.folder.endsWith('/.ssh') && (SSH_PUBLIC.has(name) || name.endsWith('.pub'))) return undefined;
      return `~${p.slice(this.#home.length)}`;
    }
    const byName = secretName(name);
    if (byName !== undefined) return byName;
    if (this.#extra.some((g) => pathGlobMatches(g, p))) return 'a secret of the policy';
    return undefined;
  }

  /**
   * A glob the call names (`.env*`, `~/.ssh/*`) that can stand for a secret: a name kind matched
   * by its last segment — not by a bare `*` or `?…` alone, which would stand for every file of a
   * folder not known here — or a place matched whole. `shell`: a shell's glob (no dotfiles for `*`).
   */
  globKind(pattern: string, shell: boolean): string | undefined {
    const last = pattern.slice(pattern.lastIndexOf('/') + 1);
    const bare = /^[*?]+$/.test(last);
    if (!bare)
      for (const name of NAME_EXAMPLES) if (lastSegmentCovers(pattern, name, shell)) return secretName(name);
    const folder = globFolderOf(pattern);
    for (const place of this.#places) {
      if (globCovers(pattern, place.example, shell)) return this.kind(place.example);
      if (place.folder === place.example || !within(place.folder, folder)) continue;
      for (const name of FOLDER_EXAMPLES) {
        const kind = this.kind(`${folder}/${name}`);
        if (kind !== undefined && lastSegmentCovers(pattern, name, shell)) return kind;
      }
    }
    for (const example of this.#extraExamples)
      if (globCovers(pattern, example, shell)) return 'a secret of the policy';
    return undefined;
  }

  /** A folder that holds one of the home places (`~`, `~/.config`): a recursive read of it reads them. */
  holdsPlace(folder: string): string | undefined {
    for (const place of this.#places)
      if (within(folder, place.folder) && folder !== place.folder)
        return `~${place.folder.slice(this.#home.length)}`;
    return undefined;
  }
}

/** The folder part of a glob, up to its first glob character. */
function globFolderOf(pattern: string): string {
  let i = 0;
  while (i < pattern.length && !'*?['.includes(pattern[i]!)) i++;
  const slash = pattern.lastIndexOf('/', i);
  return slash <= 0 ? '/' : pattern.slice(0, slash);
}
