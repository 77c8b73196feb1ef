/**
 * `hookwerk policy publish --nats URL [--group G] BUNDLE` [F-BUN-2]: puts a signed bundle under
 * its group's key in the bucket `hookwerk-policy`. It refuses what every daemon would refuse
 * anyway — an unsigned bundle, or one not newer than the group's current bundle — so the author
 * hears of it here; the daemons check everything again (they trust no publisher, F-SEC-1).
 */
import path from 'node:path';
import { errorMessage } from '../core/errno.ts';
import { BundleError, parseBundle, readBundleFile } from '../fleet/bundle-file.ts';
import { createPolicyBucket, GROUP_PATTERN, POLICY_BUCKET } from '../fleet/policy-bucket.ts';
import { defaultNatsName } from '../nats/engine-nats.ts';
import { NatsLink, permissionViolation, refusalText } from '../nats/nats-link.ts';
import { redactUrls } from '../nats/redact-url.ts';
import { CliError } from './cli-error.ts';
import { type NatsSecurityFlags, natsSecurityFromFlags } from './nats-cli-options.ts';

const PUBLISH_TIMEOUT_MS = 5000;

type Say = (line: string) => void;

export async function policyPublishCommand(
  opts: NatsSecurityFlags & { nats: string; group: string },
  file: string,
  out: Say,
  err: Say,
  cwd = process.cwd(),
): Promise<number> {
  if (!GROUP_PATTERN.test(opts.group))
    throw new CliError(`--group must be 1 to 64 letters, digits, - or _, got ${JSON.stringify(opts.group)}`);
  const bundleFile = path.resolve(cwd, file);
  let text: string;
  let version: number;
  try {
    const bundle = readBundleFile(bundleFile);
    if (bundle.signature === undefined)
      throw new BundleError('unsigned (hookwerk policy sign --key KEY first): every daemon would refuse it');
    version = bundle.version;
    text = JSON.stringify(bundle);
  } catch (e) {
    if (e instanceof BundleError) throw new CliError(`${bundleFile}: ${e.message}`);
    throw e;
  }
  let link: NatsLink;
  try {
    link = await NatsLink.open({
      servers: [opts.nats],
      connectTimeoutMs: PUBLISH_TIMEOUT_MS,
      name: defaultNatsName(),
      logger: { info: () => {}, warn: () => {}, error: (m) => err(m) },
      security: natsSecurityFromFlags(opts),
    });
  } catch (e) {
    throw new CliError(redactUrls(errorMessage(e)));
  }
  try {
    const kv = await createPolicyBucket(link.nc);
    const current = await kv.get(opts.group);
    if (current !== null && current.operation === 'PUT') {
      let held: number | undefined;
      try {
        held = parseBundle(current.string()).version;
      } catch {
        // Whatever is there is no bundle: a valid one replaces it.
      }
      if (held !== undefined && held >= version)
        throw new CliError(
          `${bundleFile}: version ${version} is not newer than the group ${opts.group}'s version ${held}: the daemons would refuse it`,
        );
    }
    const revision = await kv.put(opts.group, text);
    out(`published: version ${version} to ${POLICY_BUCKET}/${opts.group} (revision ${revision})`);
    return 0;
  } catch (e) {
    if (e instanceof CliError) throw e;
    const violation = permissionViolation(e);
    if (violation !== undefined) throw new CliError(`nats: the server refused ${refusalText(violation)}`);
    throw new CliError(`nats: ${redactUrls(errorMessage(e))}`);
  } finally {
    await link.close();
  }
}
