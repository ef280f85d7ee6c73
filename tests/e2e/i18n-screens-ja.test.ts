import { describe, expect, it } from 'vitest';
import { useApp, useBrowser } from '../helpers/browser.ts';
import { checkSignedInScreens } from './i18n-screens-world.ts';

// Every signed-in main screen in ja at 1280 and 360 px (see i18n-screens-world.ts).

const app = useApp();
const browser = useBrowser();

describe('every signed-in main screen in ja', () => {
  it('shows no i18n key and no English', { timeout: 600_000 }, async () => {
    expect(await checkSignedInScreens(app, browser, 'ja')).toEqual([]);
  });
});
