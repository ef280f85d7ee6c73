import { useMutation } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import type { TemplateKey } from './get-mail-template.ts';

export type MailPreview = components['schemas']['MailPreviewResponse']['data']['attributes'];

/** POST /mail-templates/{kind}/{locale}/preview (previewMailTemplate): the draft rendered with sample values. */
export async function previewMailTemplate(input: TemplateKey & { subject: string; body: string }) {
  const { kind, locale, subject, body } = input;
  return unwrap(
    await api.POST('/mail-templates/{kind}/{locale}/preview', {
      params: { path: { kind, locale } },
      body: { data: { type: 'MailTemplatePreview', attributes: { subject, body } } },
    }),
  ).data.attributes;
}

export function usePreviewMailTemplate() {
  return useMutation({ mutationFn: previewMailTemplate });
}
