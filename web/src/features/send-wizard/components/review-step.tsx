import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { getDraftFlow, sendDraftFlow } from '../api/draft-flow.ts';
import { type MailKind, previewRecipientMail } from '../api/mail-preview.ts';
import { cancelUnusedInvitations } from '../api/recipients.ts';
import { useAction } from '../use-action.ts';
import type { Draft } from '../wizard-draft.ts';
import { compactOrders, type Recipient } from '../wizard-state.ts';
import { useRecipientName } from './recipient-row.tsx';
import { WizardFooter } from './wizard-footer.tsx';

/** The mail a recipient gets first: the task mail at their turn; a guest after order 1 is invited at 送信. */
function mailKindOf(recipient: Recipient): MailKind {
  if (recipient.assignee.kind !== 'one_time_user') return 'task-assigned';
  return recipient.order === 1 ? 'one-time-task-assigned' : 'one-time-invitation';
}

function MailPreview(props: { state: { data?: { subject: string; text: string }; error: unknown } }) {
  const { t } = useTranslation('sendWizard');
  const { data, error } = props.state;
  if (error instanceof ApiError && error.status === 403) return <p className="muted">{t('review.previewAdminOnly')}</p>;
  if (error) return <ApiErrorNotice error={error} action={t('actions.previewMail')} />;
  if (!data) return <p className="muted">{t('review.previewLoading')}</p>;
  return (
    <div className="wizard-mail">
      <p>
        <strong>{t('review.subject')}</strong> {data.subject}
      </p>
      <pre className="wizard-mail-body">{data.text}</pre>
      <p className="hint">{t('review.previewHint')}</p>
    </div>
  );
}

/**
 * ④ 確認: the documents, and per recipient what they do, when, with which boxes, and what their mail will say
 * (the organization's mail template rendered by the preview operation). 送信 makes the draft live.
 */
export function ReviewStep(props: { draft: Draft; onBack: () => void; onSent: () => void }) {
  const { t, i18n } = useTranslation(['sendWizard', 'common']);
  const nameOf = useRecipientName();
  const { draft } = props;
  const recipients = compactOrders(draft.recipients);
  const locale = i18n.language === 'en' ? 'en' : 'ja';
  const documentNames = draft.documents.map((d) => d.name).join(locale === 'en' ? ', ' : '、');
  const previews = useQueries({
    queries: recipients.map((recipient) => ({
      queryKey: [
        'mail-templates',
        'wizard-preview',
        draft.flowId,
        recipient.key,
        recipient.type,
        recipient.order,
        locale,
      ],
      queryFn: () =>
        previewRecipientMail({
          kind: mailKindOf(recipient),
          locale,
          values: {
            businessFlowName: draft.name,
            documentName: documentNames,
            workspaceName: draft.workspaceName,
            taskType: t(`taskTypes.${recipient.type}`),
            ...(recipient.assignee.kind === 'one_time_user' ? { userName: recipient.assignee.name } : {}),
          },
        }),
      retry: false,
      staleTime: 60_000,
    })),
  });
  const send = useAction();
  const fieldCount = (key: string) =>
    draft.documents.reduce((sum, d) => sum + (draft.fields[d.id]?.[key]?.length ?? 0), 0);

  const onSend = () =>
    void send.run(async () => {
      const guests = recipients.flatMap((r) => (r.assignee.kind === 'one_time_user' ? [r.assignee.id] : []));
      await cancelUnusedInvitations(draft.flowId, guests);
      const flow = await getDraftFlow(draft.flowId);
      await sendDraftFlow({ businessFlowId: draft.flowId, lockVersion: flow.attributes.lockVersion });
      props.onSent();
    });

  return (
    <div className="wizard-step-body">
      <h2>{t('review.heading')}</h2>
      <dl className="wizard-summary">
        <dt>{t('review.flowName')}</dt>
        <dd>{draft.name}</dd>
        <dt>{t('review.workspace')}</dt>
        <dd>{draft.workspaceName}</dd>
        <dt>{t('review.documents')}</dt>
        <dd>
          <ul className="plain-list">
            {draft.documents.map((d) => (
              <li key={d.id}>{d.name}</li>
            ))}
          </ul>
        </dd>
      </dl>
      <h3>{t('review.recipients')}</h3>
      <ol className="wizard-review-list">
        {recipients.map((recipient, index) => (
          <li key={recipient.key} className="wizard-review-item">
            <p className="wizard-review-who">
              <span className="wizard-order">{recipient.order}</span>
              <strong>{nameOf(recipient)}</strong>
            </p>
            <p>
              {t(`taskTypes.${recipient.type}`)}
              {recipient.type === 'sign' &&
                t('review.signDetail', {
                  signatureType: t(`signatureTypes.${recipient.signatureType}`),
                  twoFactor: t(`twoFactors.${recipient.twoFactor}`),
                  count: fieldCount(recipient.key),
                })}
            </p>
            <p className="muted">
              {recipient.order === 1
                ? t('review.whenFirst')
                : t(recipient.assignee.kind === 'one_time_user' ? 'review.whenLaterGuest' : 'review.whenLater', {
                    order: recipient.order,
                  })}
            </p>
            <details className="wizard-mail-preview">
              <summary>{t('review.mailPreview')}</summary>
              <MailPreview state={{ data: previews[index]?.data, error: previews[index]?.error }} />
            </details>
          </li>
        ))}
      </ol>
      <p className="notice">{t('review.notice')}</p>
      <WizardFooter
        draft={draft}
        nextLabel={t('send')}
        pending={send.pending}
        error={send.error}
        action={t('actions.send')}
        nextDisabled={recipients.length === 0 || draft.documents.length === 0}
        onBack={props.onBack}
        onNext={onSend}
      />
    </div>
  );
}
