// Issue 18, "a fleet that can be locked" [N-SEC-1]: the shipped accounts/permissions config
// (examples/nats-secure/server.conf) on a real nats-server, attacked with every role's
// credentials; user/password, token, URL credentials, NKey and .creds; TLS with a CA and client
// certificates made here with openssl. Secrets are distinctive strings, so "never printed" is a
// plain substring check on everything the processes and engines said.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection, nkeyAuthenticator, nkeys } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHookEngine } from '../src/engine.ts';
import type { HookEngine, HookEngineOptions } from '../src/engine-api.ts';
import { natsOf } from '../src/nats/engine-nats.ts';
import type { NatsOptionsInput } from '../src/nats/nats-options.ts';
import { redactUrls } from '../src/nats/redact-url.ts';
import { readServerUrls } from '../src/nats/server-urls.ts';
import type { RunRecord } from '../src/records/run-record.ts';
import { type CliProcess, startCli } from './cli-process.ts';
import { REPO, runCli, STACK } from './cli-runner.ts';
import { closeEngines, openEngine } from './engine-harness.ts';
import { captureLogger, denyingGateHome, tempDir, waitFor, writeHooks, writeScript } from './helpers.ts';
import { makeCertificates } from './nats-certs.ts';
import { writeOperatorSetup } from './nats-jwt.ts';
import { type NatsServer, startNatsServer } from './nats-server.ts';

const SECURE_CONF = path.join(REPO, 'examples', 'nats-secure', 'server.conf');
const TOOL_CALL = { tool: 'Bash', success: true, output: 'ok' };
const PAYLOAD = ['--payload', JSON.stringify(TOOL_CALL)];
/** What an attacker answers a gate request with: a well-formed allow. */
const FORGED_ALLOW = JSON.stringify({ decision: 'allow', blocked: false, runs: [] });

const secret = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;
const AGENT_PW = secret('agent-pw');
const WORKER_PW = secret('worker-pw');
const OBSERVER_PW = secret('observer-pw');
const GATE = nkeys.createUser();
const GATE_SEED = new TextDecoder().decode(GATE.getSeed());
const TOKEN = secret('token');
const ALL_SECRETS = [AGENT_PW, WORKER_PW, OBSERVER_PW, GATE_SEED, TOKEN];

/** Keys, certificates and password files for the whole file (a test's tempDir goes after it). */
const keys = mkdtempSync(path.join(tmpdir(), 'hw-nats-keys-'));
const gateSeedFile = secretFile('gate.nk', GATE_SEED);
const workerPasswordFile = secretFile('worker.pw', `${WORKER_PW}\n`);
const agentPasswordFile = secretFile('agent.pw', `${AGENT_PW}\n`);

function secretFile(name: string, content: string): string {
  const file = path.join(keys, name);
  writeFileSync(file, content, { mode: 0o600 });
  return file;
}

/** The shipped config with this file's secrets in the server's environment. */
function startSecureFleet(): Promise<NatsServer> {
  return startNatsServer({
    configFile: SECURE_CONF,
    env: {
      HOOKWERK_AGENT_PASSWORD: AGENT_PW,
      HOOKWERK_WORKER_PASSWORD: WORKER_PW,
      HOOKWERK_OBSERVER_PASSWORD: OBSERVER_PW,
      HOOKWERK_GATE_NKEY: GATE.getPublicKey(),
      // [F-SEC-1] The fleet's roles (tested in fleet-security.test.ts) need theirs too.
      HOOKWERK_PUBLISHER_PASSWORD: secret('publisher-pw'),
      HOOKWERK_DAEMON_PASSWORD: secret('daemon-pw'),
      HOOKWERK_AUDIT_PASSWORD: secret('audit-pw'),
    },
  });
}

const logLines: string[] = [];
const clients: NatsConnection[] = [];
const processes: CliProcess[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await Promise.all(processes.splice(0).map((p) => p.stop('SIGKILL')));
});

afterAll(() => {
  rmSync(keys, { recursive: true, force: true });
});

/** An engine whose log lines are kept (checked for secrets), closed after the test. */
function engine(opts: HookEngineOptions): Promise<HookEngine> {
  return openEngine({ watch: false, plugins: false, logger: captureLogger(logLines), ...opts });
}

