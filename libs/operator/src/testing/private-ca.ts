import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throw-away CA and a server certificate it signed, for `127.0.0.1` and `localhost`. */
export interface PrivateCa {
  /** The CA's certificate (PEM): what `QuarryConnection.spec.tls.caSecretRef` names. */
  ca: string;
  serverKey: string;
  serverCert: string;
}

/**
 * Makes a private CA with openssl, for tests of `spec.tls` (nothing is kept on disk: no key in the
 * repository, a new CA each run).
 */
export function makePrivateCa(): PrivateCa {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-ca-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    writeFileSync(
      join(dir, 'san.ext'),
      'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
    );
    openssl(
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Quarry test private CA'],
      ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    );
    openssl(
      ...['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'],
    );
    openssl(
      ...['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial'],
      ...['-out', 'server.crt', '-days', '2', '-extfile', 'san.ext'],
    );
    const read = (name: string) => readFileSync(join(dir, name), 'utf8');
    return { ca: read('ca.crt'), serverKey: read('server.key'), serverCert: read('server.crt') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
