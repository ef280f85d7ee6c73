import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import type { useMailTemplate } from '../api/get-mail-template.ts';
import { usePreviewMailTemplate } from '../api/preview-mail-template.ts';
import { useResetMailTemplate } from '../api/reset-mail-template.ts';
import { useUpdateMailTemplate } from '../api/update-mail-template.ts';
import { checkTemplate, hasTemplateProblems } from './template-check.ts';
import { PlaceholderList } from './placeholder-list.tsx';

type Template = NonNullable<ReturnType<typeof useMailTemplate>['data']>;

/** Edits one template: fields, placeholder checks before sending, preview, save and reset to the built-in text. */
export function TemplateForm(props: { template: Template; onReload: () => void }) {
  const { t } = useTranslation(['mailTemplates', 'errors']);
  const { kind, locale, placeholders, lockVersion, customised } = props.template.attributes;
  const [draft, setDraft] = useState(() => {
    const { name, summary, subject, body } = props.template.attributes;
    return { name, summary, subject, body };
  });
  const [checked, setChecked] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const save = useUpdateMailTemplate();
  const preview = usePreviewMailTemplate();
  const reset = useResetMailTemplate();
  const problems = checkTemplate(placeholders, draft);
  const showProblems = checked && hasTemplateProblems(problems);
  // A 422 of a save or preview: its field errors go next to the fields, anything else to the notice.
  const invalid = [save.error, preview.error].find((e): e is ApiError => e instanceof ApiError && e.status === 422);
  const fieldErrors = invalid?.fieldErrors() ?? {};
  const serverErrors = (field: string) => (fieldErrors[field] ?? []).map((code) => t(`errors:${code}`));
  const names = (list: string[]) => list.map((name) => `{{${name}}}`).join(', ');
  const subjectErrors = [
    ...(showProblems && problems.unknown.subject.length
      ? [t('edit.unknown', { names: names(problems.unknown.subject) })]
      : []),
    ...serverErrors('subject'),
  ];
  const bodyErrors = [
    ...(showProblems && problems.unknown.body.length
      ? [t('edit.unknown', { names: names(problems.unknown.body) })]
      : []),
    ...(showProblems && problems.missing.length ? [t('edit.missing', { names: names(problems.missing) })] : []),
    ...serverErrors('body'),
  ];
  const set = (field: keyof typeof draft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));

  const insert = (name: string) => {
    const area = bodyRef.current;
    const token = `{{${name}}}`;
    const at = area?.selectionStart ?? draft.body.length;
    const end = area?.selectionEnd ?? at;
    set('body')(draft.body.slice(0, at) + token + draft.body.slice(end));
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(at + token.length, at + token.length);
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (hasTemplateProblems(problems)) return;
    save.mutate(
      { kind, locale, attributes: { ...draft, lockVersion } },
      { onSuccess: () => toast.success(t('edit.saved')) },
    );
  };

  const showPreview = () => {
    setChecked(true);
    if (!hasTemplateProblems(problems)) preview.mutate({ kind, locale, subject: draft.subject, body: draft.body });
  };

  const resetToDefault = () =>
    reset.mutate(
      { kind, locale, lockVersion },
      {
        // The page re-keys the form with the built-in template, so the fields show it.
        onSuccess: () => toast.success(t('edit.resetDone')),
        onError: () => setConfirmReset(false),
      },
    );

  const placed = (error: unknown) =>
    error instanceof ApiError &&
    error.status === 422 &&
    Object.keys(error.fieldErrors()).every((field) => ['name', 'summary', 'subject', 'body'].includes(field));
  const requestError = [save.error, reset.error, preview.error].find((error) => error && !placed(error));

  return (
    <div className="template-editor">
      <form className="template-form" onSubmit={submit} noValidate>
        <p className="muted">{customised ? t('edit.customised') : t('edit.builtIn')}</p>
        <ApiErrorNotice error={requestError ?? null} onReload={props.onReload} />
        <FormField
          id="template-name"
          label={t('edit.fields.name')}
          value={draft.name}
          required
          maxLength={100}
          errors={serverErrors('name')}
          onChange={(e) => set('name')(e.target.value)}
        />
        <FormField
          id="template-summary"
          label={t('edit.fields.summary')}
          value={draft.summary}
          maxLength={500}
          errors={serverErrors('summary')}
          onChange={(e) => set('summary')(e.target.value)}
        />
        <FormField
          id="template-subject"
          label={t('edit.fields.subject')}
          hint={t('edit.hints.subject')}
          value={draft.subject}
          required
          maxLength={200}
          errors={subjectErrors}
          onChange={(e) => set('subject')(e.target.value.replace(/[\r\n]+/g, ' '))}
        />
        <div className="field">
          <label htmlFor="template-body">{t('edit.fields.body')}</label>
          <p id="template-body-hint" className="hint">
            {t('edit.hints.body')}
          </p>
          <textarea
            id="template-body"
            ref={bodyRef}
            rows={14}
            value={draft.body}
            required
            maxLength={10_000}
            aria-invalid={bodyErrors.length > 0 ? true : undefined}
            aria-describedby={bodyErrors.length > 0 ? 'template-body-hint template-body-error' : 'template-body-hint'}
            onChange={(e) => set('body')(e.target.value)}
          />
          {bodyErrors.length > 0 && (
            <div id="template-body-error" className="field-error">
              {bodyErrors.map((error) => (
                <p key={error}>{error}</p>
              ))}
            </div>
          )}
        </div>
        <div className="template-actions">
          <button type="submit" className="button primary" disabled={save.isPending}>
            {save.isPending ? t('edit.saving') : t('edit.save')}
          </button>
          <button type="button" className="button" onClick={showPreview} disabled={preview.isPending}>
            {t('edit.preview')}
          </button>
          {customised && (
            <button type="button" className="button danger" onClick={() => setConfirmReset(true)}>
              {t('edit.reset')}
            </button>
          )}
        </div>
      </form>
      <PlaceholderList placeholders={placeholders} onInsert={insert} />
      {preview.data && (
        <section aria-labelledby="template-preview-title" className="template-preview" aria-live="polite">
          <h2 id="template-preview-title">{t('edit.previewTitle')}</h2>
          <h3>{t('edit.previewSubject')}</h3>
          <p className="template-preview-subject">{preview.data.subject}</p>
          <h3>{t('edit.previewBody')}</h3>
          <pre className="template-preview-body">{preview.data.text}</pre>
        </section>
      )}
      <ConfirmDialog
        open={confirmReset}
        title={t('edit.resetTitle')}
        confirmLabel={t('edit.reset')}
        danger
        pending={reset.isPending}
        onConfirm={resetToDefault}
        onCancel={() => setConfirmReset(false)}
      >
        <p>{t('edit.resetBody')}</p>
      </ConfirmDialog>
    </div>
  );
}
