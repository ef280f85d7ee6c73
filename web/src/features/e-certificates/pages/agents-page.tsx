import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { SearchBox, TableScroll } from '../../../components/data-list.tsx';
import { japanDateFormat } from '../../../components/date-format.ts';
import { FormField } from '../../../components/form-field.tsx';
import en from '../../../i18n/en/signing.json';
import ja from '../../../i18n/ja/signing.json';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { useAddMyAgent, useRemoveMyAgent } from '../api/change-my-agents.ts';
import { useMyAgents } from '../api/list-my-agents.ts';
import { useUserSearch } from '../api/search-users.ts';
import '../e-certificates.css';

registerCatalogue('signing', { ja, en });

type Agent = NonNullable<ReturnType<typeof useMyAgents>['data']>['data'][number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Administrators and group administrators pick the agent from a user search (GET /users). */
function UserPicker(props: { excluded: Set<string>; disabled: boolean; onPick: (userId: string) => void }) {
  const { t } = useTranslation('signing');
  const [q, setQ] = useState('');
  const search = useUserSearch(q, true);
  const users = (search.data ?? []).filter((user) => !props.excluded.has(user.id));
  return (
    <div className="agent-picker">
      <SearchBox id="agent-search" label={t('agents.search')} value={q} onSearch={setQ} />
      {search.isFetching && (
        <p role="status" className="muted">
          {t('agents.searching')}
        </p>
      )}
      <ApiErrorNotice error={search.error} />
      {q !== '' && search.isSuccess && search.data.length === 0 && <p className="muted">{t('agents.noUsers')}</p>}
      {users.length > 0 && (
        <ul className="plain-list agent-results" aria-label={t('agents.results')}>
          {users.map((user) => (
            <li key={user.id}>
              <span>
                {user.attributes.name} <span className="muted">({user.attributes.loginId})</span>
              </span>
              <button
                type="button"
                className="button small"
                disabled={props.disabled}
                aria-label={t('agents.addLabel', { name: user.attributes.name })}
                onClick={() => props.onPick(user.id)}
              >
                {t('agents.add')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Users who may not list users enter the agent's user identifier their administrator gave them. */
function IdentifierForm(props: { disabled: boolean; onPick: (userId: string) => void }) {
  const { t } = useTranslation('signing');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!UUID.test(value.trim())) return setError(t('agents.identifierInvalid'));
    setError(null);
    props.onPick(value.trim());
  };
  return (
    <form className="admin-form" noValidate onSubmit={submit}>
      <FormField
        id="agent-user-id"
        label={t('agents.identifier')}
        hint={t('agents.identifierHint')}
        autoComplete="off"
        value={value}
        errors={error ? [error] : []}
        onChange={(event) => setValue(event.target.value)}
      />
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={props.disabled}>
          {t('agents.add')}
        </button>
      </div>
    </form>
  );
}

function AgentTable(props: { agents: Agent[]; onRemove: (agent: Agent) => void }) {
  const { t, i18n } = useTranslation('signing');
  const date = japanDateFormat(i18n.language);
  if (props.agents.length === 0) return <p className="muted">{t('agents.empty')}</p>;
  return (
    <TableScroll label={t('agents.tableLabel')}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{t('agents.columns.name')}</th>
            <th scope="col">{t('agents.columns.loginId')}</th>
            <th scope="col">{t('agents.columns.createdAt')}</th>
            <th scope="col">{t('agents.columns.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {props.agents.map((agent) => (
            <tr key={agent.id}>
              <td className="cell-wrap">{agent.attributes.name}</td>
              <td>{agent.attributes.loginId}</td>
              <td>{date.format(new Date(agent.attributes.createdAt))}</td>
              <td>
                <button
                  type="button"
                  className="button small danger"
                  aria-label={t('agents.removeLabel', { name: agent.attributes.name })}
                  onClick={() => props.onRemove(agent)}
                >
                  {t('agents.remove')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * Agents: who may sign with the caller's e-certificate (add, remove, at most the maximum), and the principals whose
 * certificate the caller may sign with.
 */
export function AgentsPage() {
  const { t } = useTranslation(['signing', 'common']);
  const me = useCurrentUser().data;
  const list = useMyAgents();
  const add = useAddMyAgent();
  const remove = useRemoveMyAgent();
  const [removing, setRemoving] = useState<Agent | null>(null);
  const agents = list.data?.data ?? [];
  const principals = list.data?.meta.principals ?? [];
  const maximum = list.data?.meta.maximum ?? 0;
  const mayList = Boolean(me?.attributes.isAdmin || me?.attributes.groups.some((group) => group.isGroupAdmin));
  const excluded = new Set([...(me ? [me.id] : []), ...agents.map((agent) => agent.attributes.userId)]);
  const full = agents.length >= maximum;

  useEffect(() => {
    document.title = `${t('agents.title')} | ${t('common:appName')}`;
  }, [t]);

  const pick = (userId: string) =>
    add.mutate(userId, { onSuccess: (agent) => toast.success(t('agents.added', { name: agent.attributes.name })) });

  return (
    <section aria-labelledby="agents-title" className="admin-screen">
      <h1 id="agents-title">{t('agents.title')}</h1>
      <p>{t('agents.intro')}</p>
      {list.isPending && (
        <p role="status" className="muted">
          {t('agents.loading')}
        </p>
      )}
      <ApiErrorNotice error={list.error} />
      {list.data && (
        <>
          <section aria-labelledby="agents-list-title" className="panel">
            <h2 id="agents-list-title">{t('agents.listTitle')}</h2>
            <p className="muted">{t('agents.count', { count: agents.length, max: maximum })}</p>
            <AgentTable
              agents={agents}
              onRemove={(agent) => {
                remove.reset();
                setRemoving(agent);
              }}
            />
          </section>
          <section aria-labelledby="agents-add-title" className="panel">
            <h2 id="agents-add-title">{t('agents.addTitle')}</h2>
            {full && <p className="notice">{t('errors:AGENT_LIMIT')}</p>}
            <ApiErrorNotice error={add.error} />
            {mayList && !(add.error instanceof ApiError && add.error.status === 403) ? (
              <UserPicker excluded={excluded} disabled={full || add.isPending} onPick={pick} />
            ) : (
              <IdentifierForm disabled={full || add.isPending} onPick={pick} />
            )}
          </section>
          <section aria-labelledby="principals-title" className="panel">
            <h2 id="principals-title">{t('agents.principalsTitle')}</h2>
            <p className="hint">{t('agents.principalsIntro')}</p>
            {principals.length === 0 ? (
              <p className="muted">{t('agents.noPrincipals')}</p>
            ) : (
              <ul className="plain-list principal-list">
                {principals.map((principal) => (
                  <li key={principal.userId}>
                    <span>{principal.name}</span>{' '}
                    <span className="badge badge-muted">{t(`certificateStatuses.${principal.certificateStatus}`)}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('agents.removeTitle')}
        confirmLabel={t('agents.remove')}
        danger
        pending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              toast.success(t('agents.removed'));
              setRemoving(null);
            },
          })
        }
      >
        <p>{t('agents.removeBody', { name: removing?.attributes.name ?? '' })}</p>
        <ApiErrorNotice error={remove.error} />
      </ConfirmDialog>
    </section>
  );
}
