/*
 * A real certification authority for tests, run with the openssl CLI (`openssl ca` with an index.txt database): a
 * root that issues RSA-2048 user certificates (subject CN and emailAddress) naming a CRL distribution point served
 * by a node HTTP server here, and optionally an OCSP responder (AIA) answered by a real `openssl ocsp` process using
 * the same index.txt and a delegated responder certificate (id-kp-OCSPSigning), behind a small HTTP front that hands
 * it one request per connection (it serves one connection at a time and would otherwise wait on an idle keep-alive
 * connection while another client's request hangs). Every CRL request gets a freshly
 * generated CRL whose thisUpdate/nextUpdate follow the clock the test gives (the service's ManualClock), so moving
 * that clock past nextUpdate makes the service fetch the CA's current CRL.
 */
import { execFile, execFileSync, type ChildProcess, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** openssl with its chatter (key generation dots, "Database updated") kept out of the test output. */
const quiet = (args: string[], options: { stdio?: 'ignore' } = {}) =>
  execFileSync('openssl', args, { stdio: 'pipe', ...options });

export interface IssuedCertificate {
  /** PKCS#12 (password `pin`) holding the key, the certificate and the root. */
  p12: Buffer;
  certDer: Uint8Array;
  certPem: string;
  keyPem: string;
}

export type CrlReason =
  | 'unspecified'
  | 'keyCompromise'
  | 'CACompromise'
  | 'affiliationChanged'
  | 'superseded'
  | 'cessationOfOperation'
  | 'certificateHold'
  | 'removeFromCRL';

export interface TestCa {
  dir: string;
  rootPem: string;
  rootDer: Uint8Array;
  rootFile: string;
  crlUrl: string;
  ocspUrl: string | null;
  /**
   * Issues a user certificate; `ocsp` adds the responder to its AIA; the CRL distribution point is there unless
   * `bare` (a certificate that names no revocation source at all).
   */
  issue(
    commonName: string,
    email: string,
    options: { ocsp: boolean; pin: string; bare?: boolean },
  ): Promise<IssuedCertificate>;
  /** Revokes a certificate in index.txt (the OCSP responder re-reads it; the next CRL lists it). */
  revoke(certDer: Uint8Array, reason: CrlReason): Promise<void>;
  /** A CRL generated now (DER), as the server would serve it. */
  crl(): Promise<Uint8Array>;
  /** How many CRL requests the server answered. */
  crlRequests(): number;
  stopCrlServer(): Promise<void>;
  stopOcsp(): Promise<void>;
  stop(): Promise<void>;
}

const CA_CONFIG = (dir: string, crlUrl: string, ocspUrl: string | null) => `
[ ca ]
default_ca = test_ca

[ test_ca ]
dir = ${dir}
database = $dir/index.txt
new_certs_dir = $dir/issued
certificate = $dir/root.pem
private_key = $dir/root.key
serial = $dir/serial
crlnumber = $dir/crlnumber
default_md = sha256
default_days = 365
policy = policy_any
unique_subject = no
copy_extensions = none
email_in_dn = yes
utf8 = yes
string_mask = utf8only

[ policy_any ]
commonName = supplied
emailAddress = optional

[ user_cert ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:${crlUrl}

[ user_cert_bare ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid

[ user_cert_ocsp ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:${crlUrl}
${ocspUrl ? `authorityInfoAccess = OCSP;URI:${ocspUrl}` : ''}

[ ocsp_responder ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, OCSPSigning
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
noCheck = ignored

[ crl_ext ]
authorityKeyIdentifier = keyid:always
`;

/** YYYYMMDDHHMMSSZ, as openssl ca takes times. */
const asn1Time = (date: Date) => `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForLine(child: ChildProcess, line: RegExp, timeoutMs = 10_000): Promise<void> {
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`openssl ocsp did not start: ${seen}`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`openssl ocsp exited with ${code}: ${seen}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (line.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

/**
 * Starts a CA: root key and certificate, the CRL server, and (with `ocsp`) an `openssl ocsp` responder. CRLs are
 * valid `crlValiditySeconds` from `now()` at each request.
 */
export async function startTestCa(
  options: { name?: string; ocsp?: boolean; now?: () => Date; crlValiditySeconds?: number } = {},
): Promise<TestCa> {
  const now = options.now ?? (() => new Date());
  const dir = mkdtempSync(path.join(tmpdir(), 'keiyaku-test-ca-'));
  const file = (name: string) => path.join(dir, name);
  execFileSync('mkdir', [file('issued')]);
  writeFileSync(file('index.txt'), '');
  writeFileSync(file('serial'), '1000\n');
  writeFileSync(file('crlnumber'), '01\n');

  let crlServed = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const generateCrl = (): Promise<Uint8Array> => {
    const next = queue.then(async () => {
      const at = now();
      const pem = file('crl.pem');
      await run('openssl', [
        'ca',
        '-config',
        file('ca.cnf'),
        '-gencrl',
        '-crlexts',
        'crl_ext',
        '-crl_lastupdate',
        asn1Time(new Date(at.getTime() - 60_000)),
        '-crl_nextupdate',
        asn1Time(new Date(at.getTime() + (options.crlValiditySeconds ?? 120) * 1000)),
        '-out',
        pem,
      ]);
      const der = file('crl.der');
      await run('openssl', ['crl', '-in', pem, '-outform', 'DER', '-out', der]);
      return new Uint8Array(readFileSync(der));
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const server: Server = createServer((req, res) => {
    if (req.url === '/ca.crl') {
      generateCrl().then(
        (crl) => {
          crlServed++;
          res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(Buffer.from(crl));
        },
        () => res.writeHead(500).end(),
      );
      return;
    }
    if (req.url === '/ca.crt') {
      res.writeHead(200, { 'content-type': 'application/pkix-cert' }).end(readFileSync(file('root.der')));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const crlUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ca.crl`;
  const ocspPort = options.ocsp ? await freePort() : null;
  let ocspFront: Server | null = null;
  if (ocspPort) {
    let forwarding: Promise<unknown> = Promise.resolve();
    ocspFront = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const forwarded = forwarding.then(
          () =>
            new Promise<void>((resolve) => {
              const upstream = httpRequest(
                {
                  host: '127.0.0.1',
                  port: ocspPort,
                  method: 'POST',
                  path: '/',
                  agent: false,
                  headers: {
                    'content-type': req.headers['content-type'] ?? 'application/ocsp-request',
                    'content-length': body.length,
                    connection: 'close',
                  },
                  timeout: 5000,
                },
                (answer) => {
                  const parts: Buffer[] = [];
                  answer.on('data', (chunk: Buffer) => parts.push(chunk));
                  answer.on('end', () => {
                    res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/ocsp-response' });
                    res.end(Buffer.concat(parts));
                    resolve();
                  });
                },
              );
              upstream.on('timeout', () => upstream.destroy(new Error('timeout')));
              upstream.on('error', () => {
                if (!res.headersSent) res.writeHead(502).end();
                resolve();
              });
              upstream.end(body);
            }),
        );
        forwarding = forwarded.catch(() => undefined);
      });
    });
    await new Promise<void>((resolve) => ocspFront!.listen(0, '127.0.0.1', resolve));
  }
  const ocspUrl = ocspFront ? `http://127.0.0.1:${(ocspFront.address() as AddressInfo).port}/` : null;
  writeFileSync(file('ca.cnf'), CA_CONFIG(dir, crlUrl, ocspUrl));

  const name = options.name ?? 'Keiyaku Test Root CA';
  quiet([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('root.key'),
    '-out',
    file('root.pem'),
    '-subj',
    `/CN=${name}/O=Keiyaku Tests/C=JP`,
    '-days',
    '3650',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  quiet(['x509', '-in', file('root.pem'), '-outform', 'DER', '-out', file('root.der')]);
  const rootPem = readFileSync(file('root.pem'), 'utf8');

  let serialCounter = 0;
  const issueInto = (prefix: string, subject: string, extensions: string) => {
    const key = file(`${prefix}.key`);
    const csr = file(`${prefix}.csr`);
    const cert = file(`${prefix}.pem`);
    quiet(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', subject, '-utf8']);
    quiet([
      'ca',
      '-batch',
      '-config',
      file('ca.cnf'),
      '-extensions',
      extensions,
      '-startdate',
      asn1Time(new Date(now().getTime() - 24 * 60 * 60 * 1000)),
      '-days',
      '365',
      '-notext',
      '-in',
      csr,
      '-out',
      cert,
    ]);
    return { key, cert };
  };

  let ocspProcess: ChildProcess | null = null;
  if (ocspPort) {
    const responder = issueInto('ocsp-responder', '/CN=Keiyaku Test OCSP Responder', 'ocsp_responder');
    ocspProcess = spawn(
      'openssl',
      [
        'ocsp',
        '-index',
        file('index.txt'),
        '-port',
        String(ocspPort),
        '-rsigner',
        responder.cert,
        '-rkey',
        responder.key,
        '-CA',
        file('root.pem'),
        '-nmin',
        '10',
        '-ignore_err',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // It serves one connection at a time and waits on a connection that sends nothing, so a TCP probe would hang
    // it: wait for its own "waiting for OCSP client connections" line instead.
    const child = ocspProcess;
    // Never outlive the test process, even when it ends without afterAll.
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('exit', () => process.removeListener('exit', killOnExit));
    await waitForLine(ocspProcess, /waiting for OCSP client connections/);
  }

  /**
   * `openssl ocsp` re-reads a changed index.txt only at the top of its loop, so the request that wakes it is still
   * answered from the old index: a throwaway request after each change makes the next real one see it.
   */
  // A well-formed request (for a serial nobody holds): openssl answers it at once, where a malformed one is left
  // unanswered until the timeout.
  const pokeRequest = ocspUrl
    ? (() => {
        quiet(['ocsp', '-issuer', file('root.pem'), '-serial', '0x7fffffff', '-no_nonce', '-reqout', file('poke.der')]);
        return readFileSync(file('poke.der'));
      })()
    : null;
  const pokeResponder = async () => {
    if (!ocspUrl || !pokeRequest || !ocspProcess || ocspProcess.exitCode !== null) return;
    await fetch(ocspUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/ocsp-request' },
      body: pokeRequest,
      signal: AbortSignal.timeout(5000),
    }).then(
      (response) => response.arrayBuffer(),
      () => undefined,
    );
  };

  const stopOcsp = async () => {
    const front = ocspFront;
    ocspFront = null;
    if (front) {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
    const child = ocspProcess;
    ocspProcess = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  let serverOpen = true;
  const stopCrlServer = async () => {
    if (!serverOpen) return;
    serverOpen = false;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };

  return {
    dir,
    rootPem,
    rootDer: new Uint8Array(new X509Certificate(rootPem).raw),
    rootFile: file('root.pem'),
    crlUrl,
    ocspUrl,
    async issue(commonName, email, { ocsp, pin, bare }) {
      if (ocsp && !ocspUrl) throw new Error('this CA runs no OCSP responder');
      const prefix = `user-${serialCounter++}`;
      const { key, cert } = issueInto(
        prefix,
        `/CN=${commonName}/emailAddress=${email}`,
        bare ? 'user_cert_bare' : ocsp ? 'user_cert_ocsp' : 'user_cert',
      );
      const p12 = file(`${prefix}.p12`);
      quiet([
        'pkcs12',
        '-export',
        '-inkey',
        key,
        '-in',
        cert,
        '-certfile',
        file('root.pem'),
        '-out',
        p12,
        '-passout',
        `pass:${pin}`,
      ]);
      const certPem = readFileSync(cert, 'utf8');
      await pokeResponder();
      return {
        p12: readFileSync(p12),
        certDer: new Uint8Array(new X509Certificate(certPem).raw),
        certPem,
        keyPem: readFileSync(key, 'utf8'),
      };
    },
    async revoke(certDer, reason) {
      const pem = file(`revoke-${serialCounter++}.pem`);
      writeFileSync(pem, new X509Certificate(certDer).toString());
      quiet(['ca', '-config', file('ca.cnf'), '-revoke', pem, '-crl_reason', reason]);
      await pokeResponder();
    },
    crl: generateCrl,
    crlRequests: () => crlServed,
    stopCrlServer,
    stopOcsp,
    async stop() {
      await stopOcsp();
      await stopCrlServer();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
