/**
 * [P-API-1] `serve`'s API token (issue 11, token takeover): `HOOKWERK_TOKEN`, else
 * `<workspace>/.hookwerk/token`. Hooks can write to the workspace, so a token file found there
 * proves nothing by itself: `serve` creates it (O_EXCL, 0600) and records its SHA-256 in
 * `~/.hookwerk/serve-tokens.json`, outside the workspace, and later uses a token file only if
 * that record matches. A planted or changed file stops `serve` with the two ways out.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readSync,
  realpathSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { errorMessage, isErrno } from '../core/errno.ts';
import { homeFolder } from '../core/home.ts';
import { parseJsonText } from '../core/json-text.ts';
import { readSourceFile } from '../core/read-source.ts';
import { STATE_DIR } from '../server/hooks-store.ts';
import { CliError } from './cli-error.ts';

const TOKEN_FILE = 'token';
/** In `~/.hookwerk/`: `{ "<real path of a token file>": "<sha-256 hex of its bytes>" }`. */
const TOKEN_RECORDS_FILE = 'serve-tokens.json';
const MIN_TOKEN_LENGTH = 16;
/** A token file holds 65 bytes; anything much larger is not one of ours. */
const MAX_TOKEN_FILE_BYTES = 4096;
const MAX_RECORDS_BYTES = 4 * 1024 * 1024;
const FIXES = 'delete the file so serve makes a new token, or set HOOKWERK_TOKEN';

const recordsSchema = z.record(
  z.string(),
  z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha-256 hex digest'),
);
type TokenRecords = z.infer<typeof recordsSchema>;

interface ResolvedToken {
  token: string;
  /** The token file, or undefined when the token came from HOOKWERK_TOKEN. */
  file: string | undefined;
  created: boolean;
  /** The file was readable by others and was set back to 0600. */
  tightened: boolean;
}

/** The token `serve` uses; throws a one-line CliError for anything it must not use. */
export function resolveToken(workspace: string, env: NodeJS.ProcessEnv): ResolvedToken {
  const fromEnv = env.HOOKWERK_TOKEN?.trim();
  if (fromEnv !== undefined && fromEnv !== '') {
    if (fromEnv.length < MIN_TOKEN_LENGTH)
      throw new CliError(`HOOKWERK_TOKEN is too short: use at least ${MIN_TOKEN_LENGTH} characters`);
    if (/\s/.test(fromEnv)) throw new CliError('HOOKWERK_TOKEN must not contain spaces');
    return { token: fromEnv, file: undefined, created: false, tightened: false };
  }
  const home = homeFolder(undefined, env);
  const records = path.join(home, STATE_DIR, TOKEN_RECORDS_FILE);
  const dir = path.join(workspace, STATE_DIR);
  const file = path.join(dir, TOKEN_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });

  const token = randomBytes(32).toString('hex');
  const text = `${token}\n`;
  if (createExclusive(file, text)) {
    try {
      addRecord(records, realpathSync(file), sha256(text));
    } catch (e) {
      // Unrecorded, the file would be refused by the next start: don't leave it behind.
      unlinkQuietly(file);
      throw e instanceof CliError
        ? e
        : new CliError(`cannot record the token in ${records}: ${errorMessage(e)}`);
    }
    return { token, file, created: true, tightened: false };
  }
  return { ...adoptRecorded(file, records), file, created: false };
}

/** Creates `file` with `text`, mode 0600, only if nothing is there; false if something is. */
function createExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
  } catch (e) {
    if (isErrno(e, 'EEXIST')) return false;
    throw new CliError(`cannot write ${file}: ${errorMessage(e)}`);
  }
  try {
    writeSync(fd, text);
    fchmodSync(fd, 0o600); // exactly 0600, whatever the umask
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkQuietly(file);
    throw new CliError(`cannot write ${file}: ${errorMessage(e)}`);
  }
  closeSync(fd);
  return true;
}

/** The token of an existing file, if the record made when serve created it still matches. */
function adoptRecorded(file: string, records: string): { token: string; tightened: boolean } {
  const { bytes, mode } = readTokenFile(file);
  const expected = readRecords(records)[realpathSync(file)];
  if (expected === undefined)
    throw new CliError(`refusing the API token in ${file}: hookwerk serve did not create it; ${FIXES}`);
  if (sha256(bytes) !== expected)
    throw new CliError(
      `refusing the API token in ${file}: it changed since hookwerk serve created it; ${FIXES}`,
    );
  const token = bytes.toString('utf8').trim();
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token))
    throw new CliError(`${file} does not hold a usable token; ${FIXES}`);
  // Readable by others: tighten it (and say so) rather than serve with it as it is.
  const tightened = (mode & 0o077) !== 0;
  if (tightened) chmodSync(file, 0o600);
  return { token, tightened };
}

function readTokenFile(file: string): { bytes: Buffer; mode: number } {
  let fd: number;
  try {
    // A symlink is not a token file serve made: O_NOFOLLOW refuses it (ELOOP).
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    if (isErrno(e, 'ELOOP'))
      throw new CliError(`refusing the API token in ${file}: it is a symbolic link; ${FIXES}`);
    throw new CliError(`cannot read ${file}: ${errorMessage(e)}; ${FIXES}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_TOKEN_FILE_BYTES)
      throw new CliError(`${file} is not a token file; ${FIXES}`);
    const bytes = Buffer.alloc(st.size);
    const n = readSync(fd, bytes, 0, st.size, 0);
    return { bytes: bytes.subarray(0, n), mode: st.mode };
  } finally {
    closeSync(fd);
  }
}

function readRecords(records: string): TokenRecords {
  const read = readSourceFile(records, MAX_RECORDS_BYTES);
  if (read.kind === 'missing') return {};
  const parsed = read.kind === 'refused' ? read.message : parseRecords(records, read.text);
  if (typeof parsed !== 'string') return parsed;
  throw new CliError(
    `cannot use the token records ${records}: ${parsed.replace(/\s*\n\s*/g, ' ')}; fix or delete it, or set HOOKWERK_TOKEN`,
  );
}

/** The records, or what is wrong with them. */
function parseRecords(records: string, text: string): TokenRecords | string {
  const parsed = parseJsonText(records, text);
  if (!parsed.ok) return parsed.issue.message;
  const result = recordsSchema.safeParse(parsed.value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  return `${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}`;
}

/** Adds one record; checks again right before the rename so that a concurrent `serve`'s record is kept. */
function addRecord(records: string, key: string, hash: string): void {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = readRecords(records);
    const before = JSON.stringify(current);
    const written = writeFileAtomic(records, `${JSON.stringify({ ...current, [key]: hash }, null, 2)}\n`, {
      mode: 0o600,
      privateDir: true,
      beforeRename: () => JSON.stringify(readRecords(records)) === before,
    });
    if (written) return;
  }
  throw new CliError(`cannot record the token in ${records}: it keeps changing; try again`);
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
