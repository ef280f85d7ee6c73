// Callbacks passed to page.evaluate run in the browser: they see the DOM.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, onTestFailed } from 'vitest';
import enAuth from '../../web/src/i18n/en/auth.json' with { type: 'json' };
import enCommon from '../../web/src/i18n/en/common.json' with { type: 'json' };
import enErrors from '../../web/src/i18n/en/errors.json' with { type: 'json' };
import jaAuth from '../../web/src/i18n/ja/auth.json' with { type: 'json' };
import jaCommon from '../../web/src/i18n/ja/common.json' with { type: 'json' };
import jaErrors from '../../web/src/i18n/ja/errors.json' with { type: 'json' };
import type { Plan } from '../../core/http/context.ts';
import { signIn, signUpOrganization } from './accounts.ts';
import { startApp, type TestApp } from './app.ts';
import { recipientOf, waitForMail } from './mail.ts';

/** Debian's chromium; playwright-core never downloads a browser. */
export const CHROMIUM_PATH = process.env.KEIYAKU_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Features switched off. Every new context is a window of the full browser (headless), whose toolbar loaded the
 * omnibox's web UI pop-ups in a renderer of their own: about a third of chromium's CPU time in a browser test file
 * (one-time-invitations, seven contexts: 24.4 and 24.6 against 15.6 and 19.9 s). Chromium reads only the last
 * `--disable-features`, so the list repeats the one playwright-core (1.65) passes before ours.
 */
const DISABLED_FEATURES = [
  // playwright-core's own (server/chromium/chromiumSwitches.ts).
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  // The omnibox's pop-ups and the toolbar web UI preloaded for them.
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
  'PreloadTopChromeWebUI',
];

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

/** Where the run writes its screenshots (gitignored with the rest of test-results/). */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');

export type Language = 'ja' | 'en';

/** The workbench's own catalogues, so tests find elements by the texts users see. */
export const TEXTS = {
  ja: { common: jaCommon, auth: jaAuth, errors: jaErrors },
  en: { common: enCommon, auth: enAuth, errors: enErrors },
} as const;

/** The key under which the workbench keeps the chosen language (web/src/i18n/index.ts). */
export const LANGUAGE_KEY = 'keiyaku.language';
/** The key under which the workbench keeps the signed-in user's tokens (web/src/session/session.ts). */
export const TOKENS_KEY = 'keiyaku.tokens';
export const SESSION_TIMESTAMP_KEY = 'keiyaku.sessionTimestamp';

export interface Viewport {
  width: number;
  height: number;
}

/** The tokens the API's sign-in answers with. */
export interface SessionTokens {
  authorizationToken: string;
  refreshToken: string;
}

export const DESKTOP = { width: 1280, height: 800 } as const;
export const MOBILE = { width: 360, height: 740 } as const;

/** Waits on a slow two-core machine: generous, but a wait-for, never a fixed sleep. */
export const UI_TIMEOUT = 30_000;

export interface OpenOptions {
  /** The service the page talks to; relative `page.goto('/login')` resolves against it. */
  app: TestApp;
  /** The workbench language stored before the first page loads (ja, the default, when omitted). */
  language?: Language;
  viewport?: Viewport;
}

export interface SignedInOptions extends OpenOptions {
  /** Opened once the session is in place. */
  path?: string;
  /** The level-1 heading (exact text) to wait for on `path`. */
  heading?: string;
}

export interface BrowserHarness {
  /** A fresh context (own storage, cookies, clock) and page for this test; closed after the test. */
  open(options: OpenOptions): Promise<Page>;
  /** A page that takes over `session` (see restoreSession), then opens `path` and waits for `heading`. */
  openSignedIn(options: SignedInOptions & { session: SessionTokens }): Promise<Page>;
  /**
   * A new organization (sign-up `overrides` as signUpOrganization takes them; `plan`, when given, written to
   * `organizations.plan` before the sign-in), its owner (an administrator) signed in over the API, and a page with
   * that session as openSignedIn opens it.
   */
  openAsOwner(
    options: SignedInOptions & { overrides?: Record<string, unknown>; plan?: Plan },
  ): Promise<{ org: Awaited<ReturnType<typeof signUpOrganization>>; pair: SessionTokens; token: string; page: Page }>;
}

