import type { Knex } from 'knex';
import { AppError, type FieldError, type Locale } from '../../http/errors.ts';
import {
  isMailKind,
  MAIL_KIND_DEFINITIONS,
  MAIL_KINDS,
  type MailKind,
  type MailTemplateText,
} from '../../mail/messages.ts';
import { placeholdersIn } from '../../mail/placeholders.ts';

/** A stored customisation (table mail_templates). */
export interface MailTemplateRow extends MailTemplateText {
  id: string;
  organization_id: string;
  kind: MailKind;
  locale: Locale;
  lock_version: number;
  updated_at: Date;
}

/** The template in use for one kind and language: the organization's own, or the built-in one (lockVersion 0). */
export interface EffectiveTemplate extends MailTemplateText {
  kind: MailKind;
  locale: Locale;
  customised: boolean;
  lockVersion: number;
  updatedAt: Date | null;
}

export const LOCALES: readonly Locale[] = ['ja', 'en'];

/** The path's kind, or 404 when the service sends no such mail (the contract's enum already narrows it). */
export function mailKindOf(value: string): MailKind {
  if (!isMailKind(value)) throw new AppError('NOT_FOUND');
  return value;
}

export function builtIn(kind: MailKind, locale: Locale): EffectiveTemplate {
  return {
    ...MAIL_KIND_DEFINITIONS[kind].defaults[locale],
    kind,
    locale,
    customised: false,
    lockVersion: 0,
    updatedAt: null,
  };
}

export function fromRow(row: MailTemplateRow): EffectiveTemplate {
  const { name, summary, subject, body, kind, locale } = row;
  return {
    name,
    summary,
    subject,
    body,
    kind,
    locale,
    customised: true,
    lockVersion: row.lock_version,
    updatedAt: row.updated_at,
  };
}

/** Every kind in every language as the organization's mail uses them, in MailKind order. */
export async function effectiveTemplates(db: Knex, organizationId: string): Promise<EffectiveTemplate[]> {
  const rows = await db('mail_templates').where({ organization_id: organizationId }).select<MailTemplateRow[]>('*');
  return MAIL_KINDS.flatMap((kind) =>
    LOCALES.map((locale) => {
      const row = rows.find((r) => r.kind === kind && r.locale === locale);
      return row ? fromRow(row) : builtIn(kind, locale);
    }),
  );
}

export async function effectiveTemplate(
  db: Knex,
  organizationId: string,
  kind: MailKind,
  locale: Locale,
): Promise<EffectiveTemplate> {
  const row = await db('mail_templates')
    .where({ organization_id: organizationId, kind, locale })
    .first<MailTemplateRow | undefined>();
  return row ? fromRow(row) : builtIn(kind, locale);
}

/** JSON:API resource of a template; its id is `<kind>.<locale>`. */
export function resourceOf(template: EffectiveTemplate) {
  const definition = MAIL_KIND_DEFINITIONS[template.kind];
  return {
    type: 'MailTemplate' as const,
    id: `${template.kind}.${template.locale}`,
    attributes: {
      kind: template.kind,
      locale: template.locale,
      name: template.name,
      summary: template.summary,
      subject: template.subject,
      body: template.body,
      customised: template.customised,
      placeholders: definition.placeholders.map((name) => ({ name, required: definition.required.includes(name) })),
      lockVersion: template.lockVersion,
      updatedAt: template.updatedAt?.toISOString() ?? null,
    },
  };
}

/**
 * Rejects placeholders the kind does not know (in subject or body) and required ones missing from the body, each
 * with its own code and pointer. `base` is the pointer of the attributes object.
 */
export function checkPlaceholders(kind: MailKind, text: { subject: string; body: string }, base: string): void {
  const definition = MAIL_KIND_DEFINITIONS[kind];
  const problems: FieldError[] = [];
  for (const field of ['subject', 'body'] as const) {
    for (const name of placeholdersIn(text[field])) {
      if (!definition.placeholders.includes(name)) {
        problems.push({
          code: 'MAIL_TEMPLATE_PLACEHOLDER_UNKNOWN',
          pointer: `${base}/${field}`,
          params: { placeholder: `{{${name}}}` },
        });
      }
    }
  }
  const used = placeholdersIn(text.body);
  for (const name of definition.required) {
    if (!used.includes(name)) {
      problems.push({
        code: 'MAIL_TEMPLATE_PLACEHOLDER_REQUIRED',
        pointer: `${base}/body`,
        params: { placeholder: `{{${name}}}` },
      });
    }
  }
  if (problems.length > 0) throw AppError.invalid(problems);
}
