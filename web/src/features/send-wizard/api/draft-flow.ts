import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { downloadedFile } from '../../../api/download.ts';
import { api } from '../../../session/session.ts';

export type TaskPlanItem = components['schemas']['TaskPlanItem'];
export type WizardTask = components['schemas']['Task'];

/** POST /workspaces/{workspaceId}/business-flows (createBusinessFlow) with `draft: true`: nothing goes live yet. */
export async function createDraftFlow(input: { workspaceId: string; name: string; businessFlowTemplateId?: string }) {
  return unwrap(
    await api.POST('/workspaces/{workspaceId}/business-flows', {
      params: { path: { workspaceId: input.workspaceId } },
      body: {
        data: {
          type: 'BusinessFlow',
          attributes: {
            name: input.name,
            draft: true,
            autoComplete: true,
            ...(input.businessFlowTemplateId ? { businessFlowTemplateId: input.businessFlowTemplateId } : {}),
          },
        },
      },
    }),
  ).data;
}

/** GET /business-flows/{businessFlowId} (getBusinessFlow): the draft with its documents. */
export async function getDraftFlow(businessFlowId: string) {
  return unwrap(await api.GET('/business-flows/{businessFlowId}', { params: { path: { businessFlowId } } })).data;
}

/** PATCH /business-flows/{businessFlowId} (updateBusinessFlow): the title. */
export async function renameDraftFlow(input: { businessFlowId: string; name: string; lockVersion: number }) {
  return unwrap(
    await api.PATCH('/business-flows/{businessFlowId}', {
      params: { path: { businessFlowId: input.businessFlowId } },
      body: { data: { type: 'BusinessFlow', attributes: { name: input.name, lockVersion: input.lockVersion } } },
    }),
  ).data;
}

/** GET /documents/{documentId}/tasks (getDocumentTasks): the plan and the document's lockVersion. */
export async function getDraftTasks(documentId: string) {
  return unwrap(await api.GET('/documents/{documentId}/tasks', { params: { path: { documentId } } }));
}

/** PUT /documents/{documentId}/tasks (replaceDocumentTasks): in a draft the plan is stored, nothing is mailed. */
export async function saveDraftTasks(input: { documentId: string; lockVersion: number; tasks: TaskPlanItem[] }) {
  return unwrap(
    await api.PUT('/documents/{documentId}/tasks', {
      params: { path: { documentId: input.documentId } },
      body: { data: { type: 'DocumentTasks', attributes: { lockVersion: input.lockVersion, tasks: input.tasks } } },
    }),
  );
}

/** GET /documents/{documentId}/file (downloadDocument): the PDF the fields are placed on. */
export async function downloadDraftFile(documentId: string): Promise<Blob> {
  const result = await api.GET('/documents/{documentId}/file', {
    params: { path: { documentId } },
    parseAs: 'blob',
  });
  return (await downloadedFile(result, 'document.pdf')).blob;
}

/** POST /business-flows/{businessFlowId}/send (sendBusinessFlow): the draft goes live and the first mails go out. */
export async function sendDraftFlow(input: { businessFlowId: string; lockVersion: number }) {
  return unwrap(
    await api.POST('/business-flows/{businessFlowId}/send', {
      params: { path: { businessFlowId: input.businessFlowId } },
      body: { data: { type: 'BusinessFlow', attributes: { lockVersion: input.lockVersion } } },
    }),
  ).data;
}

/** DELETE /business-flows/{businessFlowId} (discardBusinessFlowDraft): the draft and everything in it. */
export async function discardDraftFlow(input: { businessFlowId: string; lockVersion: number }) {
  unwrap(
    await api.DELETE('/business-flows/{businessFlowId}', {
      params: { path: { businessFlowId: input.businessFlowId }, query: { lockVersion: input.lockVersion } },
    }),
  );
}
