import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { usePlanFeature } from '../../../components/plan-gate.tsx';
import {
  GUEST_SIGNATURE_TYPES,
  GUEST_TWO_FACTORS,
  isParallel,
  moveRecipient,
  type Recipient,
  type TaskType,
  toggleParallel,
  type TwoFactor,
} from '../wizard-state.ts';

const TASK_TYPES: TaskType[] = ['sign', 'approve', 'read'];
const TWO_FACTORS: TwoFactor[] = ['none', 'sms', 'email'];

/** The name a recipient is shown with: group, partner organization, or guest with their address. */
export function useRecipientName() {
  const { t } = useTranslation('sendWizard');
  return (recipient: Recipient) =>
    recipient.assignee.kind === 'one_time_user'
      ? t('recipients.guestLabel', { name: recipient.assignee.name, email: recipient.assignee.email })
      : t(`recipients.kindLabel.${recipient.assignee.kind}`, { name: recipient.assignee.name });
}

/**
 * One recipient: its order (↑ ↓, or "parallel" with the one before), what it does (sign / approve / read), a group's
 * role, a signer's signature type and two-factor code. A one-time user signs only the guest ways.
 */
export function RecipientRow(props: {
  recipient: Recipient;
  index: number;
  recipients: Recipient[];
  roles: { id: string; name: string }[];
  signatureTypes: { value: string; allowsTwoFactor: boolean }[];
  onRecipients: (recipients: Recipient[]) => void;
}) {
  const { t } = useTranslation(['sendWizard', 'common']);
  const id = useId();
  const nameOf = useRecipientName();
  const { recipient, index, recipients } = props;
  const guest = recipient.assignee.kind === 'one_time_user';
  const set = (patch: Partial<Recipient>) =>
    props.onRecipients(recipients.map((r) => (r.key === recipient.key ? { ...r, ...patch } : r)));
  const advanced = usePlanFeature('advancedSignature');
  const longTerm = usePlanFeature('longTermSignature');
  const gateOf = (value: string) =>
    value === 'advanced' ? advanced : value === 'long-term' ? longTerm : { available: true, reason: '' };
  const types = props.signatureTypes.filter((c) => !guest || GUEST_SIGNATURE_TYPES.includes(c.value));
  const allowsCode = props.signatureTypes.find((c) => c.value === recipient.signatureType)?.allowsTwoFactor ?? false;
  const codes = guest ? GUEST_TWO_FACTORS : TWO_FACTORS;
  const name = nameOf(recipient);
  const parallel = isParallel(recipients, index);
  return (
    <li className="wizard-recipient" data-recipient={index}>
      <div className="wizard-recipient-head">
        <span className="wizard-order" aria-label={t('recipients.orderLabel', { order: recipient.order })}>
          {recipient.order}
        </span>
        <strong>{name}</strong>
        {parallel && <span className="badge">{t('recipients.parallelBadge')}</span>}
      </div>
      <div className="wizard-recipient-fields">
        <div className="field">
          <label htmlFor={`${id}-type`}>{t('recipients.type')}</label>
          <select
            id={`${id}-type`}
            value={recipient.type}
            onChange={(event) => set({ type: event.target.value as TaskType })}
          >
            {TASK_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`taskTypes.${type}`)}
              </option>
            ))}
          </select>
        </div>
        {recipient.assignee.kind === 'group' && (
          <div className="field">
            <label htmlFor={`${id}-role`}>{t('recipients.role')}</label>
            <select
              id={`${id}-role`}
              value={recipient.roleId}
              onChange={(event) => set({ roleId: event.target.value })}
            >
              <option value="">{t('recipients.roleNone')}</option>
              {props.roles.map((role) => (
                <option key={role.id} value={role.id}>
                  {role.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {recipient.type === 'sign' && (
          <>
            <div className="field">
              <label htmlFor={`${id}-signature`}>{t('recipients.signatureType')}</label>
              <select
                id={`${id}-signature`}
                value={recipient.signatureType}
                onChange={(event) => {
                  const value = event.target.value;
                  const allows = props.signatureTypes.find((c) => c.value === value)?.allowsTwoFactor;
                  set({ signatureType: value, ...(allows ? {} : { twoFactor: 'none' }) });
                }}
              >
                {types.map((choice) => {
                  const gate = gateOf(choice.value);
                  const label = t(`signatureTypes.${choice.value}`);
                  return (
                    <option key={choice.value} value={choice.value} disabled={!gate.available}>
                      {gate.available ? label : t('common:planGate.option', { label, reason: gate.reason })}
                    </option>
                  );
                })}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-code`}>{t('recipients.twoFactor')}</label>
              <select
                id={`${id}-code`}
                value={allowsCode ? recipient.twoFactor : 'none'}
                disabled={!allowsCode}
                onChange={(event) => set({ twoFactor: event.target.value as TwoFactor })}
              >
                {codes.map((code) => (
                  <option key={code} value={code}>
                    {t(`twoFactors.${code}`)}
                  </option>
                ))}
              </select>
            </div>
          </>
        )}
      </div>
      <div className="wizard-recipient-actions">
        <button
          type="button"
          className="button small"
          disabled={index === 0}
          aria-label={t('recipients.moveUpLabel', { name })}
          onClick={() => props.onRecipients(moveRecipient(recipients, recipient.key, -1))}
        >
          {t('recipients.moveUp')}
        </button>
        <button
          type="button"
          className="button small"
          disabled={recipient.order === Math.max(...recipients.map((r) => r.order))}
          aria-label={t('recipients.moveDownLabel', { name })}
          onClick={() => props.onRecipients(moveRecipient(recipients, recipient.key, 1))}
        >
          {t('recipients.moveDown')}
        </button>
        {index > 0 && (
          <button
            type="button"
            className="button small"
            aria-pressed={parallel}
            aria-label={t('recipients.parallelLabel', { name })}
            onClick={() => props.onRecipients(toggleParallel(recipients, recipient.key))}
          >
            {t('recipients.parallel')}
          </button>
        )}
        <button
          type="button"
          className="button small danger"
          aria-label={t('recipients.removeLabel', { name })}
          onClick={() => props.onRecipients(recipients.filter((r) => r.key !== recipient.key))}
        >
          {t('recipients.remove')}
        </button>
      </div>
    </li>
  );
}