type StartOptions = NonNullable<Parameters<typeof startApp>[0]>;

/**
 * Starts the service before the calling test file's tests and closes it after them. The returned object takes on
 * the started app's fields in beforeAll, so tests use it as the app. `options` may be a function, for options known
 * only once an earlier beforeAll has run (a peer's URL).
 */
export function useApp(options?: StartOptions | (() => StartOptions)): TestApp {
  const app = {} as TestApp;
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startApp(typeof options === 'function' ? options() : options);
    Object.assign(app, started);
  });
  afterAll(() => started?.close());
  return app;
}

/**
 * Launches chromium once for the calling test file and hands each test its own context. When a test fails, the
 * page's console errors and uncaught exceptions are printed and a screenshot `failed-<test>.png` is taken.
 */
export function useBrowser(): BrowserHarness {
  let browser: Browser | null = null;
  let contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 60_000 });
  });

  afterEach(async () => {
    const open = contexts;
    contexts = [];
    await Promise.all(open.map((context) => context.close().catch(() => undefined)));
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function open({ app, language, viewport = DESKTOP }: OpenOptions): Promise<Page> {
    if (!browser) throw new Error('useBrowser(): the browser is not running (call open() inside a test)');
    const context = await browser.newContext({
      baseURL: app.url,
      viewport,
      locale: language === 'en' ? 'en-US' : 'ja-JP',
      timezoneId: 'Asia/Tokyo',
    });
    contexts.push(context);
    context.setDefaultTimeout(UI_TIMEOUT);
    context.setDefaultNavigationTimeout(60_000);
    if (language) {
      // Only before the first choice: a language switch made by the test must survive reloads.
      await context.addInitScript(
        ({ key, value }) => {
          if (window.localStorage.getItem(key) === null) window.localStorage.setItem(key, value);
        },
        { key: LANGUAGE_KEY, value: language },
      );
    }
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
    });
    onTestFailed(async ({ task }) => {
      if (problems.length > 0) console.error(`Browser problems in "${task.name}":\n  ${problems.join('\n  ')}`);
      console.error(`Page URL at failure: ${page.url()}`);
      await screenshot(page, `failed-${task.name}`, { always: true }).catch(() => undefined);
    });
    return page;
  }

  async function openSignedIn({
    session,
    path,
    heading: title,
    ...options
  }: SignedInOptions & { session: SessionTokens }) {
    const page = await open(options);
    // The session goes into the origin's storage from a page that is not the workbench (the JSON health check), so
    // the workbench starts once, on `path`, signed in: from /login it started twice (a few seconds of a file's CPU).
    await page.goto('/healthz');
    await restoreSession(page, session);
    if (path) await page.goto(path);
    if (title) await heading(page, title);
    return page;
  }

  async function openAsOwner({
    overrides,
    plan,
    ...options
  }: SignedInOptions & { overrides?: Record<string, unknown>; plan?: Plan }) {
    const org = await signUpOrganization(options.app, overrides);
    if (plan) await options.app.service.deps.knex('organizations').where({ id: org.organizationId }).update({ plan });
    const pair = await signIn(options.app, org.loginId, org.password);
    const page = await openSignedIn({ ...options, session: pair });
    return { org, pair, token: pair.authorizationToken, page };
  }

  return { open, openSignedIn, openAsOwner };
}

/** Locator options for an exact text match. */
export const exact = { exact: true } as const;

/** The form control labelled exactly `label`. */
export function field(page: Page, label: string): Locator {
  return page.getByLabel(label, exact);
}

/** Waits for the level-1 heading with exactly this text and returns it. */
export async function heading(page: Page, name: string): Promise<Locator> {
  const locator = page.getByRole('heading', { level: 1, name, exact: true });
  await locator.waitFor();
  return locator;
}

