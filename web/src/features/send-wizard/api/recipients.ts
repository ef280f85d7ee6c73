import { ApiError, unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /workspaces (listWorkspaces): the workspaces a draft may be created in (those the caller may edit). */
export async function listWizardWorkspaces() {
  const body = unwrap(await api.GET('/workspaces', { params: { query: { sort: 'name', 'page[size]': 100 } } }));
  return body.data.filter((w) => w.attributes.canEdit).map((w) => ({ id: w.id, name: w.attributes.name }));
}

/** GET /workspaces/{workspaceId} (getWorkspace): its participants and lockVersion. */
export async function getWizardWorkspace(workspaceId: string) {
  return unwrap(await api.GET('/workspaces/{workspaceId}', { params: { path: { workspaceId } } })).data;
}

/**
 * POST /workspaces/{workspaceId}/participants (addWorkspaceParticipant): an own group, or a partner organization by
 * corporate number, added as NOT public (a partner sees only the flows it has tasks in).
 */
export async function addWizardParticipant(input: {
  workspaceId: string;
  lockVersion: number;
  participant: { kind: 'group'; groupId: string } | { kind: 'organization'; corporateNumber: string };
}) {
  return unwrap(
    await api.POST('/workspaces/{workspaceId}/participants', {
      params: { path: { workspaceId: input.workspaceId } },
      body: {
        data: {
          type: 'WorkspaceParticipant',
          attributes: { lockVersion: input.lockVersion, ...input.participant, isPublic: false, isEditable: false },
        },
      },
    }),
  ).data;
}

/** GET /business-flows/{businessFlowId}/one-time-invitations (listOneTimeInvitations): the draft's guests. */
export async function listWizardInvitations(businessFlowId: string) {
  return unwrap(
    await api.GET('/business-flows/{businessFlowId}/one-time-invitations', { params: { path: { businessFlowId } } }),
  ).data;
}

/**
 * POST /business-flows/{businessFlowId}/one-time-invitations (inviteOneTimeUser): in a draft the mail waits for
 * 送信. A guest invited before (removed from the recipients and added again) is 409 ONE_TIME_INVITATION_EXISTS:
 * that invitation is used.
 */
export async function inviteWizardGuest(input: {
  businessFlowId: string;
  name: string;
  email: string;
  locale: 'ja' | 'en';
}) {
  try {
    return await invite(input);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'ONE_TIME_INVITATION_EXISTS') throw error;
    const address = input.email.trim().toLowerCase();
    const found = (await listWizardInvitations(input.businessFlowId)).find(
      (i) => i.attributes.email?.toLowerCase() === address && i.attributes.status !== 'cancelled',
    );
    if (!found) throw error;
    return found;
  }
}

/**
 * POST /one-time-invitations/{invitationId}/cancel (cancelOneTimeInvitation) for every invitation of the draft
 * whose guest is no longer a recipient, so 送信 mails no invitation to someone with nothing to do.
 */
export async function cancelUnusedInvitations(businessFlowId: string, guestIds: string[]) {
  const invitations = await listWizardInvitations(businessFlowId);
  for (const invitation of invitations) {
    if (invitation.attributes.status === 'cancelled' || guestIds.includes(invitation.attributes.oneTimeUserId)) {
      continue;
    }
    unwrap(
      await api.POST('/one-time-invitations/{invitationId}/cancel', {
        params: { path: { invitationId: invitation.id } },
        body: { data: { type: 'OneTimeInvitation', attributes: { lockVersion: invitation.attributes.lockVersion } } },
      }),
    );
  }
}

async function invite(input: { businessFlowId: string; name: string; email: string; locale: 'ja' | 'en' }) {
  return unwrap(
    await api.POST('/business-flows/{businessFlowId}/one-time-invitations', {
      params: { path: { businessFlowId: input.businessFlowId } },
      body: {
        data: {
          type: 'OneTimeInvitation',
          attributes: { channel: 'email', name: input.name, email: input.email, locale: input.locale },
        },
      },
    }),
  ).data;
}

/** GET /groups (listGroups): the own organization's groups; only administrators may list them (null otherwise). */
export async function listWizardGroups() {
  const result = await api.GET('/groups', { params: { query: { 'page[size]': 100 } } });
  if (result.response.status === 403) return null;
  return unwrap(result).data.map((g) => ({ id: g.id, name: g.attributes.name }));
}

/** GET /roles (listRoles): the own organization's roles, for group recipients. */
export async function listWizardRoles() {
  return unwrap(await api.GET('/roles', { params: { query: { 'page[size]': 100 } } })).data.map((r) => ({
    id: r.id,
    name: r.attributes.name,
  }));
}

/** GET /signature-types (listSignatureTypes): the types a signer may be given, and whether each takes a code. */
export async function listWizardSignatureTypes() {
  return unwrap(await api.GET('/signature-types')).data.map((type) => ({
    value: type.id,
    allowsTwoFactor: type.attributes.allowsTwoFactor,
  }));
}

/** GET /business-flow-templates and /document-templates: what a draft may start from. */
export async function listWizardTemplates() {
  const [flows, documents] = await Promise.all([
    api.GET('/business-flow-templates', { params: { query: { 'page[size]': 100 } } }),
    api.GET('/document-templates', { params: { query: { 'page[size]': 100 } } }),
  ]);
  // A plan without templates answers 403: the wizard then offers none.
  const items = <T extends { id: string; attributes: { name: string } }>(r: { data?: { data: T[] } }) =>
    (r.data?.data ?? []).map((t) => ({ id: t.id, name: t.attributes.name }));
  return { flows: items(flows), documents: items(documents) };
}
