/**
 * The `returnTo` of the seal image screen: the signing screen that sent the user to register a seal image. Only a
 * same-origin path of a member signing screen is accepted (never another site, a protocol-relative "//host" or a
 * path that normalizes into one), so the 「署名画面に戻る」 link cannot lead anywhere else.
 */
const SIGNING_PATH = /^\/organizations\/documents\/[A-Za-z0-9-]+\/tasks\/[A-Za-z0-9-]+\/sign$/;

export function signingReturnPath(value: unknown, origin = window.location.origin): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return null;
  }
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || !SIGNING_PATH.test(url.pathname) || url.pathname !== value.split(/[?#]/)[0]) {
    return null;
  }
  return url.pathname;
}
