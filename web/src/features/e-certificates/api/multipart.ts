/** A multipart form of the given parts (a File keeps its file name); openapi-fetch sends FormData as it is. */
export function multipartForm(parts: Record<string, string | File | undefined>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (value === undefined) continue;
    if (value instanceof File) form.append(name, value, value.name);
    else form.append(name, value);
  }
  return form;
}
