/*
 * @peculiar/x509, loaded on first use: it only issues the local PKI's certificates and CRLs and reads CRL
 * distribution points, and loading it (with the reflect-metadata polyfill its dependency injection needs first)
 * costs about 200 ms that every process starting the service would otherwise pay.
 */
import { webcrypto } from 'node:crypto';
import type * as X509Module from '@peculiar/x509';

type X509 = typeof X509Module;

let loading: Promise<X509> | null = null;

export function x509Lib(): Promise<X509> {
  loading ??= (async () => {
    await import('reflect-metadata');
    const x509 = await import('@peculiar/x509');
    x509.cryptoProvider.set(webcrypto as unknown as ReturnType<typeof x509.cryptoProvider.get>);
    return x509;
  })();
  return loading;
}
