import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { downloadedFile, saveBlob } from '../../../api/download.ts';
import { ApiError, unwrap } from '../../../api/errors.ts';
import { signerFields } from '../../../components/signing/fields.ts';
import { oneTimeApi } from '../../../session/session.ts';
import type { GuestDocument, GuestFlowView, GuestTask } from '../flow-model.ts';

type FlowData = components['schemas']['OneTimeBusinessFlowResponse']['data'];
type DocumentData = components['schemas']['OneTimeDocument'];

/** The contract's document as the screen reads it (flow-model.ts). */
function documentView(doc: DocumentData): GuestDocument {
  return {
    id: doc.id,
    name: doc.name,
    status: doc.status,
    lockVersion: doc.lockVersion,
    // A signature, a remand or a step changes these: the shown PDF is fetched again then.
    version: `${doc.status}:${doc.lockVersion}:${doc.currentOrder ?? ''}`,
    downloadable: doc.downloadable,
    tasks: doc.tasks.map((task) => ({
      id: task.id,
      type: task.type,
      status: task.status,
      order: task.order,
      signatureType: task.signatureType,
      twoFactor: task.twoFactor,
      requiredPlacement: task.requiredPlacement,
      fields: signerFields(task.fields),
      allowSignerPlacements: task.allowSignerPlacements ?? true,
      lockVersion: task.lockVersion,
      runnable: task.runnable,
    })),
    otherTasks: doc.otherTasks.map((task) => ({
      order: task.order,
      type: task.type,
      status: task.status,
      who: task.assignee.name ?? '',
    })),
  };
}

function flowView(flow: FlowData): GuestFlowView {
  const { attributes } = flow;
  return {
    id: flow.id,
    name: attributes.name,
    status: attributes.status,
    organizationName: attributes.organizationName,
    workspaceName: attributes.workspaceName,
    documents: attributes.documents.map(documentView),
  };
}

/** GET /onetime/business-flows/{businessFlowId} (getOneTimeBusinessFlow): the documents carrying the guest's tasks. */
export async function getOneTimeBusinessFlow(businessFlowId: string) {
  const flow = unwrap(
    await oneTimeApi.GET('/onetime/business-flows/{businessFlowId}', { params: { path: { businessFlowId } } }),
  ).data;
  return flowView(flow);
}

export const guestFlowQueryOptions = (businessFlowId: string) =>
  queryOptions({
    queryKey: ['onetime', 'flow', businessFlowId],
    queryFn: () => getOneTimeBusinessFlow(businessFlowId),
  });

export function useGuestFlow(businessFlowId: string) {
  return useQuery(guestFlowQueryOptions(businessFlowId));
}

/** GET /onetime/documents/{documentId}/file (downloadOneTimeDocument): the latest version, signed once complete. */
export async function downloadOneTimeDocument(documentId: string) {
  const result = await oneTimeApi.GET('/onetime/documents/{documentId}/file', {
    params: { path: { documentId } },
    parseAs: 'blob',
  });
  return downloadedFile(result, 'document.pdf');
}

export async function saveOneTimeDocument(documentId: string) {
  const { blob, fileName } = await downloadOneTimeDocument(documentId);
  saveBlob(blob, fileName);
}

/** GET /onetime/documents/{documentId}/completion-certificate (downloadOneTimeCompletionCertificate), saved. */
export async function saveOneTimeCompletionCertificate(documentId: string) {
  const result = await oneTimeApi.GET('/onetime/documents/{documentId}/completion-certificate', {
    params: { path: { documentId } },
    parseAs: 'blob',
  });
  const { blob, fileName } = await downloadedFile(result, 'certificate.pdf');
  saveBlob(blob, fileName);
}

/** The document's bytes to show; while the scan runs (409 DOCUMENT_BEING_SCANNED) asked again every 3 s. */
export function useGuestDocumentFile(documentId: string, version: string) {
  return useQuery({
    queryKey: ['onetime', 'file', documentId, version],
    queryFn: () => downloadOneTimeDocument(documentId),
    staleTime: Infinity,
    retry: (count, error) => error instanceof ApiError && error.code === 'DOCUMENT_BEING_SCANNED' && count < 200,
    retryDelay: 3000,
  });
}

const execution = (task: GuestTask) => ({
  params: { path: { taskId: task.id } },
  body: { data: { type: 'TaskExecution' as const, attributes: { lockVersion: task.lockVersion } } },
});

/** POST /onetime/tasks/{taskId}/approve (approveOneTimeTask). */
export async function approveOneTimeTask(task: GuestTask) {
  return unwrap(await oneTimeApi.POST('/onetime/tasks/{taskId}/approve', execution(task)));
}

/** POST /onetime/tasks/{taskId}/read (readOneTimeTask). */
export async function readOneTimeTask(task: GuestTask) {
  return unwrap(await oneTimeApi.POST('/onetime/tasks/{taskId}/read', execution(task)));
}

/** POST /onetime/tasks/{taskId}/remand (remandOneTimeDocument): back to an earlier order (1 unless told), with why. */
export async function remandOneTimeDocument(input: { task: GuestTask; reason: string; toOrder?: number }) {
  return unwrap(
    await oneTimeApi.POST('/onetime/tasks/{taskId}/remand', {
      params: { path: { taskId: input.task.id } },
      body: {
        data: {
          type: 'TaskRemand',
          attributes: {
            reason: input.reason,
            lockVersion: input.task.lockVersion,
            ...(input.toOrder ? { toOrder: input.toOrder } : {}),
          },
        },
      },
    }),
  );
}

/** POST /onetime/tasks/{taskId}/signing-code (requestOneTimeSigningCode): a 6-digit code to the proved address. */
export async function requestOneTimeSigningCode(taskId: string) {
  return unwrap(await oneTimeApi.POST('/onetime/tasks/{taskId}/signing-code', { params: { path: { taskId } } })).data
    .attributes;
}

export type GuestSignAttributes = components['schemas']['OneTimeSignTaskRequest']['data']['attributes'];

/** POST /onetime/tasks/{taskId}/sign (signOneTimeTask): signs the latest version; the signed PDF is stored. */
export async function signOneTimeTask({ taskId, attributes }: { taskId: string; attributes: GuestSignAttributes }) {
  return unwrap(
    await oneTimeApi.POST('/onetime/tasks/{taskId}/sign', {
      params: { path: { taskId } },
      body: { data: { type: 'TaskSignature', attributes } },
    }),
  );
}

/** Every step of the guest changes their flow: it is fetched again after each. */
export function useGuestStep<I, O>(step: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: step,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['onetime', 'flow'] }),
  });
}

export function useRequestOneTimeSigningCode() {
  return useMutation({ mutationFn: requestOneTimeSigningCode });
}
