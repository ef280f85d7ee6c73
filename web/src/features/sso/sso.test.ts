import { describe, expect, it } from 'vitest';
import { sectionsFor } from '../../components/settings-sections.ts';
import { isPublicPath, isSsoPath } from '../../session/guard.ts';
import { validateSsoSearch } from './search.ts';

describe('single sign-on screens', () => {
  it('show the settings section to administrators only, and only while /me lists the sso feature', () => {
    const paths = (viewer: Parameters<typeof sectionsFor>[0]) => sectionsFor(viewer).map((s) => s.path);
    expect(paths({ isAdmin: true, features: ['ipRestriction', 'sso'] })).toContain('sso');
    expect(paths({ isAdmin: true, features: ['ipRestriction'] })).not.toContain('sso');
    expect(paths({ isAdmin: true })).not.toContain('sso');
    expect(paths({ isAdmin: false, features: ['sso'] })).not.toContain('sso');
    // Sections without a feature are unaffected.
    expect(paths({ isAdmin: true })).toContain('ip-restrictions');
  });

  it('treats /sso and /{orgCode}/sso-login as signed-out screens without adding them to the spec’s public list', () => {
    for (const path of ['/sso', '/sso/', '/acme-01/sso-login']) {
      expect(isSsoPath(path)).toBe(true);
      expect(isPublicPath(path)).toBe(false);
    }
    for (const path of ['/', '/ssox', '/a/b/sso-login', '/organizations/settings/sso'])
      expect(isSsoPath(path)).toBe(false);
  });

  it('keeps only the provider’s answer from the query', () => {
    expect(validateSsoSearch({ state: 's', code: 'c', iss: 'https://idp', extra: 'x', error: 1 })).toEqual({
      state: 's',
      code: 'c',
      iss: 'https://idp',
    });
    expect(validateSsoSearch({ state: 'x'.repeat(5000) })).toEqual({});
  });
});