/** A raw client (an attacker, or an observer), closed after the test; its status errors kept. */
async function client(
  opts: Parameters<typeof connect>[0],
): Promise<{ nc: NatsConnection; errors: string[] }> {
  const nc = await connect(opts);
  clients.push(nc);
  const errors: string[] = [];
  void (async () => {
    for await (const s of nc.status()) if (s.type === 'error') errors.push(s.error.message);
  })();
  return { nc, errors };
}

/** The error createHookEngine rejects with (an engine that connects after all is closed, and fails the test). */
async function failureOf(options: HookEngineOptions): Promise<Error> {
  try {
    const e = await createHookEngine(options);
    await e.close();
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
  throw new Error('createHookEngine connected');
}

/** A CLI process whose output is checked for secrets after the test. */
function cli(args: string[], opts: Parameters<typeof startCli>[1] = {}): CliProcess {
  const p = startCli(args, opts);
  processes.push(p);
  void p.exit.then(() => logLines.push(p.stdout(), p.stderr()));
  return p;
}

async function run(args: string[], opts: Parameters<typeof runCli>[1] = {}) {
  const r = await runCli(args, opts);
  logLines.push(r.stdout, r.stderr);
  return r;
}

function envelope(session: string): string {
  return JSON.stringify({
    event: 'tool_call',
    timestamp: new Date().toISOString(),
    session_id: session,
    payload: TOOL_CALL,
  });
}

function withCredentials(url: string, user: string, pass: string): string {
  return url.replace('nats://', `nats://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@`);
}

/** The worker role's login in the locked fleet, with its own reply prefix. */
function workerLogin(): string[] {
  return [
    '--nats-user',
    'worker',
    '--nats-password-file',
    workerPasswordFile,
    '--nats-inbox-prefix',
    '_INBOX_worker',
  ];
}

const BASH = { toolName: 'Bash', toolInput: { command: 'rm -rf /' } };

describe('[N-SEC-1] a locked fleet: examples/nats-secure/server.conf', () => {
  let fleet: NatsServer;
  beforeAll(async () => {
    fleet = await startSecureFleet();
  });
  afterAll(async () => {
    await fleet?.cleanup();
  });

  const roles = () => ({
    agent: { servers: fleet.url, user: 'agent', pass: AGENT_PW },
    worker: { servers: fleet.url, user: 'worker', pass: WORKER_PW, inboxPrefix: '_INBOX_worker' },
    observer: { servers: fleet.url, user: 'observer', pass: OBSERVER_PW },
  });

  it('[N-SEC-1] a client without credentials is refused', async () => {
    await expect(connect({ servers: fleet.url })).rejects.toThrow(/Authorization Violation/);
  });

  it('[N-SEC-1] an agent account cannot answer a gate request: its subscription to hookwerk.decide.> is refused, and decide() with failMode closed denies', async () => {
    for (const role of ['agent', 'worker', 'observer'] as const) {
      const { nc } = await client(roles()[role]);
      // The attack: take the gate's queue group (and a plain subscription) and answer allow first.
      const refusals = ['hookwerk', undefined].map(
        (queue) =>
          new Promise<Error>((resolve) => {
            nc.subscribe('hookwerk.decide.>', {
              ...(queue !== undefined ? { queue } : {}),
              callback: (err, m) => {
                if (err !== null) resolve(err);
                else m.respond(FORGED_ALLOW);
              },
            });
          }),
      );
      await nc.flush();
      for (const refusal of refusals)
        expect((await refusal).message).toMatch(
          /Permissions Violation for Subscription to "hookwerk\.decide\.>"/,
        );
    }
    const agent = await engine({
      natsInbound: false,
      nats: {
        ...roles().agent,
        remoteGate: true,
        failMode: 'closed',
        runLocally: false,
        decideTimeoutMs: 60_000,
      },
    });
    const d = await agent.decide('PreToolUse', BASH);
    expect(d).toMatchObject({ decision: 'deny', blocked: true });
    expect(d.runs.map((r) => [r.cause, r.failed])).toEqual([['no_responder', 'closed']]);
  });

  it("[N-SEC-1] with the real gate worker listening, the agent gets its answer, never an attacker's allow", async () => {
    const project = tempDir('hw-nats-proj-');
    const gate = cli(
      [
        'worker',
        '--nats',
        fleet.url,
        '--gate',
        '--project',
        project,
        '--name',
        'gate-1',
        '--nats-nkey',
        gateSeedFile,
      ],
      { home: denyingGateHome('the real gate says no') },
    );
    await gate.waitForOutput(/^ready$/m);
    // An attacker with an agent's credentials: it may read _INBOX.> (the agents' replies) but
    // cannot subscribe to the requests, nor publish into any inbox.
    const { nc, errors } = await client(roles().agent);
    let refused = false;
    nc.subscribe('hookwerk.decide.>', {
      queue: 'hookwerk',
      callback: (err, m) => {
        if (err !== null) refused = true;
        else m.respond(FORGED_ALLOW);
      },
    });
    nc.subscribe('_INBOX.>', {
      callback: (_err, m) => {
        // Seen a gate answer go by: try to slip an allow in on the same reply subject.
        nc.publish(m.subject, FORGED_ALLOW);
      },
    });
    await nc.flush();
    await waitFor(() => refused, 'the refusal of the subscription');
    const agent = await engine({
      natsInbound: false,
      nats: {
        ...roles().agent,
        remoteGate: true,
        failMode: 'closed',
        runLocally: false,
        decideTimeoutMs: 60_000,
      },
    });
    for (let i = 0; i < 3; i++) {
      const d = await agent.decide('PreToolUse', BASH);
      expect(d).toMatchObject({ decision: 'deny', blocked: true, reason: 'the real gate says no' });
      expect(d.runs.map((r) => [r.outcome, r.worker])).toEqual([['deny', 'gate-1']]);
    }
    await waitFor(
      () => errors.some((e) => /Permissions Violation for Publish to "_INBOX\./.test(e)),
      "the refusal of the attacker's forged answer",
    );
    expect(await gate.stop('SIGTERM')).toBe(0);
  }, 30_000);

  it('[N-SEC-1] only an agent can make a worker run a hook: the worker, gate and observer publishes to prx.lifecycle.> are refused', async () => {
    const ws = tempDir('hw-nats-ws-');
    const log = path.join(ws, 'ran.log');
    writeFileSync(log, '');
    writeHooks(ws, {
      tool_call: [{ id: 'log', command: writeScript(ws, 'log.sh', `echo "$ZERO_HOOK_SESSION" >> '${log}'`) }],
    });
    const worker = cli([
      'worker',
      ...['--nats', fleet.url, '--workspace', ws, '--name', 'w-locked', '--metrics-port', '0'],
      ...[...workerLogin()],
    ]);
    await worker.waitForOutput(/^ready$/m);
    const metricsUrl = /metrics on (http:\S+)/.exec(worker.stderr())?.[1] ?? '';
    // The observer role reads the run records.
    const { nc: observer } = await client(roles().observer);
    const records: RunRecord[] = [];
    observer.subscribe('hookwerk.run.>', {
      callback: (_e, m) => {
        records.push(m.json<RunRecord>());
      },
    });
    await observer.flush();

    for (const role of ['worker', 'observer'] as const) {
      const { nc, errors } = await client(roles()[role]);
      nc.publish('prx.lifecycle.tool_call', envelope(`attack-${role}`));
      // The server answers a refused publish before the PONG of this round trip.
      await nc.flush();
      await waitFor(() => errors.length > 0, `the refusal of the ${role}'s publish`);
      expect(errors[0] ?? '').toMatch(/Permissions Violation for Publish to "prx\.lifecycle\.tool_call"/);
    }
    const { nc: gateClient, errors: gateErrors } = await client({
      servers: fleet.url,
      authenticator: nkeyAuthenticator(GATE.getSeed()),
    });
    gateClient.publish('prx.lifecycle.tool_call', envelope('attack-gate'));
    await gateClient.flush();
    await waitFor(() => gateErrors.length > 0, "the refusal of the gate's publish");
    // The CLI says so too: exit 1, not "published".
    const refused = await run([
      'emit',
      'tool_call',
      ...['--nats', fleet.url, '--nats-user', 'worker', '--nats-password-file', workerPasswordFile],
      ...['--session', 'attack-cli', '--payload', JSON.stringify(TOOL_CALL)],
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the publish to prx\.lifecycle\.tool_call/);

    // An agent can (here with its credentials in the URL).
    const sent = await run([
      'emit',
      'tool_call',
      ...['--nats', withCredentials(fleet.url, 'agent', AGENT_PW), '--session', 'agent-ok'],
      ...['--payload', JSON.stringify(TOOL_CALL)],
    ]);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    await waitFor(() => records.some((r) => r.sessionId === 'agent-ok'), "the agent's run record");
    expect(records.map((r) => [r.sessionId, r.worker, r.outcome])).toEqual([['agent-ok', 'w-locked', 'ok']]);
    expect(readFileSync(log, 'utf8')).toBe('agent-ok\n');
    // Every event the worker received is counted on arrival, in order: the attackers' would
    // have come before the agent's.
    const text = await (await fetch(metricsUrl)).text();
    expect(text).toMatch(/^events_emitted_total\{event="tool_call"[^}]*\} 1$/m);
  }, 30_000);

  it('[N-SEC-1] user/password from options, from the URL and from --nats-password-file connect; a wrong password is refused at once, and no message holds it', async () => {
    const a = await engine({ natsInbound: false, nats: { ...roles().observer } });
    expect(a.nats?.connected).toBe(true);
    const b = await engine({
      natsInbound: false,
      nats: { servers: withCredentials(fleet.url, 'observer', OBSERVER_PW) },
    });
    expect(b.nats?.connected).toBe(true);
    expect(b.nats?.servers).toBe(fleet.url.replace('nats://', 'nats://observer:***@'));

    const wrong = secret('wrong-pw');
    for (const nats of [
      { servers: fleet.url, user: 'agent', pass: wrong },
      { servers: withCredentials(fleet.url, 'agent', wrong) },
    ]) {
      // connectTimeoutMs is longer than this test may take: a retry until it would fail the test.
      const failure = await failureOf({ natsInbound: false, nats: { ...nats, connectTimeoutMs: 60_000 } });
      expect(failure.message).toMatch(/refused user agent: Authorization Violation/);
      expect(failure.message).not.toContain(wrong);
    }
    expect(
      (await failureOf({ nats: { servers: withCredentials(fleet.url, 'agent', wrong) } })).message,
    ).toContain('nats://agent:***@127.0.0.1');

    const wrongFile = secretFile('wrong.pw', wrong);
    const cliWrong = await run([
      'emit',
      'tool_call',
      ...PAYLOAD,
      '--nats',
      withCredentials(fleet.url, 'agent', wrong),
    ]);
    expect(cliWrong.code).toBe(1);
    expect(cliWrong.stderr).toMatch(/nats:\/\/agent:\*\*\*@127\.0\.0\.1:\d+ refused user agent/);
    const workerWrong = await run([
      'worker',
      ...[
        '--nats',
        fleet.url,
        '--gate',
        '--project',
        tempDir(),
        '--nats-user',
        'agent',
        '--nats-password-file',
        wrongFile,
      ],
    ]);
    expect(workerWrong.code).toBe(1);
    expect(workerWrong.stderr).toMatch(/refused user agent/);
    expect(workerWrong.stderr).not.toMatch(STACK);
    for (const r of [cliWrong, workerWrong]) expect(r.stdout + r.stderr).not.toContain(wrong);

    const cliRight = await run([
      'emit',
      'tool_call',
      ...PAYLOAD,
      ...['--nats', fleet.url, '--nats-user', 'agent', '--nats-password-file', agentPasswordFile],
    ]);
    expect(cliRight).toMatchObject({ code: 0, stdout: 'published: prx.lifecycle.tool_call\n' });
  }, 30_000);

  it('[N-SEC-1] an NKey seed file connects (the gate role); a seed the server does not know is refused', async () => {
    const gate = await engine({
      natsInbound: false,
      nats: { servers: fleet.url, nkeySeedFile: gateSeedFile },
    });
    expect(gate.nats?.connected).toBe(true);
    const stranger = secretFile('stranger.nk', new TextDecoder().decode(nkeys.createUser().getSeed()));
    await expect(createHookEngine({ nats: { servers: fleet.url, nkeySeedFile: stranger } })).rejects.toThrow(
      /refused NKey U[A-Z0-9]{55}: Authorization Violation/,
    );
    const notSeed = secretFile('not-a-seed', 'SECRET-NOT-A-SEED');
    const bad = await failureOf({ nats: { servers: fleet.url, nkeySeedFile: notSeed } });
    expect(bad.message).toMatch(
      /invalid option nats\.nkeySeedFile: .*not-a-seed does not hold an NKey user seed/,
    );
    expect(bad.message).not.toContain('SECRET-NOT-A-SEED');
  });

  it('[N-SEC-1] durable mode with the roles: a worker creates the stream, an agent cannot (its events wait) nor change it', async () => {
    const own = await startSecureFleet();
    try {
      const agentOpts = { servers: own.url, user: 'agent', pass: AGENT_PW, durable: true, runLocally: false };
      const lines: string[] = [];
      const agent = await engine({ natsInbound: false, logger: captureLogger(lines), nats: agentOpts });
      expect(lines.join('\n')).toMatch(
        /stream HOOKWERK_EVENTS is missing and these credentials cannot create it \(the server refused the publish to \$JS\.API\.STREAM\.CREATE\.HOOKWERK_EVENTS\)/,
      );
      agent.emit('tool_call', TOOL_CALL, { sessionId: 'waited', eventId: 'waited' });

      const ws = tempDir('hw-nats-ws-');
      const log = path.join(ws, 'ran.log');
      writeHooks(ws, {
        tool_call: [
          { id: 'log', command: writeScript(ws, 'log.sh', `echo "$ZERO_HOOK_SESSION" >> '${log}'`) },
        ],
      });
      const worker = cli([
        'worker',
        ...['--nats', own.url, '--workspace', ws, '--durable', '--name', 'w-durable'],
        ...[...workerLogin()],
      ]);
      await worker.waitForOutput(/^ready$/m);
      await waitFor(
        () => readLog(log).includes('waited'),
        'the waiting event to run once the stream exists',
        15_000,
      );

      const changer: string[] = [];
      await engine({
        natsInbound: false,
        logger: captureLogger(changer),
        nats: { ...agentOpts, streamMaxBytes: 1024 },
      });
      expect(changer.join('\n')).toMatch(
        /stream HOOKWERK_EVENTS keeps its limits \(these credentials cannot update it: the server refused the publish to \$JS\.API\.STREAM\.UPDATE\.HOOKWERK_EVENTS\)/,
      );
      agent.emit('tool_call', TOOL_CALL, { sessionId: 'second', eventId: 'second' });
      await waitFor(() => readLog(log).includes('second'), 'the second durable event to run');
      expect(readLog(log)).toEqual(['waited', 'second']);
      logLines.push(...lines, ...changer);
      expect(await worker.stop('SIGTERM')).toBe(0);
    } finally {
      await closeEngines();
      await own.cleanup();
    }
  }, 40_000);
});

function readLog(file: string): string[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
  } catch {
    return [];
  }
}

describe('[N-SEC-1] tokens, URL credentials, .creds', () => {
  it('[N-SEC-1] a token from the options, the URL (nats://TOKEN@host) or --nats-token-file connects; a wrong one is refused and never printed', async () => {
    const token = TOKEN;
    const dir = tempDir('hw-nats-token-');
    const conf = path.join(dir, 'token.conf');
    writeFileSync(conf, `authorization { token: "${token}" }\n`);
    const server = await startNatsServer({ configFile: conf, jetstream: false });
    try {
      const a = await engine({ natsInbound: false, nats: { servers: server.url, token } });
      expect(a.nats?.connected).toBe(true);
      const url = server.url.replace('nats://', `nats://${token}@`);
      const b = await engine({ natsInbound: false, nats: { servers: url } });
      expect(b.nats?.servers).toBe(server.url.replace('nats://', 'nats://***@'));
      const tokenFile = path.join(dir, 'token');
      writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
      const sent = await run([
        'emit',
        'tool_call',
        ...PAYLOAD,
        '--nats',
        server.url,
        '--nats-token-file',
        tokenFile,
      ]);
      expect(sent.code).toBe(0);
      const wrong = secret('wrong-token');
      const r = await run([
        'emit',
        'tool_call',
        ...PAYLOAD,
        '--nats',
        server.url.replace('nats://', `nats://${wrong}@`),
      ]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/nats:\/\/\*\*\*@127\.0\.0\.1:\d+ refused a token/);
      expect(r.stderr).not.toContain(wrong);
    } finally {
      await closeEngines();
      await server.cleanup();
    }
  }, 30_000);

  it('[N-SEC-1] a .creds file (user JWT + NKey seed) connects to a server in operator mode, from the library and --nats-creds', async () => {
    const dir = tempDir('hw-nats-jwt-');
    const setup = writeOperatorSetup(dir);
    const server = await startNatsServer({ configFile: setup.configFile, jetstream: false });
    try {
      await expect(connect({ servers: server.url })).rejects.toThrow(/Authorization Violation/);
      const a = await engine({
        natsInbound: false,
        nats: { servers: server.url, credsFile: setup.credsFile },
      });
      const b = await engine({ nats: { servers: server.url, credsFile: setup.credsFile } });
      const got: unknown[] = [];
      b.bus.subscribe('prx.lifecycle.*', (m) => {
        got.push(m.payload);
      });
      await b.nats?.flush();
      a.emit('tool_call', TOOL_CALL, { sessionId: 'over-jwt' });
      await waitFor(() => got.length === 1, 'the event through the JWT-authenticated connections');
      const r = await run([
        'emit',
        'tool_call',
        ...PAYLOAD,
        '--nats',
        server.url,
        '--nats-creds',
        setup.credsFile,
      ]);
      expect(r).toMatchObject({ code: 0, stdout: 'published: prx.lifecycle.tool_call\n' });
      // A creds file of another operator's user: refused.
      const other = writeOperatorSetup(tempDir('hw-nats-jwt-'));
      await expect(
        createHookEngine({ nats: { servers: server.url, credsFile: other.credsFile } }),
      ).rejects.toThrow(/refused the credentials in \S+worker\.creds/);
    } finally {
      await closeEngines();
      await server.cleanup();
    }
  }, 30_000);

  it('[N-SEC-1] options are checked at the edge: one way to authenticate, credentials given once, files that are what they say; no message holds a secret', async () => {
    const s = 'nats://127.0.0.1:1';
    const pw = secret('pw');
    const cases: Array<[NatsOptionsInput, RegExp]> = [
      [
        { servers: s, user: 'u', pass: pw, token: pw },
        /nats\.token: give one way to authenticate, not user and token/,
      ],
      [{ servers: s, pass: pw }, /nats\.pass: pass needs user/],
      [{ servers: s, tls: { certFile: '/x' } }, /nats\.tls: certFile and keyFile go together/],
      [
        { servers: `nats://u:${pw}@127.0.0.1:1`, user: 'u', pass: pw },
        /carries credentials, and the options give some too/,
      ],
      [{ servers: [`nats://u:${pw}@h:1`, `nats://v:${pw}@h:2`] }, /carry different credentials/],
      [
        { servers: s, credsFile: '/nonexistent/x.creds' },
        /nats\.credsFile: cannot read \/nonexistent\/x\.creds \(ENOENT\)/,
      ],
      [{ servers: s, inboxPrefix: '_INBOX.>' }, /nats\.inboxPrefix/],
    ];
    for (const [nats, message] of cases) {
      const e = await failureOf({ nats });
      expect(e).toBeInstanceOf(TypeError);
      expect(e.message).toMatch(message);
      expect(e.message).not.toContain(pw);
    }
    const notCreds = path.join(tempDir(), 'x.creds');
    writeFileSync(notCreds, `-----BEGIN NATS USER JWT-----\n${pw}\n`);
    const e = await failureOf({ nats: { servers: s, credsFile: notCreds } });
    expect(e.message).toMatch(/is not a \.creds file/);
    expect(e.message).not.toContain(pw);
  });

  it('[N-SEC-1] redactUrls hides every password and token in a text; URL credentials are read percent-decoded', () => {
    expect(redactUrls('at nats://u:p%40ss@h:1, tls://tok@h2:2 and nats://h3')).toBe(
      'at nats://u:***@h:1, tls://***@h2:2 and nats://h3',
    );
    expect(redactUrls('nats://u:p@ss@h:1')).toBe('nats://u:***@h:1');
    expect(readServerUrls(['nats://u:p%40ss@h:1']).credentials).toEqual({ user: 'u', pass: 'p@ss' });
    expect(readServerUrls(['tok@h:1'])).toMatchObject({
      dial: ['h:1'],
      shown: 'nats://***@h:1',
      credentials: { token: 'tok' },
    });
    expect(readServerUrls(['nats://u:@h:1']).credentials).toEqual({ user: 'u', pass: '' });
    expect(readServerUrls(['tls://h:1']).tlsRequired).toBe(true);
  });
});

describe('[N-SEC-1] TLS', () => {
  let server: NatsServer;
  let certs: ReturnType<typeof makeCertificates>;
  beforeAll(async () => {
    certs = makeCertificates(keys);
    const conf = path.join(keys, 'tls.conf');
    writeFileSync(
      conf,
      `tls {\n  cert_file: "${certs.serverCert}"\n  key_file: "${certs.serverKey}"\n  ca_file: "${certs.caFile}"\n  verify: true\n}\n`,
    );
    server = await startNatsServer({ configFile: conf, jetstream: false });
  });
  afterAll(async () => {
    await server?.cleanup();
  });

  const clientTls = () => ({ caFile: certs.caFile, certFile: certs.clientCert, keyFile: certs.clientKey });

  it('[N-SEC-1] with the CA and a client certificate the connection is encrypted; without the CA, or without a client certificate, it is refused', async () => {
    const a = await engine({ nats: { servers: server.url, tls: clientTls() } });
    const b = await engine({ nats: { servers: server.url, tls: clientTls() } });
    const got: unknown[] = [];
    b.bus.subscribe('prx.lifecycle.*', (m) => {
      got.push(m.payload);
    });
    await b.nats?.flush();
    a.emit('tool_call', TOOL_CALL);
    await waitFor(() => got.length === 1, 'the event over TLS');
    expect(natsOf(a)?.link.nc.info?.tls_required).toBe(true);

    // A certificate this client cannot verify is its answer at once, whatever the connect
    // timeout: a long one leaves a loaded machine room for the handshake, and costs nothing.
    const noCa = { certFile: certs.clientCert, keyFile: certs.clientKey };
    const unverified = /cannot reach NATS .* within 60000 ms: .*(self[- ]signed|unable to (get|verify))/i;
    await expect(
      createHookEngine({ nats: { servers: server.url, tls: noCa, connectTimeoutMs: 60_000 } }),
    ).rejects.toThrow(unverified);
    await expect(
      createHookEngine({
        nats: { servers: server.url, tls: { caFile: certs.caFile }, connectTimeoutMs: 1000 },
      }),
    ).rejects.toThrow(/cannot reach NATS/);
    // No TLS option at all: the client still upgrades (the server requires it), and fails the same way.
    await expect(
      createHookEngine({ nats: { servers: server.url, connectTimeoutMs: 60_000 } }),
    ).rejects.toThrow(unverified);
  }, 40_000);

  it('[N-SEC-1] --tls-ca, --tls-cert and --tls-key on emit --nats and worker', async () => {
    const flags = ['--tls-ca', certs.caFile, '--tls-cert', certs.clientCert, '--tls-key', certs.clientKey];
    const ws = tempDir('hw-nats-ws-');
    const log = path.join(ws, 'ran.log');
    writeHooks(ws, {
      tool_call: [{ id: 'log', command: writeScript(ws, 'log.sh', `echo "$ZERO_HOOK_SESSION" >> '${log}'`) }],
    });
    const worker = cli(['worker', '--nats', server.url, '--workspace', ws, ...flags]);
    await worker.waitForOutput(/^ready$/m);
    const r = await run([
      'emit',
      'tool_call',
      ...PAYLOAD,
      '--nats',
      server.url,
      '--session',
      'over-tls',
      ...flags,
    ]);
    expect(r.code).toBe(0);
    await waitFor(() => readLog(log).includes('over-tls'), 'the run of the event sent over TLS');
    const without = await run([
      'emit',
      'tool_call',
      ...PAYLOAD,
      '--nats',
      server.url,
      '--tls-cert',
      certs.clientCert,
    ]);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/--tls-cert and --tls-key go together/);
    expect(await worker.stop('SIGTERM')).toBe(0);
  }, 30_000);

  it('[N-SEC-1] a tls:// URL, or a tls option, never falls back to plaintext', async () => {
    const plain = await startNatsServer({ jetstream: false });
    try {
      await expect(
        createHookEngine({
          nats: { servers: plain.url.replace('nats://', 'tls://'), connectTimeoutMs: 500 },
        }),
      ).rejects.toThrow(/server does not support 'tls'/);
      await expect(
        createHookEngine({
          nats: { servers: plain.url, tls: { caFile: certs.caFile }, connectTimeoutMs: 500 },
        }),
      ).rejects.toThrow(/server does not support 'tls'/);
    } finally {
      await closeEngines();
      await plain.cleanup();
    }
  });
});

// Last in the file (tests run in order): everything the tests above made the engines log and the
// processes print, including refused logins, refused publishes and TLS failures.
it('[N-SEC-1] no secret was ever printed: no password, seed or token in any log line or output above', () => {
  expect(logLines.length).toBeGreaterThan(20);
  const all = logLines.join('\n');
  for (const s of ALL_SECRETS) expect(all).not.toContain(s);
});
