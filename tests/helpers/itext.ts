/*
 * iText 5 (Debian's libitext5-java with BouncyCastle) as an independent judge of signed PDFs: compiles
 * tests/validators/ItextVerify.java once per source version and runs it on a file, returning its JSON report.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** What iText's LtvVerifier said about one signature: its VerificationOK lines and its exception, verbatim. */
export interface ItextLtv {
  /** LtvVerifier got as far as this signature. */
  checked: boolean;
  ok: boolean;
  messages: string[];
  errors: string[];
}

/** One signature (or document timestamp) as iText 5 sees it. */
export interface ItextSignature {
  name: string;
  /** AcroFields' numbering: signed revisions only, plus one when unsigned bytes follow the last signature. */
  revision?: number;
  totalRevisions?: number;
  coversWholeDocument?: boolean;
  subFilter: string | null;
  /** DocMDP P of a certification signature, 0 for an approval signature. */
  certifyLevel: number;
  /** PdfPKCS7.verify(): the ByteRange digest and the CMS signature; null when iText could not read the CMS. */
  integrity: boolean | null;
  /** The fields below are absent when iText could not read the CMS (see `errors`). */
  isTsp?: boolean;
  signer?: string | null;
  signName?: string | null;
  signDate?: string | null;
  digestAlgorithm?: string | null;
  timestamp?: {
    present: boolean;
    imprintValid?: boolean;
    time?: string | null;
    /** With roots: CertificateVerification.verifyTimestampCertificates. */
    chainTrusted?: boolean;
    /** With roots: CertificateVerification.verifyCertificates over the token's certificates. */
    chainErrors?: string[];
  };
  /** CertificateVerification.verifyCertificates against the roots; null without roots. */
  chainErrors?: string[] | null;
  /** iText's OCSPVerifier → CRLVerifier → RootStoreVerifier over the DSS and CMS revocation data, offline. */
  revocation?: {
    checked: boolean;
    revoked: boolean;
    crls: number;
    ocspResponses: number;
    messages: string[];
    errors: string[];
  };
  ltv: ItextLtv;
  errors: string[];
}

export interface ItextReport {
  encrypted?: boolean;
  totalRevisions?: number;
  /** PdfReader.getCertificationLevel(). */
  certificationLevel?: number;
  rootsGiven?: boolean;
  /** LtvVerifier over the whole file: `error` is its exception, verbatim. */
  ltv?: { ok: boolean; error: string | null };
  signatures: ItextSignature[];
  errors: string[];
}

const JARS = [
  { file: '/usr/share/java/itext5.jar', apt: 'libitext5-java' },
  { file: '/usr/share/java/bcprov.jar', apt: 'libbcprov-java' },
  { file: '/usr/share/java/bcpkix.jar', apt: 'libbcpkix-java' },
  // BouncyCastle 1.72 split its ASN.1 utilities out of bcpkix; libbcpkix-java depends on the package that has them.
  { file: '/usr/share/java/bcutil.jar', apt: 'libbcpkix-java' },
];
const SOURCE = path.join(import.meta.dirname, '../validators/ItextVerify.java');
const CLASS_PATH = JARS.map((jar) => jar.file).join(':');

function onPath(command: string): boolean {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && existsSync(path.join(dir, command)));
}

/** Throws naming the Debian packages to install when the JDK or a jar is missing. */
function requireTools(): void {
  const missing = new Set(JARS.filter((jar) => !existsSync(jar.file)).map((jar) => jar.apt));
  if (!onPath('javac') || !onPath('java')) missing.add('default-jdk-headless');
  if (missing.size > 0) {
    throw new Error(
      `the iText 5 validator needs the Debian packages ${[...missing].join(', ')} ` +
        `(apt-get install ${[...missing].join(' ')}; .ci/run installs them)`,
    );
  }
}

let compiled: string | null = null;

/**
 * The directory holding ItextVerify.class for the current source. Keyed by the source's hash, so parallel test
 * processes share one compilation: each compiles into its own directory and renames it into place.
 */
function classesDir(): string {
  const source = readFileSync(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  if (compiled?.endsWith(hash)) return compiled;
  requireTools();
  const dir = path.join(tmpdir(), `keiyaku-itext-${hash}`);
  if (!existsSync(path.join(dir, 'ItextVerify.class'))) {
    const staging = mkdtempSync(path.join(tmpdir(), 'keiyaku-itext-build-'));
    try {
      execFileSync('javac', ['-nowarn', '-encoding', 'UTF-8', '-cp', CLASS_PATH, '-d', staging, SOURCE], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 120_000,
      });
      renameSync(staging, dir);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // Another process may have won the rename; anything else is a real compile error.
      if (!existsSync(path.join(dir, 'ItextVerify.class'))) {
        const detail = (error as { stderr?: string }).stderr ?? String(error);
        throw new Error(`javac ItextVerify.java failed: ${detail}`, { cause: error });
      }
    }
  }
  compiled = dir;
  return dir;
}

let files = 0;
const work = mkdtempSync(path.join(tmpdir(), 'keiyaku-itext-run-'));

/**
 * Runs iText 5 on `pdf`: every signature's integrity, coverage, revision, timestamp imprint, chain (against the roots
 * in `rootsPem`, when given), revocation from the DSS and CMS, and what LtvVerifier says.
 */
export function itextVerify(pdf: Uint8Array, rootsPem?: string): ItextReport {
  const dir = classesDir();
  const n = files++;
  const file = path.join(work, `${n}.pdf`);
  writeFileSync(file, pdf);
  const args = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-cp', `${dir}:${CLASS_PATH}`, 'ItextVerify', file];
  if (rootsPem !== undefined) {
    const roots = path.join(work, `${n}-roots.pem`);
    writeFileSync(roots, rootsPem);
    args.push(roots);
  }
  let stdout: string;
  try {
    stdout = execFileSync('java', args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout: out, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`ItextVerify did not finish: ${String(error)}\n${out ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
  try {
    return JSON.parse(stdout) as ItextReport;
  } catch (error) {
    throw new Error(`ItextVerify printed no JSON: ${stdout}`, { cause: error });
  }
}
