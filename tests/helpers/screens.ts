// Callbacks passed to page.evaluate run in the browser: they see the DOM.
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';

/** The widths every screen is captured at: the desktop the spec designs for and a small phone. */
export const SCREEN_WIDTHS = [1280, 360] as const;

/**
 * Names that stay in Latin letters in Japanese text (formats, standards, products and abbreviations that have no
 * Japanese name). Anything else in Latin letters on a ja screen is English the user should not see.
 */
export const ALLOWED_LATIN = new Set([
  'PDF',
  'QR',
  'ID',
  'IP',
  'IPv4',
  'IPv6',
  'URL',
  'SMS',
  'CSV',
  'Box',
  'PAdES',
  'PIN',
  'MB',
  'KB',
  'GB',
  'CIDR',
  'PNG',
  'JPEG',
  'GIF',
  'UTF-8',
  'Shift_JIS',
  'BOM',
  'PKCS#12',
  'SHA-256',
  'RSA',
  'ECDSA',
  'P-256',
  'B-T',
  'B-LTA',
  'CRL',
  'OCSP',
  'p12',
  'pfx',
  'OCR',
  'AI-OCR',
  'API',
  'Webhook',
  'HTTPS',
  'JSON',
  'Excel',
  'SSO',
  'SAML',
  'API',
  'Keiyaku',
  'English',
  'OK',
  // Keys of the keyboard, named as printed on them.
  'Shift',
  'Enter',
  'Esc',
  'Tab',
  'Ctrl',
  'Asia/Tokyo',
  'yyyy-MM-dd',
  'ja',
  'en',
]);

export interface CaptureOptions {
  /**
   * Texts the test itself put into the page's data (names of organizations, workspaces, flows, documents, people)
   * that may contain Latin letters; they are left out of the English check.
   */
  allow?: string[];
}

interface VisibleText {
  /** Each visible text node's text (and each visible placeholder), trimmed. */
  texts: string[];
  /**
   * Texts checked for keys only: inside code, kbd and samp elements (format names and examples) or in an element
   * marked as written in another language (`lang="en"` on a ja screen: the English mail template's name).
   */
  keysOnly: string[];
}

/**
 * Captures the current screen for the page's language (`<html lang>`) at 1280 and 360 px wide as full-page PNGs
 * `test-results/screenshots/{name}-{lang}-{width}.png`, then puts the original viewport back. Fails (throws with the
 * offending texts) when the visible text holds an untranslated i18n key (`home.title`, `errors.X_Y`) or, on a ja
 * screen, English words outside {@link ALLOWED_LATIN}, e-mail addresses, URLs, file names, user IDs and the texts
 * in `options.allow`.
 */
export async function captureScreens(page: Page, name: string, options: CaptureOptions = {}): Promise<void> {
  const lang = await page.evaluate(() => document.documentElement.lang || 'ja');
  const original = page.viewportSize();
  const findings = new Set<string>();
  try {
    for (const width of SCREEN_WIDTHS) {
      await page.setViewportSize({ width, height: original?.height ?? 800 });
      await settled(page);
      const visible = await visibleText(page);
      for (const finding of problemsIn(visible, lang, options.allow ?? [])) findings.add(`${width}px: ${finding}`);
      await screenshot(page, `${name}-${lang}-${width}`);
    }
  } finally {
    if (original) await page.setViewportSize(original);
  }
  if (findings.size > 0) {
    throw new Error(`Screen "${name}" (${lang}) shows text it should not:\n  ${[...findings].join('\n  ')}`);
  }
}

/** Two animation frames: the layout for the new width is done. */
async function settled(page: Page) {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

async function visibleText(page: Page): Promise<VisibleText> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const keysOnly: string[] = [];
    const lang = document.documentElement.lang;
    const skipped = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
    const shown = (element: Element) => {
      const check = (element as Element & { checkVisibility?: (options: object) => boolean }).checkVisibility;
      if (check) return check.call(element, { checkVisibilityCSS: true });
      return element.getClientRects().length > 0;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').trim();
      const parent = node.parentElement;
      if (!text || !parent || skipped.has(parent.tagName) || !shown(parent)) continue;
      const foreign = parent.closest('[lang]')?.getAttribute('lang') !== lang;
      (foreign || parent.closest('code, kbd, samp') ? keysOnly : texts).push(text);
    }
    for (const input of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
      'input[placeholder], textarea[placeholder]',
    )) {
      if (input.placeholder.trim() && shown(input)) texts.push(input.placeholder.trim());
    }
    return { texts, keysOnly };
  });
}

const EMAIL = /[\w.+-]+@[\w-]+(\.[\w-]+)+/g;
const URL_PATTERN = /\b(https?:\/\/|www\.)[^\s、。）」]+/g;
const FILE_NAME = /[^\s/\\「」『』（）()、。]+\.(pdf|csv|png|jpe?g|gif|p12|pfx|zip|txt|json|xml|html?)\b/gi;
const DOMAIN = /\b[\w-]+(\.[\w-]+)*\.(com|jp|net|org|test|local|example|invalid|localhost)\b/g;
/**
 * A dotted identifier as i18next prints a key it has no text for: `home.title`, `errors.FLOW_CANCELLED` (not "e.g.").
 */
const I18N_KEY = /\b[a-z][a-zA-Z0-9]+(\.[a-zA-Z0-9_]+)+\b/g;
/** A Latin word with what may join it (PKCS#12, UTF-8, Shift_JIS, Asia/Tokyo). */
const LATIN_WORD = /[A-Za-z][A-Za-z0-9#_/'’-]*/g;

function withoutData(text: string, allow: string[]): string {
  let rest = text;
  for (const value of allow) if (value) rest = rest.split(value).join(' ');
  return rest.replace(EMAIL, ' ').replace(URL_PATTERN, ' ').replace(FILE_NAME, ' ').replace(DOMAIN, ' ');
}

/** A user ID, id or generated name rather than a word: it has a digit in it (owner-1234-5, 0f8c…). */
const looksLikeId = (word: string) => /\d/.test(word) && !ALLOWED_LATIN.has(word);

/** The offending texts of one capture, each with what is wrong with it. */
export function problemsIn(visible: VisibleText, lang: string, allow: string[] = []): string[] {
  const findings: string[] = [];
  for (const text of [...visible.texts, ...visible.keysOnly]) {
    const keys = withoutData(text, allow).match(I18N_KEY);
    if (keys) findings.push(`i18n key ${keys.join(', ')} in "${text}"`);
  }
  if (lang === 'ja') {
    for (const text of visible.texts) {
      // A key is reported above, not again as English.
      const words = (withoutData(text, allow).replace(I18N_KEY, ' ').match(LATIN_WORD) ?? [])
        .map((word) => word.replace(/[/'’_-]+$/, ''))
        .filter((word) => word.length > 1 && !ALLOWED_LATIN.has(word) && !looksLikeId(word));
      if (words.length > 0) findings.push(`English ${words.join(' ')} in "${text}"`);
    }
  }
  return findings;
}
