import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.ts';
import { PluginError } from '../../core/plugins/index.ts';
import { aiOcrPlugin } from './index.ts';

describe('ai-ocr configuration', () => {
  const config = loadConfig({ KEIYAKU_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') });

  it('refuses the monthly page settings that moved to the plans file, naming them and where they went', () => {
    const read = () => aiOcrPlugin.config!.read(config, { MONTHLY_PAGES_STANDARD: '50', TESSERACT: 'tesseract' });
    expect(read).toThrow(PluginError);
    expect(read).toThrow(/KEIYAKU_PLUGIN_AIOCR_MONTHLY_PAGES_STANDARD no longer apply.*monthlyAllowance/);
  });

  it('reads the Tesseract binary and the page time budget', () => {
    expect(aiOcrPlugin.config!.read(config, { TESSERACT: '/usr/bin/tesseract', PAGE_TIMEOUT_SECONDS: '30' })).toEqual({
      tesseract: '/usr/bin/tesseract',
      pageTimeoutSeconds: '30',
    });
  });
});
