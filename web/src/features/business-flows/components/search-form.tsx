import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { type ConditionProblem, checkCondition, newCondition, normalizeCondition } from '../condition-check.ts';
import {
  emptySearch,
  FLOW_STATUSES,
  type FlowSearch,
  type FlowStatus,
  type PropertyCondition,
} from '../search-params.ts';
import { ConditionRow, type ConditionPropertyView } from './condition-row.tsx';

export interface SearchProperty extends ConditionPropertyView {
  decimalLength: number | null;
}

const DATE_GROUPS = [
  ['createdAt', 'createdFrom', 'createdTo'],
  ['updatedAt', 'updatedFrom', 'updatedTo'],
  ['completedAt', 'completedFrom', 'completedTo'],
] as const;

/**
 * The search conditions: name or ID, statuses, workspace, three date ranges and custom property conditions
 * (ANDed). Conditions are checked in the browser first (numbers, dates, from ≤ to); the search goes to the URL.
 */
export function SearchForm(props: {
  search: FlowSearch;
  workspaces: { id: string; name: string }[];
  properties: SearchProperty[];
  onSearch: (search: FlowSearch) => void;
}) {
  const { t } = useTranslation(['businessFlows', 'dataList']);
  const [draft, setDraft] = useState<FlowSearch>(props.search);
  const [problems, setProblems] = useState<ConditionProblem[][]>([]);
  const [picked, setPicked] = useState('');
  const propertyOf = (id: string) => props.properties.find((p) => p.id === id);
  const available = props.properties.filter((p) => !draft.conditions.some((c) => c.propertyId === p.id));

  const setConditions = (conditions: PropertyCondition[]) => {
    setDraft((d) => ({ ...d, conditions }));
    setProblems([]);
  };
  const toggleStatus = (status: FlowStatus, on: boolean) =>
    setDraft((d) => ({
      ...d,
      statuses: on
        ? FLOW_STATUSES.filter((s) => s === status || d.statuses.includes(s))
        : d.statuses.filter((s) => s !== status),
    }));
  const add = () => {
    const property = propertyOf(picked);
    if (!property) return;
    setConditions([...draft.conditions, newCondition(property)]);
    setPicked('');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = draft.conditions.map((c) => checkCondition(c, propertyOf(c.propertyId)));
    setProblems(found);
    if (found.some((list) => list.length > 0)) return;
    const conditions = draft.conditions.map((c) => normalizeCondition(c, propertyOf(c.propertyId)));
    props.onSearch({ ...draft, q: draft.q.trim(), conditions, page: 1 });
  };
  const clear = () => {
    const empty = { ...emptySearch(), sort: draft.sort, size: draft.size };
    setDraft(empty);
    setProblems([]);
    props.onSearch(empty);
  };

  return (
    <form role="search" className="panel admin-form" onSubmit={submit} noValidate aria-labelledby="flow-search-title">
      <h2 id="flow-search-title">{t('search.title')}</h2>
      <div className="form-grid">
        <FormField
          id="flow-search-q"
          type="search"
          label={t('search.q')}
          value={draft.q}
          maxLength={200}
          autoComplete="off"
          onChange={(event) => setDraft((d) => ({ ...d, q: event.target.value }))}
        />
        <SelectField
          id="flow-search-workspace"
          label={t('search.workspace')}
          value={draft.workspaceId}
          onChange={(event) => setDraft((d) => ({ ...d, workspaceId: event.target.value }))}
          options={[
            { value: '', label: t('search.anyWorkspace') },
            ...props.workspaces.map((w) => ({ value: w.id, label: w.name })),
          ]}
        />
      </div>
      <fieldset className="field choice-list">
        <legend>{t('search.statuses')}</legend>
        <div className="action-row">
          {FLOW_STATUSES.map((status) => (
            <div className="checkbox" key={status}>
              <input
                id={`flow-search-status-${status}`}
                type="checkbox"
                checked={draft.statuses.includes(status)}
                onChange={(event) => toggleStatus(status, event.target.checked)}
              />
              <label htmlFor={`flow-search-status-${status}`}>{t(`status.${status}`)}</label>
            </div>
          ))}
        </div>
      </fieldset>
      <details className="field" open={Object.values(props.search.dates).some(Boolean)}>
        <summary>{t('search.dates')}</summary>
        <div className="form-grid">
          {DATE_GROUPS.flatMap(([label, from, to]) =>
            [from, to].map((field) => (
              <FormField
                key={field}
                id={`flow-search-${field}`}
                type="date"
                label={t(field === from ? 'search.from' : 'search.to', { label: t(`search.${label}`) })}
                value={draft.dates[field]}
                onChange={(event) => setDraft((d) => ({ ...d, dates: { ...d.dates, [field]: event.target.value } }))}
              />
            )),
          )}
        </div>
      </details>
      <fieldset className="field">
        <legend>{t('search.properties')}</legend>
        <p className="hint">{t('search.propertiesHint')}</p>
        {draft.conditions.length > 0 && (
          <ul className="property-option-list">
            {draft.conditions.map((condition, index) => (
              <ConditionRow
                key={condition.propertyId}
                idPrefix="flow-search-property"
                condition={condition}
                property={propertyOf(condition.propertyId)}
                problems={problems[index] ?? []}
                onChange={(next) => setConditions(draft.conditions.map((c, i) => (i === index ? next : c)))}
                onRemove={() => setConditions(draft.conditions.filter((_, i) => i !== index))}
              />
            ))}
          </ul>
        )}
        {props.properties.length === 0 ? (
          <p className="muted">{t('search.noProperties')}</p>
        ) : (
          <div className="property-option">
            <SelectField
              id="flow-search-add-property"
              label={t('search.addProperty')}
              value={picked}
              onChange={(event) => setPicked(event.target.value)}
              options={[
                { value: '', label: t('search.chooseProperty') },
                ...available.map((p) => ({ value: p.id, label: p.name })),
              ]}
            />
            <div className="property-option-actions">
              <button type="button" className="button" disabled={!picked} onClick={add}>
                {t('search.add')}
              </button>
            </div>
          </div>
        )}
      </fieldset>
      {problems.some((list) => list.length > 0) && (
        <p role="alert" className="form-error">
          {t('search.invalid')}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary">
          {t('search.submit')}
        </button>
        <button type="button" className="button" onClick={clear}>
          {t('search.clear')}
        </button>
      </div>
    </form>
  );
}
