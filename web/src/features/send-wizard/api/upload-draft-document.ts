import type { components } from '../../../../../core/contract/api.gen.ts';
import { ApiError, toApiError } from '../../../api/errors.ts';
import { sessionGuard } from '../../../session/session.ts';

type DocumentResponse = components['schemas']['DocumentResponse'];

/**
 * POST /business-flows/{businessFlowId}/documents (uploadDocument), multipart: a PDF into the draft (it stays a
 * draft document until the flow is sent), optionally taking its tasks from a document template.
 */
export async function uploadDraftDocument(input: { businessFlowId: string; file: File; documentTemplateId?: string }) {
  const form = new FormData();
  if (input.documentTemplateId) form.append('documentTemplateId', input.documentTemplateId);
  form.append('file', input.file, input.file.name);
  const url = `/core/v1/business-flows/${encodeURIComponent(input.businessFlowId)}/documents`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await sessionGuard.accessToken()}`, Accept: 'application/json' },
      body: form,
    });
  } catch {
    throw new ApiError(0, [], 'NETWORK_ERROR');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw toApiError(response.status, body);
  sessionGuard.touch();
  return (body as DocumentResponse).data;
}
