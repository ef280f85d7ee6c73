import { describe, expect, it } from 'vitest';
import {
  isCorporateNumber,
  serverProblems,
  validateWorkspace,
  type WorkspaceInput,
  workspaceAttributes,
} from './validation.ts';

const input = (patch: Partial<WorkspaceInput> = {}): WorkspaceInput => ({
  name: ' 売買ワークスペース ',
  systemLinkId: '',
  description: '',
  mailNotification: true,
  groupIds: ['g-1'],
  ...patch,
});

describe('checking a workspace', () => {
  it('accepts a named workspace with an own group', () => {
    expect(validateWorkspace(input(), { creating: true })).toEqual({});
  });

  it('requires at least one own group on creation only (WORKSPACE_PARTICIPANT_REQUIRED)', () => {
    expect(validateWorkspace(input({ groupIds: [] }), { creating: true }).groupIds).toEqual([
      { code: 'WORKSPACE_PARTICIPANT_REQUIRED', reason: 'groupRequired' },
    ]);
    expect(validateWorkspace(input({ groupIds: [] }), { creating: false })).toEqual({});
  });

  it('requires a name and limits the name and the ID for system link to 100 characters', () => {
    expect(validateWorkspace(input({ name: '  ' }), { creating: false }).name?.[0]?.reason).toBe('required');
    const long = validateWorkspace(input({ name: 'x'.repeat(101), systemLinkId: 'y'.repeat(101) }), {
      creating: false,
    });
    expect(long.name?.[0]).toMatchObject({ reason: 'tooLong', params: { max: 100 } });
    expect(long.systemLinkId?.[0]).toMatchObject({ reason: 'tooLong', params: { max: 100 } });
  });

  it('sends trimmed attributes with empty optional texts as null', () => {
    expect(workspaceAttributes(input())).toEqual({
      name: '売買ワークスペース',
      systemLinkId: null,
      description: null,
      mailNotification: true,
    });
  });

  it('puts a participants pointer on the group choice', () => {
    expect(
      serverProblems([
        { code: 'WORKSPACE_PARTICIPANT_REQUIRED', source: { pointer: '/data/attributes/participants' } },
        { code: 'SYSTEM_LINK_ID_TAKEN', source: { pointer: '/data/attributes/systemLinkId' } },
      ]),
    ).toEqual({
      groupIds: [{ code: 'WORKSPACE_PARTICIPANT_REQUIRED' }],
      systemLinkId: [{ code: 'SYSTEM_LINK_ID_TAKEN' }],
    });
  });

  it('takes a corporate number of exactly 13 digits', () => {
    expect(isCorporateNumber('7000012050002')).toBe(true);
    expect(isCorporateNumber('700001205000')).toBe(false);
    expect(isCorporateNumber('７000012050002')).toBe(false);
  });
});
