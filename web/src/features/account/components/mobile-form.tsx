import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { FormActions } from '../../../components/form-actions.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { useUpdateMe } from '../api/update-me.ts';
import { fieldMessages } from '../problems.ts';
import { mobileDigits } from '../validation.ts';

type CurrentUser = components['schemas']['CurrentUserResponse']['data'];

/** The mobile number SMS verification codes go to; saved empty, it is removed. */
export function MobileForm({ user, onReload }: { user: CurrentUser; onReload: () => void }) {
  const { t } = useTranslation(['account', 'errors']);
  const update = useUpdateMe();
  const [number, setNumber] = useState(user.attributes.mobilePhone ?? '');
  const [problems, setProblems] = useState<string[]>([]);
  const [failure, setFailure] = useState<unknown>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const trimmed = number.trim();
    if (trimmed !== '' && !mobileDigits(trimmed)) {
      setProblems([t('mobile.invalid')]);
      document.getElementById('account-mobile')?.focus();
      return;
    }
    setProblems([]);
    update.mutate(
      { lockVersion: user.attributes.lockVersion, mobilePhone: trimmed === '' ? null : trimmed },
      {
        onSuccess: (changed) => {
          setNumber(changed.attributes.mobilePhone ?? '');
          toast.success(t(changed.attributes.mobilePhone ? 'mobile.saved' : 'mobile.removed'));
        },
        onError: (error) => {
          const placed = fieldMessages(error, t).mobilePhone ?? [];
          setProblems(placed);
          if (placed.length === 0) setFailure(error);
        },
      },
    );
  };

  return (
    <form className="panel admin-form" noValidate onSubmit={submit} aria-labelledby="account-mobile-title">
      <h2 id="account-mobile-title">{t('mobile.title')}</h2>
      <p>{t('mobile.intro')}</p>
      <ApiErrorNotice error={failure} onReload={onReload} action={t('failedActions.save')} />
      <FormField
        id="account-mobile"
        type="tel"
        inputMode="tel"
        label={t('mobile.label')}
        hint={t('mobile.hint')}
        autoComplete="tel-national"
        maxLength={20}
        placeholder="09012345678"
        value={number}
        errors={problems}
        onChange={(event) => {
          setNumber(event.target.value);
          setProblems([]);
        }}
      />
      <FormActions pending={update.isPending} submitLabel={t('save')} sendingLabel={t('saving')} />
    </form>
  );
}
