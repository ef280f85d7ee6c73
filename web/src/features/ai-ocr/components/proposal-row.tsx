import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INPUT_TYPES } from '../../../../../core/contract/property-values.ts';
import type { DocumentProperty } from '../api/document-properties.ts';
import type { OcrDecision, OcrProposal } from '../api/document-ocr.ts';
import { formatProposedValue, percent } from '../format.ts';

/** The input that edits a proposal's value, by the property's type (a date picker, the options, or text). */
function ValueInput(props: {
  id: string;
  label: string;
  proposal: OcrProposal;
  property: DocumentProperty | undefined;
  value: string;
  onChange: (value: string) => void;
}) {
  const options = props.property?.attributes.options ?? [];
  if (props.proposal.inputType === INPUT_TYPES.enum && options.length > 0) {
    return (
      <select
        id={props.id}
        aria-label={props.label}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="" />
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
    );
  }
  const date = props.proposal.inputType === INPUT_TYPES.date;
  const number = props.proposal.inputType === INPUT_TYPES.number;
  return (
    <input
      id={props.id}
      aria-label={props.label}
      type={date ? 'date' : 'text'}
      inputMode={number ? 'decimal' : undefined}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}

/**
 * One proposed value: the property, the value as read (formatted), the raw text, where it came from and how sure
 * the reading is; editors accept it, correct it or reject it. Pointer or focus on the row highlights its place on
 * the page.
 */
export function ProposalRow(props: {
  proposal: OcrProposal;
  property: DocumentProperty | undefined;
  canDecide: boolean;
  pending: boolean;
  onHighlight: (id: string | null) => void;
  onDecide: (decision: OcrDecision) => void;
}) {
  const { t, i18n } = useTranslation('aiOcr');
  const id = useId();
  const { proposal } = props;
  const [editing, setEditing] = useState<string | null>(null);
  const name = proposal.propertyName ?? t('panel.deletedProperty');
  const shown = formatProposedValue(proposal, i18n.language, props.property?.attributes.numberUnit);
  const open = proposal.status === 'proposed';
  const decide = (action: OcrDecision['action'], value?: string) =>
    props.onDecide({ proposalId: proposal.id, action, ...(value !== undefined ? { value } : {}) });

  return (
    <li
      className="ocr-proposal"
      data-testid="ocr-proposal"
      data-status={proposal.status}
      onPointerEnter={() => props.onHighlight(proposal.id)}
      onFocus={() => props.onHighlight(proposal.id)}
    >
      <div className="ocr-proposal-head">
        <h3 id={`${id}-name`}>{name}</h3>
        {!open && (
          <span className={`badge ${proposal.status === 'rejected' ? 'badge-muted' : 'badge-ok'}`}>
            {t(`decisions.${proposal.status}`)}
          </span>
        )}
      </div>
      <dl className="facts ocr-facts">
        <div>
          <dt>{t('panel.value')}</dt>
          <dd className="ocr-value">
            {shown === null ? <span className="muted">{t('panel.unreadable')}</span> : <span>{shown}</span>}
            {proposal.note && <span className="ocr-note">{t(`notes.${proposal.note}`)}</span>}
          </dd>
        </div>
        <div>
          <dt>{t('panel.raw')}</dt>
          <dd className="ocr-raw">{proposal.raw === '' ? t('panel.rawEmpty') : proposal.raw}</dd>
        </div>
        <div>
          <dt>{t('panel.source')}</dt>
          <dd>{t(`sources.${proposal.source}`)}</dd>
        </div>
        <div>
          <dt>{t('panel.confidence')}</dt>
          <dd>{percent(proposal.confidence)}</dd>
        </div>
      </dl>
      {props.canDecide && open && editing === null && (
        <div className="row-actions" role="group" aria-labelledby={`${id}-name`}>
          <button
            type="button"
            className="button small primary"
            disabled={props.pending || proposal.value === null}
            onClick={() => decide('accept')}
          >
            {t('panel.accept')}
          </button>
          <button
            type="button"
            className="button small"
            disabled={props.pending}
            onClick={() => setEditing(proposal.value ?? '')}
          >
            {t('panel.edit')}
          </button>
          <button
            type="button"
            className="button small danger"
            disabled={props.pending}
            onClick={() => decide('reject')}
          >
            {t('panel.reject')}
          </button>
        </div>
      )}
      {props.canDecide && open && editing !== null && (
        <form
          className="ocr-edit"
          onSubmit={(event) => {
            event.preventDefault();
            decide('edit', editing);
          }}
        >
          <ValueInput
            id={`${id}-value`}
            label={t('panel.editLabel', { name })}
            proposal={proposal}
            property={props.property}
            value={editing}
            onChange={setEditing}
          />
          <button type="submit" className="button small primary" disabled={props.pending || editing.trim() === ''}>
            {t('panel.accept')}
          </button>
          <button type="button" className="button small" onClick={() => setEditing(null)}>
            {t('panel.cancelEdit')}
          </button>
        </form>
      )}
    </li>
  );
}
