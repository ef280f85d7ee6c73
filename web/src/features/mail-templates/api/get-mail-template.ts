import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type MailKind = components['schemas']['MailKind'];
export type MailLocale = components['schemas']['Locale'];
export interface TemplateKey {
  kind: MailKind;
  locale: MailLocale;
}

/** GET /mail-templates/{kind}/{locale} (getMailTemplate): the template in use, with its placeholders. */
export async function getMailTemplate(key: TemplateKey) {
  return unwrap(await api.GET('/mail-templates/{kind}/{locale}', { params: { path: key } })).data;
}

export const mailTemplateQueryOptions = (key: TemplateKey) =>
  queryOptions({ queryKey: ['mail-templates', 'one', key.kind, key.locale], queryFn: () => getMailTemplate(key) });

export function useMailTemplate(key: TemplateKey) {
  return useQuery(mailTemplateQueryOptions(key));
}
