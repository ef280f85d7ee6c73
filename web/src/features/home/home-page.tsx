import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSlowLoading } from '../../api/query.ts';
import { japanDateFormat, japanDateTimeFormat } from '../../components/date-format.ts';
import { useWorkbenchAreas } from '../../components/plan-gate.tsx';
import { registerCatalogue } from '../../i18n/lazy.ts';
import { useCurrentUser } from '../../session/current-user.ts';
import { type Inbox, type InboxItem, type InboxSection, type InboxWarning, useInbox } from './api/get-inbox.ts';
import en from './i18n/en.json';
import ja from './i18n/ja.json';
import './home.css';

registerCatalogue('home', { ja, en });

type SectionKey = 'waitingForMe' | 'remandedToMe' | 'drafts' | 'waitingForOthers' | 'completedRecently';

/** The to-do sections first (what waits for the caller), then what the caller waits for and what is done. */
const SECTIONS: SectionKey[] = ['waitingForMe', 'remandedToMe', 'drafts', 'waitingForOthers', 'completedRecently'];

/**
 * The home screen is the inbox (GET /me/inbox in one request): what waits for the caller, their drafts, what waits
 * for others and what was completed recently, with notices to act on and a prominent button to send a new
 * document. Who is signed in and the areas of the workbench follow below.
 */
