import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { type IpEntry, useReplaceIpRestrictions } from '../api/replace-ip-restrictions.ts';
import { useIpRestrictions } from '../api/list-ip-restrictions.ts';
import { IpEntryForm } from '../components/ip-entry-form.tsx';
import { cidrContains } from '../components/ipv4.ts';
import { Loading } from '../components/page-state.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('organization', { ja, en });

/**
 * The IP allow-list: the caller's address, the entries, add (or "add my IP") and remove locally, then save the whole
 * list. The server refuses a list without the caller's own address; the free plan shows that the feature is not
 * available instead of an error.
 */
export function IpRestrictionsPage() {
  const { t } = useTranslation('organization');
  const list = useIpRestrictions();
  const replace = useReplaceIpRestrictions();
  const [draft, setDraft] = useState<IpEntry[] | null>(null);
  const [saved, setSaved] = useState(false);
  const server = list.data;

  useEffect(() => {
    document.title = t('ip.title');
  }, [t]);
  if (list.error instanceof ApiError && list.error.code === 'IP_RESTRICTED') throw list.error;

  const entries =
    draft ?? server?.data.map((item) => ({ cidr: item.attributes.cidr, note: item.attributes.note })) ?? [];
  const callerIp = server?.meta.callerIp ?? '';
  const maxEntries = server?.meta.maxEntries ?? 0;
  const dirty = draft !== null;

  const edit = (next: IpEntry[]) => {
    setDraft(next);
    setSaved(false);
    replace.reset();
  };
  const save = () =>
    replace.mutate(entries, {
      onSuccess: () => {
        setDraft(null);
        setSaved(true);
      },
    });
  const reload = () => {
    setDraft(null);
    replace.reset();
    void list.refetch();
  };
  const planRefused = list.error instanceof ApiError && list.error.code === 'PLAN_FEATURE_UNAVAILABLE';
  const firstWithoutOwn =
    (server?.data.length ?? 0) === 0 && entries.length > 0 && !entries.some((e) => cidrContains(e.cidr, callerIp));

  return (
    <section aria-labelledby="ip-title" className="org-settings">
      <h1 id="ip-title">{t('ip.title')}</h1>
      <p>{t('ip.intro')}</p>
      <Loading pending={list.isPending} />
      {planRefused && (
        <p role="status" className="notice">
          {t('ip.freePlan')}
        </p>
      )}
      {list.error && !planRefused && <ApiErrorNotice error={list.error} />}
      {server && (
        <>
          <p className="org-caller-ip">{t('ip.callerIp', { ip: callerIp })}</p>
          <p className="muted">{t('ip.maxEntries', { max: maxEntries, count: entries.length })}</p>
          <IpEntryForm
            entries={entries}
            callerIp={callerIp}
            maxEntries={maxEntries}
            onAdd={(entry) => edit([...entries, entry])}
          />
          <h2 id="ip-list-title">{t('ip.listLabel')}</h2>
          {entries.length === 0 ? (
            <p className="muted">{t('ip.empty')}</p>
          ) : (
            <div className="org-table-wrap">
              <table className="org-table" aria-labelledby="ip-list-title">
                <thead>
                  <tr>
                    <th scope="col">{t('ip.columns.cidr')}</th>
                    <th scope="col">{t('ip.columns.note')}</th>
                    <th scope="col">{t('ip.columns.actions')}</th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((entry) => (
                    <tr key={entry.cidr}>
                      <td>
                        <code>{entry.cidr}</code>
                        {cidrContains(entry.cidr, callerIp) && <span className="org-badge">{t('ip.ownIp')}</span>}
                      </td>
                      <td>{entry.note}</td>
                      <td>
                        <button
                          type="button"
                          className="button"
                          aria-label={t('ip.remove', { cidr: entry.cidr })}
                          onClick={() => edit(entries.filter((e) => e.cidr !== entry.cidr))}
                        >
                          {t('ip.removeLabel')}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {firstWithoutOwn && <p className="notice">{t('ip.firstMustIncludeOwn')}</p>}
          {dirty && <p className="muted">{t('ip.unsaved')}</p>}
          <ApiErrorNotice error={replace.error} onReload={reload} />
          {saved && (
            <p role="status" className="success">
              {t('saved')}
            </p>
          )}
          <div className="org-actions">
            <button type="button" className="button primary" disabled={!dirty || replace.isPending} onClick={save}>
              {replace.isPending ? t('saving') : t('save')}
            </button>
            {dirty && (
              <button type="button" className="button" onClick={reload}>
                {t('reload')}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
