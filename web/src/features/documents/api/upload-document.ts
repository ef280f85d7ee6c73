import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { ApiError, toApiError } from '../../../api/errors.ts';
import { sessionGuard } from '../../../session/session.ts';

export type DocumentType = components['schemas']['DocumentType'];
export type PropertyValueInput = components['schemas']['PropertyValueInput'];

export interface UploadFields {
  file: File;
  name?: string;
  documentType?: DocumentType;
  systemLinkId?: string;
  documentTemplateId?: string;
  properties?: PropertyValueInput[];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Sends a multipart form with XMLHttpRequest, which (unlike fetch) reports upload progress; the answer is parsed
 * like openapi-fetch's and a refusal becomes the same ApiError.
 */
async function sendMultipart<T>(url: string, form: FormData, onProgress: (ratio: number) => void): Promise<T> {
  const token = await sessionGuard.accessToken();
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader('Accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(new ApiError(0, [], 'NETWORK_ERROR'));
    request.onload = () => {
      const body = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) {
        sessionGuard.touch();
        resolve(body as T);
      } else reject(toApiError(request.status, body));
    };
    request.send(form);
  });
}

function formOf(fields: UploadFields): FormData {
  const form = new FormData();
  if (fields.name) form.append('name', fields.name);
  if (fields.documentType) form.append('documentType', fields.documentType);
  if (fields.systemLinkId) form.append('systemLinkId', fields.systemLinkId);
  if (fields.documentTemplateId) form.append('documentTemplateId', fields.documentTemplateId);
  if (fields.properties && fields.properties.length > 0) form.append('properties', JSON.stringify(fields.properties));
  form.append('file', fields.file, fields.file.name);
  return form;
}

type DocumentResponse = components['schemas']['DocumentResponse'];

/** POST /business-flows/{businessFlowId}/documents (uploadDocument), multipart, with upload progress. */
export function uploadDocument(businessFlowId: string, fields: UploadFields, onProgress: (ratio: number) => void) {
  const url = `/core/v1/business-flows/${encodeURIComponent(businessFlowId)}/documents`;
  return sendMultipart<DocumentResponse>(url, formOf(fields), onProgress);
}

/** POST /documents/{documentId}/versions (reuploadDocument): a new version; the old ones are kept. */
export function reuploadDocument(
  documentId: string,
  file: File,
  lockVersion: number,
  onProgress: (ratio: number) => void,
) {
  const url = `/core/v1/documents/${encodeURIComponent(documentId)}/versions`;
  const form = new FormData();
  form.append('lockVersion', String(lockVersion));
  form.append('file', file, file.name);
  return sendMultipart<DocumentResponse>(url, form, onProgress);
}

/** An upload with its progress (0..1) as state; the document queries are refreshed after it. */
export function useUpload<A extends unknown[]>(
  send: (...args: [...A, (ratio: number) => void]) => Promise<DocumentResponse>,
) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const run = async (...args: A) => {
    setProgress(0);
    try {
      const result = await send(...args, setProgress);
      await queryClient.invalidateQueries({ queryKey: ['documents'] });
      return result.data;
    } finally {
      setProgress(null);
    }
  };
  return { run, progress, pending: progress !== null };
}
