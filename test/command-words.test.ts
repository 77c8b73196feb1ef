/**
 * Which files a hook command refers to: what consent pins [L-TRUST-1, L-TRUST-5], what the review
 * reports as not pinned, and which script a hook needs before it runs.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines; `${VAR}` is shell syntax.
import { describe, expect, it } from 'vitest';
import {
  commandWords,
  outsidePathsOf,
  primaryScriptOf,
  projectPathsOf,
  scriptPathsOf,
} from '../src/core/command-words.ts';

const P = '/proj';
const HOME = '/home/u';

describe('[L-TRUST-5] pins cover the files a command names after expansion and `cd`', () => {
  it.each<[string, string]>([
    ['sh "$CLAUDE_PROJECT_DIR"/.lurus/g.sh', '/proj/.lurus/g.sh'],
    ['sh "${CLAUDE_PROJECT_DIR}/.lurus/g.sh"', '/proj/.lurus/g.sh'],
    ['$CLAUDE_PROJECT_DIR/tools/check.sh --strict', '/proj/tools/check.sh'],
    ['sh "$PWD/.lurus/g.sh"', '/proj/.lurus/g.sh'],
    ['sh ${PWD}/tools/g.sh', '/proj/tools/g.sh'],
    ['cd .lurus/hooks && sh ./g.sh', '/proj/.lurus/hooks/g.sh'],
    ['cd tools; ./g.sh', '/proj/tools/g.sh'],
    ['cd "$CLAUDE_PROJECT_DIR" && ./check.sh', '/proj/check.sh'],
    ['cd tools && sh "$PWD/g.sh"', '/proj/tools/g.sh'],
    ['cd tools && cd ../lib && node main.cjs', '/proj/lib/main.cjs'],
    ['cd /elsewhere && sh "$CLAUDE_PROJECT_DIR/g.sh"', '/proj/g.sh'],
    ["sh -c 'cd tools && ./g.sh'", '/proj/tools/g.sh'],
    ['echo "$(cat ./notes.txt)"', '/proj/notes.txt'],
  ])('%s pins %s', (command, pinned) => {
    expect(projectPathsOf(command, P)).toContain(pinned);
  });

  it('[L-TRUST-5] ${CLAUDE_PLUGIN_ROOT} and $CLAUDE_PLUGIN_ROOT expand to the plugin folder when given', () => {
    const pluginRoot = '/proj/.claude/plugins/p';
    for (const command of ['sh "${CLAUDE_PLUGIN_ROOT}/hooks/x.sh"', '$CLAUDE_PLUGIN_ROOT/hooks/x.sh']) {
      expect(projectPathsOf(command, P, { pluginRoot })).toContain('/proj/.claude/plugins/p/hooks/x.sh');
      expect(outsidePathsOf(command, P, { pluginRoot })).toEqual([]);
    }
  });

  it('[L-TRUST-5] a plugin folder outside the project is reported, not pinned; without a plugin root the word is unresolved', () => {
    const command = 'sh "${CLAUDE_PLUGIN_ROOT}/hooks/x.sh"';
    expect(projectPathsOf(command, P, { pluginRoot: '/plugins/p' })).toEqual(['/proj/sh']);
    expect(outsidePathsOf(command, P, { pluginRoot: '/plugins/p' })).toEqual([
      { kind: 'outside', word: '${CLAUDE_PLUGIN_ROOT}/hooks/x.sh', path: '/plugins/p/hooks/x.sh' },
    ]);
    expect(outsidePathsOf(command, P)).toEqual([
      { kind: 'unresolved', word: '${CLAUDE_PLUGIN_ROOT}/hooks/x.sh', cause: 'expansion' },
    ]);
  });

  it('[L-TRUST-5] single quotes keep $PWD literal, as the shell does', () => {
    const pins = projectPathsOf("sh '$PWD/x'", P);
    expect(pins).not.toContain('/proj/x');
    expect(pins).toContain('/proj/$PWD/x');
    expect(primaryScriptOf("sh '$PWD/x'", P, HOME)).toBe('/proj/$PWD/x');
  });

  it('[L-TRUST-5] a `cd` lasts for the rest of the line, but not past its subshell, pipeline or background job', () => {
    expect(projectPathsOf('(cd tools && sh a.sh); sh b.sh', P)).toEqual(
      expect.arrayContaining(['/proj/tools/a.sh', '/proj/b.sh']),
    );
    expect(projectPathsOf('cd tools | cat; sh b.sh', P)).toContain('/proj/b.sh');
    expect(projectPathsOf('cd tools & sh b.sh', P)).toContain('/proj/b.sh');
    expect(projectPathsOf('cd tools\nsh b.sh', P)).toContain('/proj/tools/b.sh');
  });

  it('[L-TRUST-5] after `cd` alone, `cd -` or `cd $VAR`, relative words are not pinned but reported unresolved', () => {
    for (const cd of ['cd', 'cd -', 'cd "$DIR"', 'cd a b']) {
      const command = `${cd} && sh g.sh sub/data.json`;
      const pins = projectPathsOf(command, P);
      expect(pins, command).not.toContain('/proj/g.sh');
      expect(pins, command).not.toContain('/proj/sub/data.json');
      expect(outsidePathsOf(command, P), command).toEqual(
        expect.arrayContaining([
          { kind: 'unresolved', word: 'g.sh', cause: 'directory' },
          { kind: 'unresolved', word: 'sub/data.json', cause: 'directory' },
        ]),
      );
    }
  });

  it('[L-TRUST-5] a `cd` out of the project makes the script an outside one', () => {
    expect(projectPathsOf('cd /tmp && sh g.sh', P)).not.toContain('/proj/g.sh');
    expect(outsidePathsOf('cd /tmp && sh g.sh', P)).toEqual([
      { kind: 'outside', word: 'g.sh', path: '/tmp/g.sh' },
    ]);
  });

  it('[L-TRUST-5] a line that reassigns a known variable makes it unknown', () => {
    const command = 'CLAUDE_PROJECT_DIR=/tmp; sh "$CLAUDE_PROJECT_DIR/g.sh"';
    expect(projectPathsOf(command, P)).not.toContain('/proj/g.sh');
    expect(outsidePathsOf(command, P)).toEqual([
      { kind: 'unresolved', word: '$CLAUDE_PROJECT_DIR/g.sh', cause: 'expansion' },
    ]);
  });
});

describe('[L-TRUST-1] every word is a candidate; syntax is not', () => {
  it('[L-TRUST-1] a bare program name is pinned as an absent project file, as before', () => {
    expect(projectPathsOf('sh .lurus/hooks/guard.sh', P)).toEqual([
      '/proj/.lurus/hooks/guard.sh',
      '/proj/sh',
    ]);
    expect(projectPathsOf('cat pipe; ls tools', P)).toEqual([
      '/proj/cat',
      '/proj/ls',
      '/proj/pipe',
      '/proj/tools',
    ]);
  });

  it('[L-TRUST-1] assignments are not paths, but a value naming a project file is pinned', () => {
    expect(projectPathsOf('OUT=/tmp/x; echo hi', P)).toEqual(['/proj/echo', '/proj/hi']);
    expect(projectPathsOf('CONF=policy.json ./g.sh', P)).toEqual(['/proj/g.sh', '/proj/policy.json']);
  });

  it('[L-TRUST-1] file descriptors, here-document delimiters and comments are no words', () => {
    expect(projectPathsOf('./g.sh 2>/dev/null 3<&0 >&2 # see docs/x.md', P)).toEqual(['/proj/g.sh']);
    expect(projectPathsOf('./g.sh <<EOF', P)).toEqual(['/proj/g.sh']);
    // A file the command only writes is no code: pinning it would void the approval at the first run.
    expect(projectPathsOf('./g.sh > log.txt', P)).toEqual(['/proj/g.sh']);
    expect(projectPathsOf('./g.sh > log.txt; sh log.txt', P)).toEqual([
      '/proj/g.sh',
      '/proj/log.txt',
      '/proj/sh',
    ]);
  });

  it('[L-TRUST-1] a sibling folder whose name starts with the project name is outside', () => {
    expect(projectPathsOf('sh ../proj-other/g.sh ..hidden/x', P)).toEqual(['/proj/..hidden/x', '/proj/sh']);
  });
});

describe('[L-TRUST-1] forms the shell lexer reads: here-documents, process substitution, bash operators', () => {
  // A here-document body is more lines of the command (its delimiter line no word); `<(…)` runs.
  it.each<[string, string[]]>([
    ['sh <<EOF\n./x.sh\nEOF', ['/proj/sh', '/proj/x.sh']],
    ["cat <<'E' > out\n./y.sh\nE\n./z.sh", ['/proj/cat', '/proj/y.sh', '/proj/z.sh']],
    ['diff <(cat ./a.txt) b.txt', ['/proj/a.txt', '/proj/b.txt', '/proj/cat', '/proj/diff']],
  ])('[L-TRUST-1] %j pins %j', (command, pinned) => {
    expect(projectPathsOf(command, P)).toEqual(pinned);
  });

  it("[L-TRUST-5] $'…' is unresolved: dash reads it as `$` and a quoted string, bash decodes it", () => {
    expect(outsidePathsOf("sh $'x.sh'", P)).toEqual([
      { kind: 'unresolved', word: "$'x.sh'", cause: 'expansion' },
    ]);
    expect(projectPathsOf("sh $'x.sh'", P)).toEqual(['/proj/sh']);
  });

  it("[L-TRUST-5] as `sh` reads bash's `&>x`: `&`, then `>x`, so a `cd` before it runs in the background", () => {
    expect(projectPathsOf('cd tools &>/dev/null; sh g.sh', P)).toContain('/proj/g.sh');
  });

  it('[L-TRUST-5] a backtick body is unescaped before it is read', () => {
    expect(projectPathsOf('echo `cat \\$PWD/notes.txt`', P)).toContain('/proj/notes.txt');
  });
});

describe('[L-TRUST-5] outsidePathsOf: what the review says is not pinned', () => {
  it.each<[string, { kind: 'outside'; word: string; path: string }]>([
    ['source ~/lib.sh', { kind: 'outside', word: '~/lib.sh', path: '/home/u/lib.sh' }],
    ['. ~/lib.sh && ./g.sh', { kind: 'outside', word: '~/lib.sh', path: '/home/u/lib.sh' }],
    [
      '/usr/local/bin/guard --strict',
      { kind: 'outside', word: '/usr/local/bin/guard', path: '/usr/local/bin/guard' },
    ],
    ['sh /opt/hooks/g.sh', { kind: 'outside', word: '/opt/hooks/g.sh', path: '/opt/hooks/g.sh' }],
    ['sh ../shared/g.sh', { kind: 'outside', word: '../shared/g.sh', path: '/shared/g.sh' }],
  ])('%s', (command, expected) => {
    expect(outsidePathsOf(command, P, { home: HOME })).toEqual([expected]);
  });

  it.each<[string, string]>([
    ['source ~/lib.sh', '~/lib.sh'],
    ['sh "$HOOK"', '$HOOK'],
    ['$HOOK --strict', '$HOOK'],
    ['sh "$(git rev-parse --show-toplevel)/g.sh"', '$(git rev-parse --show-toplevel)/g.sh'],
    ['sh `pwd`/g.sh', '`pwd`/g.sh'],
    ['node ~other/x.js', '~other/x.js'],
  ])('%s: %s is unresolved', (command, word) => {
    expect(outsidePathsOf(command, P)).toContainEqual({ kind: 'unresolved', word, cause: 'expansion' });
  });

  it('[L-TRUST-5] project paths, redirections, assignments, options, URLs and PATH programs are not reported', () => {
    const command =
      'OUT=/tmp/x ./g.sh --config=/etc/x https://example.com/a 2>/dev/null > /tmp/log; guard; sh .lurus/g.sh';
    expect(outsidePathsOf(command, P, { home: HOME })).toEqual([]);
  });

  it('[L-TRUST-5] a `/` inside a command substitution is judged inside it, not as this word', () => {
    expect(outsidePathsOf('echo "$(cat ./notes.txt)"', P)).toEqual([]);
    expect(outsidePathsOf('echo "$(cat /etc/motd)"', P)).toEqual([
      { kind: 'outside', word: '/etc/motd', path: '/etc/motd' },
    ]);
  });
});

describe('primaryScriptOf: the script a hook needs before it runs', () => {
  it.each<[string, string | undefined]>([
    ['FOO=/a/b ./check.sh', '/p/check.sh'],
    ['OUT=/tmp/x; echo hi', undefined],
    ['OUT=/tmp/x; ./run.sh', '/p/run.sh'],
    ['cd .lurus/hooks && sh ./g.sh', '/p/.lurus/hooks/g.sh'],
    ['cd - && sh g.sh', undefined],
    ['sh "$CLAUDE_PROJECT_DIR/.lurus/g.sh"', '/p/.lurus/g.sh'],
    ['"$PWD"/x.sh', '/p/x.sh'],
    ['source ./lib.sh', '/p/lib.sh'],
    ['exec ./x.sh', '/p/x.sh'],
    ['sh -c "echo hi"', undefined],
    ['/bin/sh -c "echo hi"', undefined],
    ['sh "$HOOK"', undefined],
    ['"${CLAUDE_PLUGIN_ROOT}/h.sh"', undefined],
  ])('%s → %s', (command, expected) => {
    expect(primaryScriptOf(command, '/p', HOME)).toBe(expected);
  });

  it('[L-TRUST-5] expands ${CLAUDE_PLUGIN_ROOT} and a separate $CLAUDE_PROJECT_DIR when given', () => {
    expect(primaryScriptOf('"${CLAUDE_PLUGIN_ROOT}/h.sh"', '/p', HOME, { pluginRoot: '/plug' })).toBe(
      '/plug/h.sh',
    );
    expect(primaryScriptOf('sh "$CLAUDE_PROJECT_DIR/g.sh"', '/p/sub', HOME, { projectDir: '/p' })).toBe(
      '/p/g.sh',
    );
  });
});

describe('scriptPathsOf: script paths validate checks for existence', () => {
  it.each<[string, string[]]>([
    ['sh "$CLAUDE_PROJECT_DIR"/.lurus/g.sh', ['/p/.lurus/g.sh']],
    ['cd .lurus/hooks && sh ./g.sh', ['/p/.lurus/hooks', '/p/.lurus/hooks/g.sh']],
    ['OUT=/tmp/x; echo hi', []],
    ['FOO=/a/b ./check.sh > /tmp/out.log 2>&1', ['/p/check.sh']],
    ['python3 ~/h.py', ['/home/u/h.py']],
    ['sh "$HOOK"/x.sh https://example.com/a --file=/etc/x', []],
    ["sh -c 'cd /opt && ./g.sh'", ['/opt', '/opt/g.sh']],
  ])('%s → %j', (command, expected) => {
    expect(scriptPathsOf(command, '/p', HOME)).toEqual(expected);
  });
});

describe('commandWords: words with quotes removed, nothing expanded', () => {
  it('splits on blanks and operators and keeps variables as written', () => {
    expect(commandWords(`sh "$CLAUDE_PROJECT_DIR"/g.sh 'a b' c\\ d && x>y`)).toEqual([
      'sh',
      '$CLAUDE_PROJECT_DIR/g.sh',
      'a b',
      'c d',
      'x',
      'y',
    ]);
  });
});