/** Waits until the browser shows `pathname` (or a path the pattern matches) and returns the URL. */
export async function landedOn(page: Page, pathname: string | RegExp): Promise<URL> {
  await page.waitForURL((url) =>
    typeof pathname === 'string' ? url.pathname === pathname : pathname.test(url.pathname),
  );
  return new URL(page.url());
}

/** The toast with this text (react-toastify gives each toast role="alert"). */
export function toast(page: Page, text: string): Locator {
  return page.locator('.Toastify__toast').filter({ hasText: text });
}

/** Picks a language in the switch, which stores it and reloads the page. */
export async function switchLanguage(page: Page, from: Language, to: Language) {
  const select = page.getByRole('combobox', { name: TEXTS[from].common.language.label });
  await Promise.all([page.waitForEvent('load'), select.selectOption(to)]);
  await page.waitForFunction((lang) => document.documentElement.lang === lang, to);
}

/**
 * Whether the screens' PNGs are written: they are for a person to look at, so by default not on CI, where nobody does
 * and they cost about a sixth of a browser file's time (measured on two cores). Every check beside them runs either
 * way; `KEIYAKU_TEST_SCREENSHOTS=1` (or `0`) decides. A failed test's screenshot is always written.
 */
const WRITE_SCREENSHOTS = (process.env.KEIYAKU_TEST_SCREENSHOTS ?? (process.env.CI ? '0' : '1')) !== '0';

/**
 * Saves a PNG of the page (or of the window) under test-results/screenshots/ (see {@link WRITE_SCREENSHOTS}).
 * Animations keep running: Playwright's `animations: 'disabled'` would finish react-toastify's progress animation,
 * which is its auto-close timer, and so close every toast on the page.
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true, always = false }: { fullPage?: boolean; always?: boolean } = {},
): Promise<void> {
  if (!WRITE_SCREENSHOTS && !always) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const safe = name
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${safe}.png`), fullPage });
}

/** The tokens the workbench keeps in localStorage, or null when signed out. */
export async function storedTokens(page: Page): Promise<unknown> {
  return page.evaluate((key) => {
    const raw = window.localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as unknown);
  }, TOKENS_KEY);
}

/** Signing an organization up and its owner in over the API, for tests whose subject is another screen. */
export { PASSWORD, signIn, signUpOrganization } from './accounts.ts';

/**
 * Puts a session the API issued into the page's storage the way the workbench keeps it (tokens with decoded
 * claims and the activity timestamp), so a test can open a protected page without going through the sign-in screen.
 * The page must already show the workbench's origin.
 */
export async function restoreSession(page: Page, pair: SessionTokens) {
  const payload = pair.authorizationToken.split('.')[1]!;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const tokens = {
    accessToken: { accessToken: pair.authorizationToken, claims: { ...claims, uid: String(claims.uid) } },
    refreshToken: { refreshToken: pair.refreshToken },
  };
  await page.evaluate(
    ({ tokensKey, timestampKey, value }) => {
      window.localStorage.setItem(tokensKey, value);
      window.localStorage.setItem(timestampKey, String(Date.now()));
    },
    { tokensKey: TOKENS_KEY, timestampKey: SESSION_TIMESTAMP_KEY, value: JSON.stringify(tokens) },
  );
}

/**
 * Waits for a mail to `email` in the local outbox and returns the first link in its text whose path starts with
 * `pathPrefix` (for instance /forget-password/reset), as a path + query the page can open on the test's server.
 */
export async function mailedLink(app: TestApp, email: string, pathPrefix: string, timeoutMs = 15_000) {
  const mail = await waitForMail(
    app,
    (candidate) => recipientOf(candidate).includes(email) && linksIn(candidate.text ?? '', pathPrefix).length > 0,
    timeoutMs,
  );
  const url = new URL(linksIn(mail.text ?? '', pathPrefix)[0]!);
  return { mail, url, path: `${url.pathname}${url.search}` };
}

function linksIn(text: string, pathPrefix: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"]+/g)]
    .map((match) => match[0])
    .filter((link) => {
      try {
        return new URL(link).pathname.startsWith(pathPrefix);
      } catch {
        return false;
      }
    });
}
