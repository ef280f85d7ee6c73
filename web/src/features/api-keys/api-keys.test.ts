import { describe, expect, it } from 'vitest';
import type { components } from '../../../../core/contract/api.gen.ts';
import { sectionsFor } from '../../components/settings-sections.ts';
import { expiresAtOf, SCOPE_AREAS } from './components/scopes.ts';
import en from './i18n/en.json';
import ja from './i18n/ja.json';

describe('API key screens', () => {
  it('show the settings section to administrators only, and only while /me lists the apiKeys feature', () => {
    const paths = (viewer: Parameters<typeof sectionsFor>[0]) => sectionsFor(viewer).map((s) => s.path);
    expect(paths({ isAdmin: true, features: ['apiKeys'] })).toContain('api-keys');
    expect(paths({ isAdmin: true, features: [] })).not.toContain('api-keys');
    expect(paths({ isAdmin: false, features: ['apiKeys'] })).not.toContain('api-keys');
  });

  it('offers every scope of the contract, each with a ja and an en label', () => {
    const contractScopes: components['schemas']['ApiKeyScope'][] = [
      'flows:read',
      'flows:write',
      'users:read',
      'users:write',
      'organization:read',
      'organization:write',
      'logs:read',
    ];
    const offered = SCOPE_AREAS.flatMap((area) => area.scopes);
    expect(offered.sort()).toEqual([...contractScopes].sort());
    for (const scope of offered) {
      const key = scope.replace(':', '_') as keyof typeof ja.scopes;
      expect(ja.scopes[key]).toBeTruthy();
      expect(en.scopes[key]).toBeTruthy();
    }
  });

  it('turns the expiry choice into the date sent: days from now, the end of a chosen day in Japan, or never', () => {
    const now = new Date('2026-11-28T00:00:00Z');
    expect(expiresAtOf('30', '', now)).toBe('2026-12-28T00:00:00.000Z');
    expect(expiresAtOf('never', '', now)).toBeNull();
    expect(expiresAtOf('date', '2027-03-31', now)).toBe('2027-03-31T23:59:59+09:00');
    expect(expiresAtOf('date', '', now)).toBeUndefined();
  });
});