export function HomePage() {
  const { t, i18n } = useTranslation(['home', 'auth', 'common']);
  const user = useCurrentUser();
  const inbox = useInbox();
  const areas = useWorkbenchAreas();
  const slow = useSlowLoading(user.isPending || inbox.isPending);
  const me = user.data?.attributes;

  useEffect(() => {
    document.title = `${t('auth:home.title')} | ${t('common:appName')}`;
  }, [t]);

  const number = new Intl.NumberFormat(i18n.language === 'en' ? 'en-US' : 'ja-JP');
  const countText = (section: { count: number; capped: boolean }) =>
    t(section.capped ? 'countCapped' : 'count', { number: number.format(section.count) });
  const role = me?.isOwner ? 'owner' : me?.isAdmin ? 'admin' : 'member';

  return (
    <section aria-labelledby="home-title" className="home inbox">
      <div className="inbox-head">
        <h1 id="home-title">{t('auth:home.title')}</h1>
        <Link to="/organizations/business-flows/new" className="button primary inbox-send">
          {t('newSend')}
        </Link>
      </div>
      {me && <p className="greeting">{t('auth:home.greeting', { name: me.name })}</p>}
      {(user.isPending || inbox.isPending) && (
        <div role="status" className="home-loading">
          <p className="muted">{t('loading')}</p>
          {slow && <p className="notice">{t('common:slowLoading')}</p>}
        </div>
      )}
      {inbox.isError && (
        <div role="alert" className="form-error inbox-error">
          <p>{t('loadFailed')}</p>
          <button type="button" className="button small" onClick={() => void inbox.refetch()}>
            {t('retry')}
          </button>
        </div>
      )}
      {inbox.data && <Warnings warnings={inbox.data.data.attributes.warnings} countText={countText} />}
      {inbox.data && <Sections inbox={inbox.data.data.attributes} countText={countText} />}

      <h2 className="home-areas-title">{t('more')}</h2>
      {me && (
        <div className="home-summary" aria-label={t('account')}>
          <dl className="facts">
            <div>
              <dt>{t('auth:home.organization')}</dt>
              <dd>{me.organization.name}</dd>
            </div>
            <div>
              <dt>{t('auth:home.plan')}</dt>
              <dd>
                <span className={`plan plan-${me.organization.plan}`}>
                  {t(`auth:home.plans.${me.organization.plan}`)}
                </span>
              </dd>
            </div>
            <div>
              <dt>{t('auth:home.role')}</dt>
              <dd>{t(`auth:home.roles.${role}`)}</dd>
            </div>
            <div>
              <dt>{t('auth:fields.loginId')}</dt>
              <dd>{me.loginId}</dd>
            </div>
          </dl>
        </div>
      )}
      <ul className="dashboard-grid home-tiles">
        {areas.map((area) => (
          <li key={area.key} className="tile">
            <Link to="/organizations/$" params={{ _splat: area.splat }} className="tile-link">
              <span className="tile-title">{t(`auth:home.tiles.${area.key}.title`)}</span>
              <span className="tile-text">{t(`auth:home.tiles.${area.key}.text`)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

type CountText = (section: { count: number; capped: boolean }) => string;

/** Notices with what to do: the account screen for the e-certificate and e-mail, the flows for blocked files. */
function Warnings({ warnings, countText }: { warnings: InboxWarning[]; countText: CountText }) {
  const { t, i18n } = useTranslation('home');
  if (warnings.length === 0) return null;
  const day = japanDateFormat(i18n.language);
  return (
    <ul className="inbox-warnings" aria-label={t('warningsLabel')}>
      {warnings.map((warning) => {
        const p = warning.params;
        const text = t(`warnings.${warning.code}`, {
          date: p.expiresAt ? day.format(new Date(p.expiresAt)) : '',
          days: p.days ?? 0,
          email: p.email ?? '',
          number: countText({ count: p.count ?? 0, capped: Boolean(p.capped) }),
        });
        return (
          <li key={warning.code} className="notice inbox-warning" data-code={warning.code}>
            <span>{text}</span>{' '}
            {warning.code === 'DOCUMENTS_BLOCKED_BY_SCAN' ? (
              <Link to="/organizations/business-flows" search={{ status: 'in_progress' }}>
                {t('warningLinks.flows')}
              </Link>
            ) : (
              <Link to="/account">
                {t(warning.code === 'EMAIL_NOT_CONFIRMED' ? 'warningLinks.email' : 'warningLinks.certificate')}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function Sections({ inbox, countText }: { inbox: Inbox; countText: CountText }) {
  const { t } = useTranslation('home');
  return (
    <div className="inbox-sections" aria-label={t('sectionsLabel')} role="region">
      {SECTIONS.map((key) => (
        <SectionCard key={key} name={key} section={inbox[key]} countText={countText} />
      ))}
    </div>
  );
}

/** Where a section's "see all" goes. */
function AllLink({ name, children }: { name: SectionKey; children: ReactNode }) {
  if (name === 'waitingForMe') return <Link to="/organizations/tasks">{children}</Link>;
  const status = name === 'drafts' ? 'draft' : name === 'completedRecently' ? 'complete' : 'in_progress';
  return (
    <Link to="/organizations/business-flows" search={{ status }}>
      {children}
    </Link>
  );
}

function SectionCard({ name, section, countText }: { name: SectionKey; section: InboxSection; countText: CountText }) {
  const { t } = useTranslation('home');
  const id = `inbox-${name}`;
  return (
    <section className={`inbox-section inbox-${name}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="inbox-section-title">
        <span>{t(`sections.${name}.title`)}</span>
        <span className={`inbox-count${section.count > 0 ? ' inbox-count-some' : ''}`} data-testid={`${id}-count`}>
          {countText(section)}
        </span>
      </h2>
      {section.items.length === 0 ? (
        <p className="muted inbox-empty">{t(`sections.${name}.empty`)}</p>
      ) : (
        <ul className="inbox-list">
          {section.items.map((item) => (
            <li
              key={`${item.businessFlow.id}-${item.document?.id ?? ''}-${item.task?.id ?? ''}`}
              className="inbox-item"
            >
              <ItemRow name={name} item={item} />
            </li>
          ))}
        </ul>
      )}
      {section.count > section.items.length && (
        <p className="inbox-all">
          <AllLink name={name}>{t(`sections.${name}.all`)}</AllLink>
        </p>
      )}
    </section>
  );
}

function ItemRow({ name, item }: { name: SectionKey; item: InboxItem }) {
  const { t, i18n } = useTranslation('home');
  const date = japanDateTimeFormat(i18n.language).format(new Date(item.since));
  const documentName = item.document?.name ?? item.businessFlow.name;
  const meta = (...parts: (string | null | false | undefined)[]) => (
    <span className="inbox-meta">
      {parts
        .filter((part): part is string => Boolean(part))
        .map((part) => (
          <span key={part}>{part}</span>
        ))}
    </span>
  );

  if (name === 'waitingForMe' && item.task && item.document) {
    const sign = item.task.type === 'sign';
    const target = sign
      ? {
          to: '/organizations/documents/$documentId/tasks/$taskId/sign' as const,
          params: { documentId: item.document.id, taskId: item.task.id },
        }
      : { to: '/organizations/documents/$documentId' as const, params: { documentId: item.document.id } };
    return (
      <>
        <div className="inbox-main">
          <span className={`badge badge-info inbox-type inbox-type-${item.task.type}`}>
            {t(`types.${item.task.type}`)}
          </span>
          <Link {...target} className="inbox-title">
            {documentName}
          </Link>
          {item.blockedByScan && <span className="badge badge-warn">{t('item.scanning')}</span>}
        </div>
        {meta(
          item.businessFlow.name !== documentName && item.businessFlow.name,
          item.counterparty && t('item.from', { name: item.counterparty }),
          t('item.assignedAt', { date }),
        )}
        <Link
          {...target}
          className={`button small${sign ? ' primary' : ''} inbox-action`}
          aria-label={t(sign ? 'item.signLabel' : 'item.openLabel', { name: documentName })}
        >
          {t(sign ? 'actions.sign' : 'actions.open')}
        </Link>
      </>
    );
  }

  if (name === 'remandedToMe' && item.document) {
    return (
      <>
        <div className="inbox-main">
          <Link
            to="/organizations/documents/$documentId"
            params={{ documentId: item.document.id }}
            className="inbox-title"
          >
            {item.document.name}
          </Link>
        </div>
        {item.reason && <p className="inbox-reason">{t('item.reason', { reason: item.reason })}</p>}
        {meta(
          item.businessFlow.name,
          item.counterparty && t('item.remandedBy', { name: item.counterparty }),
          t('item.remandedAt', { date }),
        )}
      </>
    );
  }

  if (name === 'drafts') {
    return (
      <>
        <div className="inbox-main">
          <Link to="/organizations/business-flows/new" search={{ draft: item.businessFlow.id }} className="inbox-title">
            {item.businessFlow.name}
          </Link>
        </div>
        {meta(item.document?.name, t('item.editedAt', { date }))}
        <Link
          to="/organizations/business-flows/new"
          search={{ draft: item.businessFlow.id }}
          className="button small inbox-action"
          aria-label={t('item.continueLabel', { name: item.businessFlow.name })}
        >
          {t('actions.continue')}
        </Link>
      </>
    );
  }

  const waiting = name === 'waitingForOthers';
  return (
    <>
      <div className="inbox-main">
        <Link
          to="/business-flows/$businessFlowId"
          params={{ businessFlowId: item.businessFlow.id }}
          className="inbox-title"
        >
          {item.businessFlow.name}
        </Link>
      </div>
      {meta(
        waiting && item.document?.name,
        waiting && item.task && t(`types.${item.task.type}`),
        item.counterparty && (waiting ? t('item.waitingOn', { name: item.counterparty }) : item.counterparty),
        t(waiting ? 'item.activeSince' : 'item.completedAt', { date }),
      )}
    </>
  );
}
