import { describe, expect, it } from 'vitest';
import { NO_PERMISSIONS, roleAttributes, serverProblems, setPermission, validateRole } from './validation.ts';

describe('setPermission (the task-type matrix)', () => {
  it('turns view on with execute, since executing a task type implies viewing it', () => {
    expect(setPermission(NO_PERMISSIONS, 'sign', 'execute', true).sign).toEqual({ execute: true, view: true });
  });

  it('turns execute off with view', () => {
    const both = setPermission(NO_PERMISSIONS, 'approve', 'execute', true);
    expect(setPermission(both, 'approve', 'view', false).approve).toEqual({ execute: false, view: false });
  });

  it('keeps view when execute is turned off, and touches no other task type', () => {
    const both = setPermission(NO_PERMISSIONS, 'read', 'execute', true);
    const next = setPermission(both, 'read', 'execute', false);
    expect(next.read).toEqual({ execute: false, view: true });
    expect(next.sign).toEqual(NO_PERMISSIONS.sign);
    expect(next.approve).toEqual(NO_PERMISSIONS.approve);
  });

  it('lets view alone be on', () => {
    expect(setPermission(NO_PERMISSIONS, 'sign', 'view', true).sign).toEqual({ execute: false, view: true });
  });
});

describe('validateRole', () => {
  it('requires a name of at most 100 characters and limits the ID for system link', () => {
    const base = { name: '承認者', systemLinkId: '', taskPermissions: NO_PERMISSIONS };
    expect(validateRole(base)).toEqual({});
    expect(validateRole({ ...base, name: ' ' }).name?.[0]?.reason).toBe('required');
    expect(validateRole({ ...base, name: 'x'.repeat(101) }).name?.[0]?.reason).toBe('tooLong');
    expect(validateRole({ ...base, systemLinkId: 'x'.repeat(101) }).systemLinkId?.[0]?.reason).toBe('tooLong');
  });

  it('sends trimmed texts and an empty ID for system link as null', () => {
    expect(roleAttributes({ name: ' 承認者 ', systemLinkId: ' ', taskPermissions: NO_PERMISSIONS })).toEqual({
      name: '承認者',
      systemLinkId: null,
      taskPermissions: NO_PERMISSIONS,
    });
  });

  it('places server field errors, a matrix cell on taskPermissions', () => {
    expect(
      serverProblems([
        { code: 'ROLE_NAME_TAKEN', source: { pointer: '/data/attributes/name' } },
        { code: 'VALIDATION_FAILED', source: { pointer: '/data/attributes/taskPermissions/sign' } },
        { code: 'ROLE_LIMIT' },
      ]),
    ).toEqual({ name: [{ code: 'ROLE_NAME_TAKEN' }], taskPermissions: [{ code: 'VALIDATION_FAILED' }] });
  });
});
