/**
 * Attacks on consent [§2.6] and on the gate's sources, each driven for real: temp projects with
 * real `/bin/sh` hooks, a temp folder as HOME, the engine (`createHookEngine` with the real trust
 * store) and the CLI (`node bin/hookwerk.js`, from dist/). Each test failed on the code before
 * the consent rework; the comment above each block says how.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines; `${VAR}` is shell syntax.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { approveProject } from '../src/consent/project-consent.ts';
import { loadLurusConfig } from '../src/dialects/lurus/source.ts';
import type { Decision } from '../src/dispatch/gate-sequential.ts';
import type { HookEngine } from '../src/engine-api.ts';
import { type CliResult, REPO, runCli, STACK } from './cli-runner.ts';
import { makeEngine } from './engine-harness.ts';
import { tempDir, waitFor, writeScript } from './helpers.ts';

// ---------------------------------------------------------------------------------------------
// helpers

type Hook = Record<string, unknown>;
type EventMap = Record<string, Array<{ matcher?: string; hooks: Hook[] }>>;

const GUARD = '.lurus/hooks/guard.sh';
const ALLOW = `echo '{"decision":"allow"}'`;
const deny = (reason: string) => `echo '{"decision":"deny","reason":"${reason}"}'`;
const cmd = (command: string, extra: Hook = {}): Hook => ({ type: 'command', command, ...extra });
const BASH = { toolName: 'Bash' };

interface Project {
  project: string;
  home: string;
  /** `<project>/.lurus/hooks.json` */
  hooksFile: string;
  /** The CLI in the project folder, HOME = the temp home. */
  cli: (...args: string[]) => Promise<CliResult>;
  /** An engine with the real trust store under the temp home; closed after the test. */
  engine: () => Promise<HookEngine>;
}

/** A temp project and HOME by their real paths (what the engine and CLI report). */
function newProject(map?: EventMap | string): Project {
  const project = realpathSync(tempDir('hw-attack-'));
  const home = realpathSync(tempDir('hw-attack-home-'));
  const hooksFile = path.join(project, '.lurus', 'hooks.json');
  mkdirSync(path.dirname(hooksFile), { recursive: true });
  if (map !== undefined) writeHooks(hooksFile, map);
  return {
    project,
    home,
    hooksFile,
    cli: (...args) => runCli(args, { cwd: project, home }),
    engine: () => makeEngine(undefined, { projectDir: project, home }),
  };
}

function writeHooks(file: string, map: EventMap | string): void {
  writeFileSync(file, typeof map === 'string' ? map : `${JSON.stringify(map, null, 2)}\n`);
}

/** Approves the project as it is now, as `hookwerk trust --yes` does. */
const approve = (p: Project) => approveProject(loadLurusConfig({ projectDir: p.project, home: p.home }));

const outcomes = (d: { runs: Decision['runs'] }) => d.runs.map((r) => r.outcome);

/** [L-ANS-4] stdout of `decide`: one JSON line. */
function decisionOf(r: CliResult): Decision {
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stdout.split('\n'), r.stdout).toHaveLength(2);
  return JSON.parse(r.stdout) as Decision;
}

const linesOf = (text: string) => text.split('\n').filter((l) => l !== '');
const escapeRe = (text: string) => text.replaceAll(/[$.*+?()[\]{}|^\\]/g, '\\$&');

/** A project whose one PreToolUse hook (`Bash` only) runs `sh .lurus/hooks/guard.sh`, which denies. */
function guardedProject(extra: Hook = {}): Project {
  const p = newProject({ PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`sh ${GUARD}`, extra)] }] });
  writeScript(p.project, GUARD, deny('guard says no'));
  return p;
}

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
  }
});

// ---------------------------------------------------------------------------------------------
// a. Before: every matcher was compiled and run on V8's backtracking RegExp, approved or not, so
// `^(\w+)+X$` against 32 a's never returned (the engine, and so the agent, hung).

