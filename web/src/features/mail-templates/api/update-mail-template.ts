import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import type { TemplateKey } from './get-mail-template.ts';

export type MailTemplateUpdate = components['schemas']['MailTemplateUpdate']['data']['attributes'];

/** PATCH /mail-templates/{kind}/{locale} (updateMailTemplate): saves the organization's own version. */
export async function updateMailTemplate(input: TemplateKey & { attributes: MailTemplateUpdate }) {
  const { kind, locale, attributes } = input;
  return unwrap(
    await api.PATCH('/mail-templates/{kind}/{locale}', {
      params: { path: { kind, locale } },
      body: { data: { type: 'MailTemplate', attributes } },
    }),
  ).data;
}

export function useUpdateMailTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateMailTemplate,
    onSuccess: (template) => {
      client.setQueryData(['mail-templates', 'one', template.attributes.kind, template.attributes.locale], template);
      void client.invalidateQueries({ queryKey: ['mail-templates', 'list'] });
    },
  });
}
