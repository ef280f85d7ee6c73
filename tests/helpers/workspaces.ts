/*
 * Test helpers for workspaces: valid corporate numbers, workspaces created through the API, and workspaces seeded
 * straight into the database for tests that are not about workspaces.
 */
import type { ParticipantInput } from '../../core/modules/workspaces/participants.ts';
import type { TestApp } from './app.ts';

let serial = 0;

/** A valid 13-digit corporate number, different on every call in this process. */
export function corporateNumber(): string {
  serial += 1;
  const body = String((process.pid % 100000) * 10000000 + serial)
    .padStart(12, '0')
    .slice(-12);
  let sum = 0;
  for (let n = 1; n <= 12; n++) sum += Number(body[12 - n]) * (n % 2 === 1 ? 1 : 2);
  return `${9 - (sum % 9)}${body}`;
}

export const workspaceBody = (attributes: Record<string, unknown>) => ({ data: { type: 'Workspace', attributes } });
export const participantBody = (attributes: Record<string, unknown>) => ({
  data: { type: 'WorkspaceParticipant', attributes },
});

/** Creates a workspace through the API (201 expected) and returns the Workspace resource. */
export async function createWorkspace(
  app: TestApp,
  token: string,
  participants: ParticipantInput[],
  extra: Record<string, unknown> = {},
) {
  const response = await app.api.call('createWorkspace', {
    token,
    body: workspaceBody({ name: '取引ワークスペース', participants, ...extra }),
  });
  if (response.status !== 201) throw new Error(`createWorkspace failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; attributes: Record<string, any> };
}

/** A participant row for {@link seedWorkspace}: one of the organization's groups or a partner organization. */
export interface SeededParticipant {
  groupId?: string;
  partnerOrganizationId?: string;
  isPublic?: boolean;
  isEditable?: boolean;
}

/**
 * Writes a workspace of the organization with the given participants (defaults: public, not editable) straight
 * into the database and returns its id.
 */
export async function seedWorkspace(
  app: TestApp,
  organizationId: string,
  participants: SeededParticipant[],
  options: { name?: string; mailNotification?: boolean } = {},
) {
  const { knex } = app.service.deps;
  const [workspace] = await knex('workspaces')
    .insert({
      organization_id: organizationId,
      name: options.name ?? '取引ワークスペース',
      mail_notification: options.mailNotification ?? true,
    })
    .returning('id');
  for (const p of participants) {
    await knex('workspace_participants').insert({
      organization_id: organizationId,
      workspace_id: workspace.id,
      kind: p.groupId ? 'group' : 'organization',
      group_id: p.groupId ?? null,
      partner_organization_id: p.partnerOrganizationId ?? null,
      is_public: p.isPublic ?? true,
      is_editable: p.isEditable ?? false,
    });
  }
  return workspace.id as string;
}