describe('[L-MATCH-4] [L-TRUST-3] a catastrophic matcher cannot hang the gate', () => {
  const EVIL = '^(\\w+)+X$';

  it('[L-TRUST-3] unapproved: decide completes, the hook is skipped_untrusted, its matcher never compiled (kind unapproved)', async () => {
    const p = newProject({ PreToolUse: [{ matcher: EVIL, hooks: [cmd(`touch ran; ${ALLOW}`)] }] });
    const engine = await p.engine();
    const d = await engine.decide('PreToolUse', { toolName: 'a'.repeat(32) });
    expect(d).toMatchObject({ decision: 'allow', blocked: false });
    expect(d.runs).toHaveLength(1);
    expect(d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'untrusted' });
    const entries = engine.hooks('PreToolUse');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.kind).toBe('unapproved');
    expect(Object.hasOwn(entries[0]!, 'matcher')).toBe(false);
    expect(engine.explain('PreToolUse', { toolName: 'a'.repeat(32) })[0]!.verdict).toBe('untrusted');
    expect(existsSync(path.join(p.project, 'ran'))).toBe(false);
  });

  it('[L-MATCH-4] approved: the same matcher runs on the linear-time engine: a 64-char name completes (no match), "aaX" matches', async () => {
    const p = newProject({ PreToolUse: [{ matcher: EVIL, hooks: [cmd(deny('matched'))] }] });
    approve(p);
    const engine = await p.engine();
    expect(await engine.decide('PreToolUse', { toolName: 'a'.repeat(64) })).toEqual({
      decision: 'allow',
      blocked: false,
      runs: [],
    });
    const hit = await engine.decide('PreToolUse', { toolName: 'aaX' });
    expect(hit).toMatchObject({ decision: 'deny', blocked: true, reason: 'matched' });
  });
});

// ---------------------------------------------------------------------------------------------
// b. Before: sources were read with readFileSync: a FIFO blocked every command forever (no
// writer), /dev/zero was read without end.

