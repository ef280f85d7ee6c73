import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { usePlanFeature } from '../../../components/plan-gate.tsx';
import {
  checkTasks,
  DEFAULT_SIGNATURE_TYPE,
  GUEST_SIGNATURE_TYPES,
  GUEST_TWO_FACTORS,
  isGuestRow,
  MAX_TASKS,
  type SignatureType,
  type TaskProblem,
  type TaskRow,
  type TaskRuleContext,
  type TaskType,
  type TwoFactor,
  serverTaskProblems,
} from '../task-rules.ts';

export interface Choice {
  value: string;
  label: string;
}

/** A signature type the editor offers, and whether it may ask for a two-factor code. */
export interface SignatureTypeChoice {
  value: SignatureType;
  allowsTwoFactor: boolean;
}

const TASK_TYPES: TaskType[] = ['sign', 'approve', 'read'];
const TWO_FACTORS: TwoFactor[] = ['none', 'sms', 'email'];

/** Every type of the contract, for when the server's list is not at hand (the business-operator types take a code). */
export const ALL_SIGNATURE_TYPES: SignatureTypeChoice[] = (
  ['operator', 'party', 'proxy', 'advanced', 'handwritten', 'seal-image', 'timestamp', 'long-term'] as const
).map((value) => ({ value, allowsTwoFactor: ['operator', 'handwritten', 'seal-image', 'long-term'].includes(value) }));
const CLIENT_REASONS = new Set(['assigneeRequired', 'orderInvalid']);

let rowCounter = 0;
const newKey = () => `task-row-${(rowCounter += 1)}`;

function blankRow(order: number): TaskRow {
  return { key: newKey(), order, type: 'approve', assignee: '', roleId: '', required: true, templateId: '' };
}

/** The message of a problem: client-only reasons from this catalogue, rule codes from errors.json. */
function useProblemText() {
  const { t } = useTranslation(['documents', 'errors']);
  return (problem: TaskProblem) =>
    CLIENT_REASONS.has(problem.code) ? t(`editor.${problem.code}`) : t(`errors:${problem.code}`, { max: MAX_TASKS });
}

