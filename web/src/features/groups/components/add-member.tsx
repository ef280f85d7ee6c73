import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { SearchBox } from '../../../components/data-list.tsx';
import { CheckboxField } from '../../../components/form-field.tsx';
import { useAddGroupMember } from '../api/add-group-member.ts';
import { useUserSearch } from '../api/search-users.ts';

/**
 * Adding a member: search users, then pick one. Only organization administrators may add someone as a group
 * administrator, so the checkbox is theirs alone.
 */
export function AddMember(props: { groupId: string; canGrantAdmin: boolean }) {
  const { t } = useTranslation('groups');
  const [q, setQ] = useState('');
  const [asAdmin, setAsAdmin] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const matches = useUserSearch(q);
  const add = useAddGroupMember();

  const pick = async (user: { id: string; name: string }) => {
    setFailure(null);
    try {
      await add.mutateAsync({ groupId: props.groupId, userId: user.id, isGroupAdmin: asAdmin });
      toast.success(t('add.added', { name: user.name }));
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <section aria-labelledby="add-member-title" className="panel">
      <h2 id="add-member-title">{t('add.heading')}</h2>
      <p className="hint">{t('add.hint')}</p>
      <SearchBox id="add-member-search" label={t('add.search')} value={q} onSearch={setQ} />
      {props.canGrantAdmin && (
        <CheckboxField
          id="add-member-as-admin"
          label={t('add.asGroupAdmin')}
          checked={asAdmin}
          onChange={(event) => setAsAdmin(event.target.checked)}
        />
      )}
      <ApiErrorNotice error={failure} />
      {q && matches.isPending && (
        <p role="status" className="muted">
          {t('add.searching')}
        </p>
      )}
      {matches.error && <ApiErrorNotice error={matches.error} />}
      {matches.data && matches.data.length === 0 && (
        <p role="status" className="muted">
          {t('add.noMatch')}
        </p>
      )}
      {matches.data && matches.data.length > 0 && (
        <ul className="pick-list">
          {matches.data.map((user) => {
            const member = user.groupIds.includes(props.groupId);
            return (
              <li key={user.id}>
                <span>
                  <strong>{user.name}</strong> <span className="muted">{user.loginId}</span>
                </span>
                {member ? (
                  <span className="badge badge-muted">{t('add.already')}</span>
                ) : (
                  <button
                    type="button"
                    className="button"
                    disabled={add.isPending}
                    aria-label={t('add.addLabel', { name: user.name })}
                    onClick={() => void pick(user)}
                  >
                    {t('add.add')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
