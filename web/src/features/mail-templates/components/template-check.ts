/** Anything between double braces is a placeholder, as the server reads it (core/mail/placeholders.ts). */
const PLACEHOLDER = /\{\{(.*?)\}\}/g;

export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!.trim()))];
}

export interface TemplateProblems {
  /** Placeholders the kind does not know, per field. */
  unknown: { subject: string[]; body: string[] };
  /** Required placeholders the body lacks. */
  missing: string[];
}

/** The same checks the server makes on save, so the form can name the placeholders before sending. */
export function checkTemplate(
  placeholders: readonly { name: string; required: boolean }[],
  text: { subject: string; body: string },
): TemplateProblems {
  const known = new Set(placeholders.map((p) => p.name));
  const used = placeholdersIn(text.body);
  return {
    unknown: {
      subject: placeholdersIn(text.subject).filter((name) => !known.has(name)),
      body: used.filter((name) => !known.has(name)),
    },
    missing: placeholders.filter((p) => p.required && !used.includes(p.name)).map((p) => p.name),
  };
}

export function hasTemplateProblems(problems: TemplateProblems): boolean {
  return problems.unknown.subject.length + problems.unknown.body.length + problems.missing.length > 0;
}
