import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { FormActions } from '../../../components/form-actions.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { changeLanguage, LANGUAGES, type Language } from '../../../i18n/index.ts';
import { useUpdateMe } from '../api/update-me.ts';
import { fieldMessages } from '../problems.ts';

type CurrentUser = components['schemas']['CurrentUserResponse']['data'];

/** Name and language (the language also switches this browser's screens). */
export function ProfileForm({ user, onReload }: { user: CurrentUser; onReload: () => void }) {
  const { t, i18n } = useTranslation(['account', 'common', 'errors']);
  const update = useUpdateMe();
  const [name, setName] = useState(user.attributes.name);
  const [locale, setLocale] = useState<Language>(user.attributes.locale);
  const [problems, setProblems] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<unknown>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (name.trim() === '') {
      setProblems({ name: [t('password.required')] });
      document.getElementById('account-name')?.focus();
      return;
    }
    setProblems({});
    update.mutate(
      { lockVersion: user.attributes.lockVersion, name, locale },
      {
        onSuccess: (changed) => {
          toast.success(t('saved'));
          setName(changed.attributes.name);
          // The screens follow the account's language (stored per browser; the page reloads).
          if (changed.attributes.locale !== i18n.language) changeLanguage(changed.attributes.locale);
        },
        onError: (error) => {
          const placed = fieldMessages(error, t);
          setProblems(placed);
          if (Object.keys(placed).length === 0) setFailure(error);
        },
      },
    );
  };

  return (
    <form className="panel admin-form" noValidate onSubmit={submit} aria-labelledby="account-profile-title">
      <h2 id="account-profile-title">{t('profile.title')}</h2>
      <ApiErrorNotice error={failure} onReload={onReload} action={t('failedActions.save')} />
      <dl className="account-facts">
        <div>
          <dt>{t('profile.loginId')}</dt>
          <dd>{user.attributes.loginId}</dd>
        </div>
        <div>
          <dt>{t('profile.email')}</dt>
          <dd>
            {user.attributes.email}
            <span className="hint">{t('profile.emailHint')}</span>
          </dd>
        </div>
      </dl>
      <FormField
        id="account-name"
        label={t('profile.name')}
        autoComplete="name"
        maxLength={100}
        required
        value={name}
        errors={problems.name ?? []}
        onChange={(event) => {
          setName(event.target.value);
          setProblems(({ name: _dropped, ...rest }) => rest);
        }}
      />
      <SelectField
        id="account-locale"
        label={t('profile.locale')}
        hint={t('profile.localeHint')}
        value={locale}
        options={LANGUAGES.map((language) => ({ value: language, label: t(`common:language.${language}`) }))}
        onChange={(event) => setLocale(event.target.value as Language)}
      />
      <FormActions pending={update.isPending} submitLabel={t('save')} sendingLabel={t('saving')} />
    </form>
  );
}
