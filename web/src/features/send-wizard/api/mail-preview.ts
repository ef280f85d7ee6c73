import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type MailKind = components['schemas']['MailKind'];

/**
 * What a recipient's mail will say: the organization's template for the kind (getMailTemplate) with the values the
 * wizard knows put in, rendered by previewMailTemplate (which fills the rest, such as the link, with samples).
 * Administrators only: anyone else gets 403, and the review says the preview is not available.
 */
export async function previewRecipientMail(input: {
  kind: MailKind;
  locale: 'ja' | 'en';
  values: Record<string, string>;
}) {
  const template = unwrap(
    await api.GET('/mail-templates/{kind}/{locale}', { params: { path: { kind: input.kind, locale: input.locale } } }),
  ).data.attributes;
  const required = new Set(template.placeholders.filter((p) => p.required).map((p) => p.name));
  const fill = (text: string) =>
    text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => {
      const value = input.values[name];
      return value !== undefined && !required.has(name) && !value.includes('{{') ? value : match;
    });
  return unwrap(
    await api.POST('/mail-templates/{kind}/{locale}/preview', {
      params: { path: { kind: input.kind, locale: input.locale } },
      body: {
        data: {
          type: 'MailTemplatePreview',
          attributes: { subject: fill(template.subject), body: fill(template.body) },
        },
      },
    }),
  ).data.attributes;
}