function RowFields(props: {
  row: TaskRow;
  index: number;
  problems: TaskProblem[];
  assignees: Choice[];
  roles: Choice[];
  signatureTypes: SignatureTypeChoice[];
  onChange: (row: TaskRow) => void;
  onParallel: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('documents');
  const text = useProblemText();
  const id = useId();
  const { row, index } = props;
  const errorsOf = (field: keyof TaskRow) => props.problems.filter((p) => p.field === field).map(text);
  const wiring = (field: keyof TaskRow) => {
    const errors = errorsOf(field);
    return {
      id: `${id}-${field}`,
      'aria-invalid': errors.length > 0 || undefined,
      'aria-describedby': errors.length > 0 ? `${id}-${field}-error` : undefined,
    };
  };
  const errorsBlock = (field: keyof TaskRow) => {
    const errors = errorsOf(field);
    return errors.length === 0 ? null : (
      <div id={`${id}-${field}-error`} className="field-error">
        {errors.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
    );
  };
  const set = (patch: Partial<TaskRow>) => props.onChange({ ...row, ...patch });
  const signatureType = row.signatureType ?? DEFAULT_SIGNATURE_TYPE;
  const allowsCode = props.signatureTypes.find((choice) => choice.value === signatureType)?.allowsTwoFactor ?? false;
  // A one-time user signs only the guest ways; a stored value outside them stays listed so the check can name it.
  const guest = isGuestRow(row);
  const signatureTypes = guest
    ? props.signatureTypes.filter((c) => GUEST_SIGNATURE_TYPES.includes(c.value) || c.value === signatureType)
    : props.signatureTypes;
  const twoFactors = guest
    ? TWO_FACTORS.filter((c) => GUEST_TWO_FACTORS.includes(c) || c === row.twoFactor)
    : TWO_FACTORS;
  // Advanced and long-term signatures are professional-plan features: listed, but disabled with the reason.
  const advanced = usePlanFeature('advancedSignature');
  const longTerm = usePlanFeature('longTermSignature');
  const planGateOf = (value: SignatureType) =>
    value === 'advanced' ? advanced : value === 'long-term' ? longTerm : { available: true, reason: '' };
  return (
    <fieldset className="task-row" data-row={index}>
      <legend>{t('editor.rowLabel', { row: index + 1 })}</legend>
      <div className="field task-order">
        <label htmlFor={`${id}-order`}>{t('editor.order')}</label>
        <input
          {...wiring('order')}
          type="number"
          min={1}
          max={30}
          inputMode="numeric"
          value={Number.isNaN(row.order) ? '' : row.order}
          onChange={(event) => set({ order: event.target.value === '' ? NaN : Number(event.target.value) })}
        />
        {errorsBlock('order')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-type`}>{t('editor.type')}</label>
        <select
          {...wiring('type')}
          value={row.type}
          onChange={(event) => {
            const type = event.target.value as TaskType;
            set(
              type === 'sign'
                ? {
                    type,
                    signatureType: row.signatureType ?? DEFAULT_SIGNATURE_TYPE,
                    twoFactor: row.twoFactor ?? 'none',
                  }
                : { type, signatureType: undefined, twoFactor: undefined },
            );
          }}
        >
          {TASK_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`taskTypes.${type}`)}
            </option>
          ))}
        </select>
        {errorsBlock('type')}
      </div>
      {row.type === 'sign' && (
        <>
          <div className="field">
            <label htmlFor={`${id}-signatureType`}>{t('editor.signatureType')}</label>
            <select
              {...wiring('signatureType')}
              value={signatureType}
              onChange={(event) => {
                const next = event.target.value as SignatureType;
                const allows = props.signatureTypes.find((choice) => choice.value === next)?.allowsTwoFactor;
                set({ signatureType: next, ...(allows ? {} : { twoFactor: 'none' }) });
              }}
            >
              {signatureTypes.map((choice) => {
                const gate = planGateOf(choice.value);
                const label = t(`signatureTypes.${choice.value}`);
                return (
                  <option
                    key={choice.value}
                    value={choice.value}
                    disabled={!gate.available && choice.value !== signatureType}
                  >
                    {gate.available ? label : t('common:planGate.option', { label, reason: gate.reason })}
                  </option>
                );
              })}
            </select>
            {errorsBlock('signatureType')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-twoFactor`}>{t('editor.twoFactor')}</label>
            <select
              {...wiring('twoFactor')}
              value={allowsCode ? (row.twoFactor ?? 'none') : 'none'}
              disabled={!allowsCode}
              onChange={(event) => set({ twoFactor: event.target.value as TwoFactor })}
            >
              {twoFactors.map((channel) => (
                <option key={channel} value={channel}>
                  {t(`twoFactors.${channel}`)}
                </option>
              ))}
            </select>
            {errorsBlock('twoFactor')}
          </div>
        </>
      )}
      <div className="field">
        <label htmlFor={`${id}-assignee`}>{t('editor.assignee')}</label>
        <select
          {...wiring('assignee')}
          value={row.assignee}
          onChange={(event) => {
            const noRole = !event.target.value.startsWith('group:');
            set({ assignee: event.target.value, ...(noRole && event.target.value ? { roleId: '' } : {}) });
          }}
        >
          <option value="">{t('editor.assigneeNone')}</option>
          {props.assignees.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
        {errorsBlock('assignee')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-roleId`}>{t('editor.role')}</label>
        <select
          {...wiring('roleId')}
          value={row.roleId}
          disabled={row.assignee.startsWith('organization:') || guest}
          onChange={(event) => set({ roleId: event.target.value })}
        >
          <option value="">{t('editor.roleNone')}</option>
          {props.roles.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
        {errorsBlock('roleId')}
      </div>
      <div className="field task-required">
        <div className="checkbox">
          <input
            {...wiring('required')}
            type="checkbox"
            checked={row.required}
            onChange={(event) => set({ required: event.target.checked })}
          />
          <label htmlFor={`${id}-required`}>{t('editor.required')}</label>
        </div>
        {errorsBlock('required')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-templateId`}>{t('editor.templateId')}</label>
        <input
          {...wiring('templateId')}
          maxLength={100}
          autoComplete="off"
          value={row.templateId}
          onChange={(event) => set({ templateId: event.target.value })}
        />
        {errorsBlock('templateId')}
      </div>
      <div className="task-row-actions">
        <button
          type="button"
          className="button small"
          aria-label={t('editor.addParallelLabel', { row: index + 1 })}
          onClick={props.onParallel}
        >
          {t('editor.addParallel')}
        </button>
        <button
          type="button"
          className="button small danger"
          aria-label={t('editor.removeLabel', { row: index + 1 })}
          onClick={props.onRemove}
        >
          {t('editor.remove')}
        </button>
      </div>
    </fieldset>
  );
}

/**
 * The task editor: one fieldset per task (order, type, for sign tasks the signature type and two-factor code,
 * assignee, role, required, template ID), parallel tasks sharing an order. Saving checks the spec's rules first and shows problems next to the row, or above the list
 * for the rules about the whole list; the server's refusals land the same way (pointer /data/attributes/tasks/i/…).
 */
export function TaskEditor(props: {
  initial: TaskRow[];
  assignees: Choice[];
  roles: Choice[];
  signatureTypes: SignatureTypeChoice[];
  context: TaskRuleContext;
  onSave: (rows: TaskRow[]) => Promise<unknown>;
  onReload: () => void;
}) {
  const { t } = useTranslation('documents');
  const text = useProblemText();
  const [rows, setRows] = useState<TaskRow[]>(props.initial.length > 0 ? props.initial : [blankRow(1)]);
  const [problems, setProblems] = useState<TaskProblem[]>([]);
  const [failure, setFailure] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const summary = useRef<HTMLDivElement>(null);

  const update = (index: number, row: TaskRow) => {
    setRows(rows.map((r, i) => (i === index ? row : r)));
    setProblems(problems.filter((p) => p.row !== index));
  };
  const insertAfter = (index: number, row: TaskRow) => {
    setRows([...rows.slice(0, index + 1), row, ...rows.slice(index + 1)]);
    setProblems([]);
  };
  const lastOrder = rows.reduce((max, row) => (Number.isFinite(row.order) ? Math.max(max, row.order) : max), 0);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = checkTasks(rows, props.context);
    setProblems(found);
    if (found.length > 0) {
      summary.current?.focus();
      return;
    }
    setPending(true);
    try {
      await props.onSave(rows);
    } catch (error) {
      const pointed = error instanceof ApiError && error.errors.some((item) => item.source?.pointer);
      const placed = pointed ? serverTaskProblems((error as ApiError).errors) : [];
      setProblems(placed);
      if (placed.length === 0) setFailure(error);
      else summary.current?.focus();
    } finally {
      setPending(false);
    }
  };

  const listProblems = problems.filter((p) => p.row === null);
  return (
    <form className="task-editor" noValidate onSubmit={(event) => void submit(event)}>
      <ApiErrorNotice error={failure} onReload={props.onReload} action={t('common:failure.actions.saveTasks')} />
      <div ref={summary} tabIndex={-1} role={problems.length > 0 ? 'alert' : undefined} className="task-summary">
        {problems.length > 0 && (
          <div className="form-error">
            <p>{t('editor.summaryTitle')}</p>
            <ul>
              {listProblems.map((problem) => (
                <li key={problem.code}>{text(problem)}</li>
              ))}
              {problems
                .filter((p) => p.row !== null)
                .map((problem) => (
                  <li key={`${problem.row}-${problem.field}-${problem.code}`}>
                    {t('editor.rowLabel', { row: (problem.row ?? 0) + 1 })}: {text(problem)}
                  </li>
                ))}
            </ul>
          </div>
        )}
      </div>
      {rows.map((row, index) => (
        <RowFields
          key={row.key}
          row={row}
          index={index}
          problems={problems.filter((p) => p.row === index)}
          assignees={props.assignees}
          roles={props.roles}
          signatureTypes={props.signatureTypes}
          onChange={(next) => update(index, next)}
          onParallel={() => insertAfter(index, { ...blankRow(row.order), type: 'read', required: false })}
          onRemove={() => {
            setRows(rows.filter((_, i) => i !== index));
            setProblems([]);
          }}
        />
      ))}
      <div className="form-actions">
        <button type="button" className="button" onClick={() => setRows([...rows, blankRow(lastOrder + 1)])}>
          {t('editor.add')}
        </button>
        <button type="submit" className="button primary" disabled={pending}>
          {pending ? t('editor.sending') : t('editor.save')}
        </button>
      </div>
    </form>
  );
}
