/**
 * TLS material for tests [N-SEC-1], made with `openssl` in a temp folder: a CA, a server
 * certificate for 127.0.0.1 signed by it, and a client certificate (for `verify: true`).
 * Not a test file.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Certificates {
  caFile: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

/** EC P-256 keys: quick to make, accepted by nats-server (Go) and Node alike. */
const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export function makeCertificates(dir: string): Certificates {
  const file = (name: string) => path.join(dir, name);
  const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  openssl([
    'req',
    '-x509',
    ...NEW_KEY,
    '-days',
    '2',
    '-subj',
    '/CN=hookwerk test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout',
    file('ca-key.pem'),
    '-out',
    file('ca.pem'),
  ]);
  const signed = (name: string, cn: string, extensions: string) => {
    writeFileSync(file(`${name}.ext`), extensions);
    openssl([
      'req',
      ...NEW_KEY,
      '-subj',
      `/CN=${cn}`,
      '-keyout',
      file(`${name}-key.pem`),
      '-out',
      file(`${name}.csr`),
    ]);
    openssl([
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca-key.pem'),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      file(`${name}.ext`),
      '-out',
      file(`${name}.pem`),
    ]);
  };
  signed('server', '127.0.0.1', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  signed('client', 'hookwerk worker', 'extendedKeyUsage=clientAuth\n');
  return {
    caFile: file('ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server-key.pem'),
    clientCert: file('client.pem'),
    clientKey: file('client-key.pem'),
  };
}
