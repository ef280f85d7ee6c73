import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract/document.ts';
import { API_KEY_SCOPES, apiKeyActsAsAdmin, grants, scopeNeeded } from './api-key-scopes.ts';

const contract = loadContract();
const need = (operationId: string) => scopeNeeded(contract.operation(operationId));

describe('API key scopes', () => {
  it('lists exactly the scopes of the contract enum', () => {
    const schemas = (contract.document.components as { schemas: Record<string, { enum: string[] }> }).schemas;
    const schema = schemas.ApiKeyScope!;
    expect([...API_KEY_SCOPES].sort()).toEqual([...schema.enum].sort());
  });

  it('maps each operation to the read or write scope of its area, from its first tag and method', () => {
    expect(need('listWorkspaces')).toBe('flows:read');
    expect(need('createBusinessFlow')).toBe('flows:write');
    expect(need('listUsers')).toBe('users:read');
    expect(need('createGroup')).toBe('users:write');
    expect(need('getOrganization')).toBe('organization:read');
    expect(need('replaceIpRestrictions')).toBe('organization:write');
    expect(need('downloadOperationLogs')).toBe('logs:read');
    expect(need('getInbox')).toBe('flows:read');
    expect(need('getCurrentUser')).toBe('none');
  });

  it('refuses every personal operation (sign-out, passwords, sessions, own profile) and managing API keys', () => {
    for (const id of [
      'signOut',
      'changeMyPassword',
      'updateMe',
      'listMySessions',
      'signOutOtherSessions',
      'createApiKey',
      'listApiKeys',
      'rotateApiKey',
    ])
      expect(need(id), id).toBeNull();
  });

  it('gives every authenticated operation a decision', () => {
    const valid = new Set<unknown>([...API_KEY_SCOPES, 'none', null]);
    for (const op of contract.operations.values()) {
      if (op.authenticated && !op.guest) expect(valid.has(scopeNeeded(op)), op.operationId).toBe(true);
    }
  });

  it('lets write include read, and makes a key an administrator only for an operation of an administrators area it is scoped for', () => {
    expect(grants(['users:write'], 'users:read')).toBe(true);
    expect(grants(['users:read'], 'users:write')).toBe(false);
    expect(grants(['flows:write'], 'users:read')).toBe(false);
    const listUsers = { operationId: 'listUsers', tags: ['users'], method: 'GET' as const };
    const listWorkspaces = { operationId: 'listWorkspaces', tags: ['workspaces'], method: 'GET' as const };
    expect(apiKeyActsAsAdmin(listUsers, ['users:read'])).toBe(true);
    expect(apiKeyActsAsAdmin(listUsers, ['flows:read', 'logs:read'])).toBe(false);
    expect(apiKeyActsAsAdmin(listWorkspaces, ['flows:read', 'logs:read', 'users:write'])).toBe(false);
  });

  it('refuses the personal signing means (e-certificates, seal images) to keys', () => {
    expect(scopeNeeded({ operationId: 'x', tags: ['e-certificates'], method: 'POST' })).toBeNull();
    expect(scopeNeeded({ operationId: 'x', tags: ['seal-images'], method: 'POST' })).toBeNull();
  });
});
