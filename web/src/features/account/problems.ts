import type { TFunction } from 'i18next';
import { ApiError } from '../../api/errors.ts';

/** The messages of a refusal's field errors by attribute name (`/data/attributes/name` → `name`), in the catalogue. */
export function fieldMessages(error: unknown, t: TFunction): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  if (!(error instanceof ApiError)) return fields;
  for (const entry of error.errors) {
    const pointer = entry.source?.pointer;
    if (!pointer) continue;
    const name = pointer.replace(/^\/data\/attributes\//, '');
    (fields[name] ??= []).push(t(`errors:${entry.code}`, entry.meta?.params ?? {}));
  }
  return fields;
}
