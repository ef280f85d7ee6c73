import { useTranslation } from 'react-i18next';

/** The kind's placeholders with what each holds; a button inserts one into the body at the cursor. */
export function PlaceholderList(props: {
  placeholders: readonly { name: string; required: boolean }[];
  onInsert: (name: string) => void;
}) {
  const { t } = useTranslation('mailTemplates');
  return (
    <section aria-labelledby="placeholders-title" className="template-placeholders">
      <h2 id="placeholders-title">{t('edit.placeholdersTitle')}</h2>
      <p className="hint">{t('edit.placeholdersIntro')}</p>
      <dl>
        {props.placeholders.map(({ name, required }) => (
          <div key={name} className="template-placeholder">
            <dt>
              <button
                type="button"
                className="button placeholder-insert"
                aria-label={t('edit.insert', { placeholder: `{{${name}}}` })}
                onClick={() => props.onInsert(name)}
              >
                <code>{`{{${name}}}`}</code>
              </button>
              <span className={required ? 'template-required' : 'muted'}>
                {required ? t('edit.required') : t('edit.optional')}
              </span>
            </dt>
            <dd>{t(`placeholders.${name}`, { defaultValue: name })}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
