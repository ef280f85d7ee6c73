import { describe, expect, it } from 'vitest';
import { keepsRules, type RuleFields } from './rule-changes.ts';

const task = (overrides: Partial<RuleFields> = {}): RuleFields => ({
  type: 'approve',
  assignee_kind: 'group',
  group_id: 'g1',
  partner_organization_id: null,
  one_time_user_id: null,
  role_id: 'r1',
  signature_type: null,
  two_factor: 'none',
  ...overrides,
});

describe('keepsRules', () => {
  it('accepts a plan that keeps every live task (added tasks are fine)', () => {
    expect(keepsRules([task()], [task(), task({ group_id: 'g2', role_id: null })])).toBe(true);
  });

  it('refuses a dropped or changed role, another assignee, another type or a weaker signing', () => {
    expect(keepsRules([task()], [task({ role_id: null })])).toBe(false);
    expect(keepsRules([task()], [task({ role_id: 'r2' })])).toBe(false);
    expect(keepsRules([task()], [task({ group_id: 'g2' })])).toBe(false);
    expect(keepsRules([task()], [task({ type: 'read' })])).toBe(false);
    const sign = task({ type: 'sign', signature_type: 'party', two_factor: 'sms' });
    expect(keepsRules([sign], [{ ...sign, signature_type: 'operator' }])).toBe(false);
    expect(keepsRules([sign], [{ ...sign, two_factor: 'none' }])).toBe(false);
    expect(keepsRules([task()], [])).toBe(false);
  });

  it('counts identical tasks: two live ones need two in the new plan', () => {
    expect(keepsRules([task(), task()], [task()])).toBe(false);
    expect(keepsRules([task(), task()], [task(), task()])).toBe(true);
  });
});
