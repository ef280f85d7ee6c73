/*
 * Reads and checks the multipart form of an upload (uploadDocument, reuploadDocument): the file must be there,
 * its name and the document name at most 100 characters, the text fields well-formed. Pointers name the form
 * field (`/file`, `/name`, `/properties/0/value` ...).
 */
import { FILE_NAME_MAX_LENGTH, type UploadLimit } from '../../files/upload-limits.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { invalidCharacterPointers } from '../../http/invalid-characters.ts';
import { MultipartRequest, type UploadedFile } from '../../http/multipart-body.ts';
import type { PropertyValueInput } from '../properties/values.ts';
import { DOCUMENT_TYPES, type DocumentType } from './model.ts';

export interface DocumentUploadInput {
  file: UploadedFile;
  name: string;
  documentType: DocumentType | null;
  systemLinkId: string | null;
  documentTemplateId: string | null;
  properties: PropertyValueInput[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads the form within the place's limit and returns the file, or FILE_REQUIRED / FILE_NAME_TOO_LONG; a body that
 * is not multipart/form-data (null from the router) is 415 UNSUPPORTED_MEDIA_TYPE.
 */
export async function readUploadedFile(
  body: MultipartRequest | null,
  limit: UploadLimit,
): Promise<{ file: UploadedFile; fields: Record<string, string> }> {
  if (!(body instanceof MultipartRequest)) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  const { file, fields } = await body.read(limit);
  if (!file || !file.fileName) throw new AppError('FILE_REQUIRED', { pointer: '/file' });
  if ([...file.fileName].length > FILE_NAME_MAX_LENGTH) {
    throw new AppError('FILE_NAME_TOO_LONG', { pointer: '/file', params: { max: FILE_NAME_MAX_LENGTH } });
  }
  return { file, fields };
}

/** The document name a file gives when none is typed: its name without `.pdf`. */
export function defaultDocumentName(fileName: string): string {
  return fileName.replace(/\.pdf$/i, '') || fileName;
}

/** Checks the text fields of uploadDocument; all problems in one 422. */
export function uploadInputOf(file: UploadedFile, fields: Record<string, string>): DocumentUploadInput {
  const problems: FieldError[] = [];
  const name = (fields.name ?? '').trim() || defaultDocumentName(file.fileName);
  if ([...name].length > FILE_NAME_MAX_LENGTH) {
    problems.push({ code: 'FILE_NAME_TOO_LONG', pointer: '/name', params: { max: FILE_NAME_MAX_LENGTH } });
  }
  const documentType = fields.documentType?.trim() || null;
  if (documentType && !(DOCUMENT_TYPES as readonly string[]).includes(documentType)) {
    problems.push({
      code: 'VALIDATION_FAILED',
      pointer: '/documentType',
      detail: `one of ${DOCUMENT_TYPES.join(', ')}`,
    });
  }
  const systemLinkId = fields.systemLinkId?.trim() || null;
  if (systemLinkId && systemLinkId.length > 100) {
    problems.push({ code: 'VALIDATION_FAILED', pointer: '/systemLinkId', detail: 'at most 100 characters' });
  }
  const documentTemplateId = fields.documentTemplateId?.trim() || null;
  if (documentTemplateId && !UUID.test(documentTemplateId)) {
    problems.push({ code: 'VALIDATION_FAILED', pointer: '/documentTemplateId', detail: 'must be a uuid' });
  }
  const properties = propertiesOf(fields.properties, problems);
  if (problems.length > 0) throw AppError.invalid(problems);
  return {
    file,
    name,
    documentType: documentType as DocumentType | null,
    systemLinkId,
    documentTemplateId,
    properties,
  };
}

/** The `properties` field: JSON text of [{ propertyId, value, lockVersion?, optionsVersion? }]. */
function propertiesOf(text: string | undefined, problems: FieldError[]): PropertyValueInput[] {
  if (!text?.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    problems.push({ code: 'VALIDATION_FAILED', pointer: '/properties', detail: 'must be JSON' });
    return [];
  }
  if (!Array.isArray(parsed)) {
    problems.push({ code: 'VALIDATION_FAILED', pointer: '/properties', detail: 'must be a JSON array' });
    return [];
  }
  // The form field is JSON text of its own: "\u0000" and "\ud800" decode here, after the multipart reader's check.
  const invalid = invalidCharacterPointers(parsed);
  if (invalid.length > 0) {
    problems.push(
      ...invalid.map((pointer): FieldError => ({ code: 'INVALID_CHARACTERS', pointer: `/properties${pointer}` })),
    );
    return [];
  }
  const values: PropertyValueInput[] = [];
  parsed.forEach((entry: unknown, index) => {
    const item = entry as Record<string, unknown> | null;
    const value = item?.value;
    const okValue = value === null || typeof value === 'string' || typeof value === 'number';
    if (!item || typeof item.propertyId !== 'string' || !UUID.test(item.propertyId) || !okValue) {
      problems.push({ code: 'VALIDATION_FAILED', pointer: `/properties/${index}`, detail: 'propertyId and value' });
      return;
    }
    values.push({
      propertyId: item.propertyId,
      value: value as string | number | null,
      lockVersion: typeof item.lockVersion === 'number' ? item.lockVersion : undefined,
      optionsVersion: typeof item.optionsVersion === 'number' ? item.optionsVersion : undefined,
    });
  });
  return values;
}
