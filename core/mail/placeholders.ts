/** Anything between double braces is a placeholder; its name is the trimmed text inside. */
const PLACEHOLDER = /\{\{(.*?)\}\}/g;

/** The placeholder names a text uses, in order of first appearance. */
export function placeholdersIn(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1]!.trim();
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Replaces each `{{name}}` with its value, inserted as it is: no template logic, no escaping, and a value that
 * itself contains braces is never expanded again. A placeholder without a value becomes empty.
 */
export function renderPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (_, name: string) => values[name.trim()] ?? '');
}
