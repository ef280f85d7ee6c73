import type { ApiError } from '../../api/errors.ts';

/**
 * A 422's field errors placed on a document form: `/data/attributes/name` (and other attributes) by name,
 * `/data/attributes/properties/{i}/…` on the property sent at index i (`sentPropertyIds`).
 */
export function fieldErrorsOf(error: ApiError, text: (code: string) => string, sentPropertyIds: string[] = []) {
  const fields: Record<string, string[]> = {};
  const properties: Record<string, string[]> = {};
  for (const item of error.errors) {
    const pointer = item.source?.pointer ?? '';
    const property = /^\/data\/attributes\/properties\/(\d+)/.exec(pointer);
    if (property) {
      const id = sentPropertyIds[Number(property[1])];
      if (id) (properties[id] ??= []).push(text(item.code));
      continue;
    }
    const attribute = /^\/data\/attributes\/(\w+)/.exec(pointer);
    if (attribute) (fields[attribute[1]!] ??= []).push(text(item.code));
  }
  return { ...fields, properties } as Record<string, string[] | undefined> & { properties: Record<string, string[]> };
}
