import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { CheckboxField, FormField } from '../../../components/form-field.tsx';
import type { EndpointInput, WebhookEventType } from '../api/webhook-endpoints.ts';

interface Props {
  title: string;
  submitLabel: string;
  initial: EndpointInput;
  eventTypes: readonly WebhookEventType[];
  pending: boolean;
  error: unknown;
  onSubmit: (input: EndpointInput) => void;
  onCancel: () => void;
}

/** The URL, description and event checkboxes of an endpoint, for adding one or editing it. */
export function EndpointForm({ title, submitLabel, initial, eventTypes, pending, error, onSubmit, onCancel }: Props) {
  const { t } = useTranslation('webhooks');
  const [url, setUrl] = useState(initial.url);
  const [description, setDescription] = useState(initial.description);
  const [events, setEvents] = useState<WebhookEventType[]>(initial.eventTypes);
  const [tried, setTried] = useState(false);
  const urlErrors = tried && !url.trim() ? [t('form.urlRequired')] : [];
  const eventErrors = tried && events.length === 0 ? [t('form.eventsRequired')] : [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!url.trim() || events.length === 0) return;
    onSubmit({ url: url.trim(), description: description.trim(), eventTypes: events });
  };
  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((current) => (on ? [...current, type] : current.filter((t) => t !== type)));

  return (
    <form className="panel webhook-form" aria-labelledby="webhook-form-title" onSubmit={submit} noValidate>
      <h2 id="webhook-form-title">{title}</h2>
      <FormField
        id="webhook-url"
        label={t('form.url')}
        hint={t('form.urlHint')}
        type="url"
        inputMode="url"
        autoComplete="off"
        value={url}
        errors={urlErrors}
        onChange={(event) => setUrl(event.target.value)}
      />
      <FormField
        id="webhook-description"
        label={t('form.description')}
        hint={t('form.descriptionHint')}
        maxLength={200}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <fieldset
        className="webhook-events"
        aria-describedby={eventErrors.length > 0 ? 'webhook-events-error' : undefined}
      >
        <legend>{t('form.events')}</legend>
        {eventTypes.map((type) => (
          <CheckboxField
            key={type}
            id={`webhook-event-${type.replace('.', '-')}`}
            label={t(`events.${type}`)}
            checked={events.includes(type)}
            onChange={(event) => toggle(type, event.target.checked)}
          />
        ))}
        {eventErrors.length > 0 && (
          <p id="webhook-events-error" className="field-error">
            {eventErrors[0]}
          </p>
        )}
      </fieldset>
      <ApiErrorNotice error={error} />
      <div className="org-actions">
        <button type="submit" className="button primary" disabled={pending}>
          {submitLabel}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          {t('form.cancel')}
        </button>
      </div>
    </form>
  );
}
