import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { type MailKind, type MailLocale, useMailTemplate } from '../api/get-mail-template.ts';
import { TemplateForm } from '../components/template-form.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('mailTemplates', { ja, en });

const route = getRouteApi('/guarded/organizations/settings/mail-templates/$kind/$locale');

/** One mail template (kind and language): edit, preview, reset to the built-in text. */
export function MailTemplatePage() {
  const { t } = useTranslation(['mailTemplates', 'common']);
  const params = route.useParams();
  const key = { kind: params.kind as MailKind, locale: params.locale as MailLocale };
  const template = useMailTemplate(key);
  const attributes = template.data?.attributes;
  const heading = attributes
    ? t('edit.heading', { name: attributes.name, locale: t(`locales.${attributes.locale}`) })
    : t('title');

  useEffect(() => {
    document.title = `${heading} | ${t('common:appName')}`;
  }, [heading, t]);

  if (template.error instanceof ApiError && template.error.code === 'IP_RESTRICTED') throw template.error;
  return (
    <section aria-labelledby="mail-template-title" className="admin-screen mail-template">
      <Link to="/organizations/settings/mail-templates" className="back-link">
        {t('edit.back')}
      </Link>
      <h1 id="mail-template-title">{heading}</h1>
      {attributes && <p className="muted">{attributes.summary}</p>}
      {template.isPending && (
        <p role="status" className="muted">
          {t('edit.loading')}
        </p>
      )}
      <ApiErrorNotice error={template.error} />
      {template.data && (
        <TemplateForm
          // A new key after a save, reset or reload puts the server's values back in the form.
          key={`${template.data.attributes.lockVersion}-${template.data.attributes.updatedAt ?? 'default'}`}
          template={template.data}
          onReload={() => void template.refetch()}
        />
      )}
    </section>
  );
}
