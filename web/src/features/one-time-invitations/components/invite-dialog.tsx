import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { useInviteOneTimeUser } from '../api/invite-one-time-user.ts';
import type { OneTimeInvitation } from '../api/list-one-time-invitations.ts';
import {
  blankInvite,
  type Channel,
  EMAIL_MAX,
  type GuestLocale,
  type InviteField,
  type InviteInput,
  inviteAttributes,
  NAME_MAX,
  validateInvite,
} from '../invitation-form.ts';

type FieldTexts = Partial<Record<InviteField, string[]>>;

/** The server's field refusals (pointer /data/attributes/name|email) as texts of errors.json, by field. */
function serverFieldTexts(error: unknown, text: (code: string) => string): FieldTexts {
  if (!(error instanceof ApiError)) return {};
  const fields: FieldTexts = {};
  for (const [field, codes] of Object.entries(error.fieldErrors())) {
    if (field === 'name' || field === 'email') fields[field] = codes.map(text);
  }
  return fields;
}

/**
 * The invite dialog: by e-mail (name, address and language; the mail goes out at once) or by QR code (name
 * optional; the QR screen opens next). Problems are shown next to their fields; other refusals above the form.
 */
export function InviteDialog(props: {
  open: boolean;
  businessFlowId: string;
  onClose: () => void;
  onInvited: (invitation: OneTimeInvitation, channel: Channel) => void;
}) {
  const { t, i18n } = useTranslation(['oneTimeInvitations', 'errors', 'common']);
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const invite = useInviteOneTimeUser();
  const [input, setInput] = useState<InviteInput>(() => blankInvite(i18n.language));
  const [problems, setProblems] = useState<FieldTexts>({});
  const [failure, setFailure] = useState<unknown>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      setInput(blankInvite(i18n.language));
      setProblems({});
      setFailure(null);
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    if (!props.open && dialog.open) dialog.close();
  }, [props.open, i18n.language]);

  const fieldId = (field: InviteField) => `${id}-${field}`;
  const set = (patch: Partial<InviteInput>) => {
    setInput((previous) => ({ ...previous, ...patch }));
    setProblems((previous) => {
      const next = { ...previous };
      for (const key of Object.keys(patch)) delete next[key as InviteField];
      return next;
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = validateInvite(input);
    const texts: FieldTexts = {};
    for (const [field, reasons] of Object.entries(found)) {
      texts[field as InviteField] = reasons.map((reason) =>
        t(`invite.${reason}`, { max: field === 'name' ? NAME_MAX : EMAIL_MAX }),
      );
    }
    setProblems(texts);
    const first = (['name', 'email'] as const).find((field) => texts[field]);
    if (first) {
      document.getElementById(fieldId(first))?.focus();
      return;
    }
    try {
      const invitation = await invite.mutateAsync({
        businessFlowId: props.businessFlowId,
        attributes: inviteAttributes(input),
      });
      if (input.channel === 'email') toast.success(t('invite.invitedEmail', { who: input.name.trim() }));
      else toast.success(t('invite.invitedQr'));
      props.onInvited(invitation, input.channel);
    } catch (error) {
      const placed = serverFieldTexts(error, (code) => t(`errors:${code}`));
      setProblems(placed);
      if (Object.keys(placed).length === 0) setFailure(error);
    }
  };

  const channelOption = (channel: Channel, label: string, hint: string) => (
    <div className="invite-channel">
      <input
        id={`${id}-channel-${channel}`}
        type="radio"
        name={`${id}-channel`}
        value={channel}
        checked={input.channel === channel}
        aria-describedby={`${id}-channel-${channel}-hint`}
        onChange={() => set({ channel })}
      />
      <label htmlFor={`${id}-channel-${channel}`}>{label}</label>
      <p id={`${id}-channel-${channel}-hint`} className="hint">
        {hint}
      </p>
    </div>
  );

  return (
    <dialog
      ref={ref}
      className="confirm-dialog invite-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      <h2 id={`${id}-title`}>{t('invite.title')}</h2>
      <form noValidate onSubmit={(event) => void submit(event)} className="invite-form">
        <ApiErrorNotice error={failure} />
        <fieldset className="invite-channels">
          <legend>{t('invite.channel')}</legend>
          {channelOption('email', t('invite.byEmail'), t('invite.byEmailHint'))}
          {channelOption('qr', t('invite.byQr'), t('invite.byQrHint'))}
        </fieldset>
        <FormField
          id={fieldId('name')}
          label={input.channel === 'email' ? t('invite.name') : t('invite.nameOptional')}
          autoComplete="off"
          maxLength={NAME_MAX + 50}
          required={input.channel === 'email'}
          value={input.name}
          errors={problems.name ?? []}
          onChange={(event) => set({ name: event.target.value })}
        />
        {input.channel === 'email' && (
          <FormField
            id={fieldId('email')}
            label={t('invite.email')}
            type="email"
            autoComplete="off"
            inputMode="email"
            required
            value={input.email}
            errors={problems.email ?? []}
            onChange={(event) => set({ email: event.target.value })}
          />
        )}
        <SelectField
          id={`${id}-locale`}
          label={t('invite.locale')}
          value={input.locale}
          onChange={(event) => set({ locale: event.target.value as GuestLocale })}
          options={[
            { value: 'ja', label: t('common:language.ja') },
            { value: 'en', label: t('common:language.en') },
          ]}
        />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={props.onClose}>
            {t('invite.close')}
          </button>
          <button type="submit" className="button primary" disabled={invite.isPending}>
            {invite.isPending
              ? t('invite.sending')
              : input.channel === 'email'
                ? t('invite.submitEmail')
                : t('invite.submitQr')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
