import { describe, expect, it } from 'vitest';
import en from './i18n/en.json';
import ja from './i18n/ja.json';
import { deadLinkOf } from './pages/join-page.tsx';
import { ApiError } from '../../api/errors.ts';
import { validateJoinSearch } from './search.ts';

type Catalogue = { [key: string]: string | Catalogue };

function leaves(catalogue: Catalogue, prefix = ''): [string, string][] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const bare = (text: string) => text.replace(/\{\{[^}]*\}\}/g, '');

describe('the partners catalogue (join page, dead links, outer business flow)', () => {
  it('has the same keys, non-empty, with the same placeholders in ja and en', () => {
    const keys = (c: Catalogue) =>
      leaves(c)
        .map(([key]) => key)
        .sort();
    expect(keys(en)).toEqual(keys(ja));
    const english = new Map(leaves(en));
    for (const [key, text] of leaves(ja)) {
      expect(text.trim(), key).not.toBe('');
      expect(placeholders(english.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });

  it.each(leaves(ja))('%s is Japanese: full-width punctuation, no English words', (_key, text) => {
    expect(bare(text)).not.toMatch(/[(),:;!?]/);
    expect(bare(text)).not.toMatch(/[A-Za-z]/);
  });
});

describe('the join page', () => {
  it('gives each dead link its own page', () => {
    const refusal = (status: number, code: ApiError['code']) =>
      new ApiError(status, [{ status: String(status), code, title: '', detail: '', traceId: '' }] as never);
    expect(deadLinkOf(refusal(404, 'WORKSPACE_INVITATION_INVALID'))).toBe('invalid');
    expect(deadLinkOf(refusal(410, 'WORKSPACE_INVITATION_EXPIRED'))).toBe('expired');
    expect(deadLinkOf(refusal(410, 'WORKSPACE_INVITATION_USED'))).toBe('used');
    expect(deadLinkOf(refusal(500, 'INTERNAL_ERROR'))).toBeNull();
  });

  it('reads the token from the mail link or from the sign-in hand-over', () => {
    expect(validateJoinSearch({ invitation: 'abc' })).toEqual({ invitation: 'abc', invitationToken: undefined });
    expect(validateJoinSearch({ invitationToken: 'xyz', other: '1' })).toEqual({
      invitation: undefined,
      invitationToken: 'xyz',
    });
  });
});
