import { describe, expect, it } from 'vitest';
import { useApp, useBrowser } from '../helpers/browser.ts';
import { problemsIn } from '../helpers/screens.ts';
import { SIGNED_OUT_SCREENS, visitScreens } from './i18n-screens-world.ts';

// The signed-out screens in ja and en at 1280 and 360 px, and captureScreens' own checks; the signed-in screens are
// in i18n-screens-ja.test.ts and i18n-screens-en.test.ts (see i18n-screens-world.ts).

const app = useApp();
const browser = useBrowser();

describe('captureScreens', () => {
  it('finds i18n keys and English words on a ja screen, but not names, addresses, file names or IDs', () => {
    expect(problemsIn({ texts: ['home.title', 'errors.FLOW_CANCELLED が発生'], keysOnly: [] }, 'ja')).toHaveLength(2);
    expect(problemsIn({ texts: ['Save changes'], keysOnly: [] }, 'ja')).toEqual([
      'English Save changes in "Save changes"',
    ]);
    expect(problemsIn({ texts: ['404 | Not Found'], keysOnly: [] }, 'ja')).toHaveLength(1);
    expect(
      problemsIn(
        {
          texts: [
            'owner-1234-5@example.com に送信しました。',
            'contract.pdf（PDF、1 MB）',
            'ユーザーID：owner-1234-5',
            'QRコードとSMSで認証します。',
          ],
          keysOnly: ['systemLinkId'],
        },
        'ja',
      ),
    ).toEqual([]);
    expect(problemsIn({ texts: ['Save changes', 'Acme Inc.'], keysOnly: [] }, 'en')).toEqual([]);
    expect(problemsIn({ texts: ['Acme Inc. との契約'], keysOnly: [] }, 'ja', ['Acme Inc.'])).toEqual([]);
  });
});

describe('the signed-out screens in ja and en', () => {
  it('show no i18n key and, in ja, no English', { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    for (const language of ['ja', 'en'] as const) {
      failures.push(...(await visitScreens(await browser.open({ app, language }), SIGNED_OUT_SCREENS)));
    }
    expect(failures).toEqual([]);
  });
});