describe('[L-TRUST-4] a source that is not a regular file is refused at once', () => {
  const kinds = [
    {
      kind: 'a symlink to /dev/zero',
      make: (file: string) => symlinkSync('/dev/zero', file),
      what: 'character device',
    },
    { kind: 'a FIFO', make: (file: string) => execFileSync('mkfifo', [file]), what: 'FIFO' },
  ];

  it.each(kinds)(
    '[L-TRUST-4] .lurus/hooks.json as $kind: the engine, decide, validate and trust finish and name the file',
    async ({ make, what }) => {
      const p = newProject();
      make(p.hooksFile);
      const refused = `${p.hooksFile}: $: file is a ${what}, not a regular file`;

      const engine = await p.engine();
      expect(engine.gate.config.issues).toEqual([
        { file: p.hooksFile, path: '$', message: `file is a ${what}, not a regular file` },
      ]);
      expect(await engine.decide('PreToolUse', BASH)).toEqual({
        decision: 'allow',
        blocked: false,
        runs: [],
      });

      const [decide, validate, trust, explain] = await Promise.all([
        p.cli('decide', 'PreToolUse', '--context', JSON.stringify(BASH)),
        p.cli('validate', '--project', '.'),
        p.cli('trust', '--yes'),
        p.cli('explain', 'PreToolUse'),
      ]);
      expect(decide.code, decide.stderr).toBe(0);
      expect(decisionOf(decide)).toMatchObject({ decision: 'allow', runs: [] });
      expect(linesOf(decide.stderr)).toEqual([`hookwerk: skipped source: ${refused}`]);

      expect(validate.code).toBe(1);
      expect(linesOf(validate.stderr)).toContain(refused);

      // Approving a source that cannot be read would approve "no hooks": refused, nothing written.
      expect(trust.code, trust.stderr).toBe(1);
      expect(linesOf(trust.stderr)).toEqual([refused, 'not approved: fix the problems above first']);
      expect(existsSync(path.join(p.home, '.lurus', 'trust.json'))).toBe(false);

      expect(explain.code, explain.stderr).toBe(0);
      expect(explain.stdout).toContain(refused);
    },
  );

  it.each(kinds)(
    '[L-TRUST-4] explain reports .lurus/hooks.json as $kind with a line on stderr naming the file',
    async ({ make }) => {
      const p = newProject();
      make(p.hooksFile);
      const explain = await p.cli('explain', 'PreToolUse');
      expect(explain.code, explain.stderr).toBe(0);
      expect(explain.stderr).toContain(p.hooksFile);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// c. Before: only the sources and the words of a command resolved against the project folder
// were pinned: a file the guard sources, a script reached through `cd` or `$PWD` /
// `$CLAUDE_PROJECT_DIR`, or a file added to .lurus/ could be edited with the approval intact.

describe('[L-TRUST-5] consent pins cover the code that really runs', () => {
  const EDITED = `touch pwned; ${ALLOW}`;
  const cases = [
    {
      what: 'a guard script that sources .lurus/hooks/lib.sh',
      command: `sh ${GUARD}`,
      files: {
        [GUARD]: '. .lurus/hooks/lib.sh; check',
        '.lurus/hooks/lib.sh': `check() { ${deny('approved')}; }`,
      },
      edit: '.lurus/hooks/lib.sh',
    },
    {
      what: 'the command `. .lurus/hooks/lib.sh; check`',
      command: '. .lurus/hooks/lib.sh; check',
      files: { '.lurus/hooks/lib.sh': `check() { ${deny('approved')}; }` },
      edit: '.lurus/hooks/lib.sh',
    },
    ...[
      ['cd .lurus/hooks && sh ./g.sh', '.lurus/hooks/g.sh'],
      ['sh "$PWD/.lurus/g.sh"', '.lurus/g.sh'],
      ['sh "$CLAUDE_PROJECT_DIR"/.lurus/g.sh', '.lurus/g.sh'],
      // The same outside .lurus/: pinned only because the command names them.
      ['cd tools && sh ./g.sh', 'tools/g.sh'],
      ['sh "$PWD/tools/g.sh"', 'tools/g.sh'],
      ['sh "${CLAUDE_PROJECT_DIR}"/tools/g.sh', 'tools/g.sh'],
    ].map(([command, script]) => ({
      what: `\`${command}\``,
      command: command!,
      files: { [script!]: deny('approved') },
      edit: script!,
    })),
  ];

  it.each(cases)(
    '[L-TRUST-5] [L-TRUST-6] editing the file behind $what after approval → skipped, cause changed_since_approval',
    async ({ command, files, edit }) => {
      const p = newProject({ PreToolUse: [{ hooks: [cmd(command)] }] });
      for (const [file, body] of Object.entries(files)) writeScript(p.project, file, body);
      approve(p);
      const engine = await p.engine();
      expect(await engine.decide('PreToolUse', BASH)).toMatchObject({ decision: 'deny', reason: 'approved' });

      writeScript(p.project, edit, edit.endsWith('lib.sh') ? `check() { ${EDITED}; }` : EDITED);
      const d = await engine.decide('PreToolUse', BASH);
      expect(d).toMatchObject({ decision: 'allow', blocked: false });
      expect(d.runs).toHaveLength(1);
      expect(d.runs[0]).toMatchObject({ outcome: 'skipped_untrusted', cause: 'changed_since_approval' });
      expect(d.runs[0]!.reason).toContain(path.join(p.project, edit));
      expect(existsSync(path.join(p.project, 'pwned'))).toBe(false);
    },
  );

  it('[L-TRUST-5] a new file under .lurus/ after approval voids it; __pycache__/x.pyc does not', async () => {
    const p = guardedProject();
    approve(p);
    const engine = await p.engine();
    writeScript(p.project, '.lurus/__pycache__/x.pyc', 'bytecode');
    writeScript(p.project, '.lurus/hooks/__pycache__/y.cpython-312.pyc', 'bytecode');
    const still = await engine.decide('PreToolUse', BASH);
    expect(still).toMatchObject({ decision: 'deny', blocked: true, reason: 'guard says no' });

    writeScript(p.project, '.lurus/hooks/extra.sh', EDITED);
    const d = await engine.decide('PreToolUse', BASH);
    expect(outcomes(d)).toEqual(['skipped_untrusted']);
    expect(d.runs[0]).toMatchObject({ cause: 'changed_since_approval' });
    expect(d.runs[0]!.reason).toContain(path.join(p.project, '.lurus/hooks/extra.sh'));
  });
});

// ---------------------------------------------------------------------------------------------
// d. Before: any change to a pinned file voided the whole approval, so its hooks were skipped:
// one appended byte (or a broken hooks.json, skipped as invalid) turned a closed guard into allow.

describe('[L-TRUST-6] one byte can no longer turn a failMode "closed" guard into allow', () => {
  const closedGuard = () => {
    const p = guardedProject({ failMode: 'closed' });
    approve(p);
    return p;
  };

  it('[L-TRUST-6] appending one byte to the guard script → decide denies (blocked, cause changed_since_approval); CLI decide exits 2', async () => {
    const p = closedGuard();
    appendFileSync(path.join(p.project, GUARD), ' ');
    const d = await (await p.engine()).decide('PreToolUse', BASH);
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.runs).toHaveLength(1);
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', cause: 'changed_since_approval', failed: 'closed' });

    const r = await p.cli('decide', 'PreToolUse', '--context', JSON.stringify(BASH));
    expect(r.code, r.stderr).toBe(2);
    expect(decisionOf(r).runs[0]).toMatchObject({ outcome: 'deny', cause: 'changed_since_approval' });
  });

  it('[L-TRUST-6] two bytes of broken JSON in .lurus/hooks.json → the approved text still runs and denies; CLI decide exits 2 saying the approved version runs', async () => {
    const p = closedGuard();
    writeHooks(p.hooksFile, '{x');
    const engine = await p.engine();
    expect(engine.gate.trust).toMatchObject({ trusted: true, pending: [p.hooksFile] });
    const d = await engine.decide('PreToolUse', BASH);
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'guard says no' });
    expect(d.runs[0]).toMatchObject({ outcome: 'deny', consent: 'newer_version_pending' });

    const r = await p.cli('decide', 'PreToolUse', '--context', JSON.stringify(BASH));
    expect(r.code, r.stderr).toBe(2);
    expect(decisionOf(r)).toMatchObject({ decision: 'deny', reason: 'guard says no' });
    expect(r.stderr).toContain(`${p.hooksFile} changed since approval: the approved version runs`);
  });

  it('[L-TRUST-6] [L-VAL-1] validate after two bytes of broken JSON: the JSON error (exit 1) and the newer version that waits', async () => {
    const p = closedGuard();
    writeHooks(p.hooksFile, '{x');
    const r = await p.cli('validate', '--project', '.');
    expect(r.code).toBe(1);
    expect(linesOf(r.stderr)).toContainEqual(expect.stringMatching(/^\S+hooks\.json: \$: invalid JSON/));
    expect(r.stdout).toContain(`${p.hooksFile} changed since approval: a newer version waits for consent`);
  });
});

// ---------------------------------------------------------------------------------------------
// e. Before: there was no `--list` or `--revoke` (the only way out was editing trust.json), and
// an engine read the store once, at start.

describe('[L-TRUST-7] approvals are listed and revoked, and a running engine sees both', () => {
  it('[L-TRUST-7] trust --list shows the approval (project, date); --revoke removes it; a second revoke has nothing to revoke', async () => {
    const p = guardedProject();
    expect((await p.cli('trust', '--list')).stdout).toMatch(/^no approvals in /);
    expect((await p.cli('trust', '--yes')).code).toBe(0);
    const store = JSON.parse(readFileSync(path.join(p.home, '.lurus', 'trust.json'), 'utf8'));
    const approvedAt: string = store[p.project].approvedAt;

    const list = await p.cli('trust', '--list');
    expect(list.code, list.stderr).toBe(0);
    expect(linesOf(list.stdout)).toEqual([
      expect.stringMatching(new RegExp(`^${escapeRe(p.project)}\\s+approved ${escapeRe(approvedAt)}\\s`)),
    ]);

    const revoke = await p.cli('trust', '--revoke');
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toMatch(/^revoked/);
    expect((await p.cli('trust', '--list')).stdout).toMatch(/^no approvals in /);
    const again = await p.cli('trust', '--revoke');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/nothing to revoke/);
  });

  it('[L-TRUST-7] a running engine sees a new approval and then a revocation', async () => {
    const p = guardedProject();
    const engine = await p.engine();
    const outcome = async () => (await engine.decide('PreToolUse', BASH)).runs[0]?.outcome;
    expect(await outcome()).toBe('skipped_untrusted');

    expect((await p.cli('trust', '--yes')).code).toBe(0);
    await waitFor(async () => (await outcome()) === 'deny', 'the engine to run the approved guard');

    expect((await p.cli('trust', '--revoke')).code).toBe(0);
    await waitFor(
      async () => (await outcome()) === 'skipped_untrusted',
      'the engine to skip the revoked guard',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// f. Before: JSON.parse kept the last of two equal keys silently, so the hook that ran was not
// the one a reader of the file saw first.

describe('[L-TRUST-4] duplicate keys in .lurus/hooks.json are an error', () => {
  const dupes = [
    {
      what: 'two "PreToolUse" keys',
      text: `{"PreToolUse": [{"hooks": [{"type": "command", "command": "${ALLOW.replaceAll('"', '\\"')}"}]}],
 "PreToolUse": [{"hooks": [{"type": "command", "command": "touch pwned"}]}]}`,
      at: '$.PreToolUse',
    },
    {
      what: 'two "command" keys in one hook',
      text: `{"PreToolUse": [{"hooks": [{"type": "command", "command": "${ALLOW.replaceAll('"', '\\"')}", "command": "touch pwned"}]}]}`,
      at: '$.PreToolUse[0].hooks[0].command',
    },
  ];

  it.each(dupes)(
    '[L-TRUST-4] [L-VAL-1] $what: validate exits 1 naming the JSON path; an unapproved engine, and one approved with that very text, skip the source',
    async ({ text, at }) => {
      const p = newProject(text);
      const validate = await p.cli('validate', '--project', '.');
      expect(validate.code).toBe(1);
      expect(linesOf(validate.stderr)).toContainEqual(
        expect.stringMatching(new RegExp(`^${escapeRe(`${p.hooksFile}: ${at}`)}: duplicate key`)),
      );

      const expectSkipped = async (engine: HookEngine) => {
        expect(engine.gate.config.issues).toEqual([expect.objectContaining({ file: p.hooksFile, path: at })]);
        expect(engine.explain('PreToolUse', BASH)).toContainEqual(
          expect.objectContaining({ hook: '(source skipped)', source: p.hooksFile, verdict: 'invalid' }),
        );
        expect(await engine.decide('PreToolUse', BASH)).toEqual({
          decision: 'allow',
          blocked: false,
          runs: [],
        });
      };
      await expectSkipped(await p.engine());
      // `trust` would not approve it (no hooks to approve); the library records the text as it is.
      approve(p);
      await expectSkipped(await p.engine());
      expect(existsSync(path.join(p.project, 'pwned'))).toBe(false);
    },
  );

  it.each(dupes)(
    '[L-TRUST-4] [L-TRUST-6] $what written into an approved project: not loaded (the approved text runs), and `trust` does not approve it',
    async ({ text }) => {
      const p = guardedProject();
      approve(p);
      const storeFile = path.join(p.home, '.lurus', 'trust.json');
      const stored = readFileSync(storeFile, 'utf8');
      writeHooks(p.hooksFile, text);

      const engine = await p.engine();
      expect(engine.gate.trust.pending).toEqual([p.hooksFile]);
      expect(engine.explain('PreToolUse', BASH)).toContainEqual(
        expect.objectContaining({ hook: '(newer version pending)', source: p.hooksFile }),
      );
      expect(await engine.decide('PreToolUse', BASH)).toMatchObject({
        decision: 'deny',
        reason: 'guard says no',
      });
      expect(existsSync(path.join(p.project, 'pwned'))).toBe(false);

      const trust = await p.cli('trust', '--yes');
      expect(trust.stderr).toMatch(/duplicate key/);
      expect(trust.stdout).not.toMatch(/^approved/m);
      expect(readFileSync(storeFile, 'utf8')).toBe(stored);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// g. Before: V8 compiled backreferences and lookaround, so validate said nothing (exit 0).

describe('[L-MATCH-4] validate reports matchers the linear-time engine cannot compile', () => {
  it('[L-MATCH-3] [L-MATCH-4] [L-VAL-1] a backreference and a lookahead: errors with their JSON paths, exit 1; each matches only exactly', async () => {
    const p = newProject({
      PreToolUse: [
        { matcher: '(a)\\1', hooks: [cmd(deny('backreference'))] },
        { matcher: '(?=x)', hooks: [cmd(deny('lookahead'))] },
      ],
    });
    const r = await p.cli('validate', '--project', '.');
    expect(r.code).toBe(1);
    const errors = linesOf(r.stderr);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(
      new RegExp(`^${escapeRe(`${p.hooksFile}: $.PreToolUse[0].matcher`)}: .*backreference`),
    );
    expect(errors[1]).toMatch(
      new RegExp(`^${escapeRe(`${p.hooksFile}: $.PreToolUse[1].matcher`)}: .*lookahead`),
    );

    approve(p);
    const engine = await p.engine();
    expect((await engine.decide('PreToolUse', { toolName: 'aa' })).runs).toEqual([]);
    expect(await engine.decide('PreToolUse', { toolName: '(a)\\1' })).toMatchObject({
      reason: 'backreference',
    });
    expect(await engine.decide('PreToolUse', { toolName: '(?=x)' })).toMatchObject({ reason: 'lookahead' });
  });
});

// ---------------------------------------------------------------------------------------------
// h. Before: the first word holding a slash was taken for the script, so `OUT=/tmp/x; …` was
// refused as "script … not found" and the guard failed open.

describe('[L-RUN-2] a command starting with an assignment runs', () => {
  it('[L-RUN-2] [L-VAL-1] `OUT=/tmp/x; echo deny` runs and denies; validate finds no missing script', async () => {
    const p = newProject({ PreToolUse: [{ hooks: [cmd(`OUT=/tmp/x; ${deny('r')}`)] }] });
    approve(p);
    const d = await (await p.engine()).decide('PreToolUse', BASH);
    expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'r' });
    expect(d.runs[0]).toMatchObject({ outcome: 'deny' });

    const [decide, validate] = await Promise.all([
      p.cli('decide', 'PreToolUse', '--context', JSON.stringify(BASH)),
      p.cli('validate', '--project', '.'),
    ]);
    expect(decide.code, decide.stderr).toBe(2);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).toBe('');
  });
});
