import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import type { TemplateKey } from './get-mail-template.ts';

/** DELETE /mail-templates/{kind}/{locale} (resetMailTemplate): back to the built-in template. */
export async function resetMailTemplate(input: TemplateKey & { lockVersion: number }) {
  const { kind, locale, lockVersion } = input;
  return unwrap(
    await api.DELETE('/mail-templates/{kind}/{locale}', { params: { path: { kind, locale }, query: { lockVersion } } }),
  ).data;
}

export function useResetMailTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resetMailTemplate,
    onSuccess: (template) => {
      client.setQueryData(['mail-templates', 'one', template.attributes.kind, template.attributes.locale], template);
      void client.invalidateQueries({ queryKey: ['mail-templates', 'list'] });
    },
  });
}
