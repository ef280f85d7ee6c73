import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { currentUserQueryOptions } from '../../../session/current-user.ts';
import { sessionGuard } from '../../../session/session.ts';
import {
  type InvitationSummary,
  useAcceptWorkspaceInvitation,
  workspaceInvitationQueryOptions,
} from '../api/workspace-invitation.ts';
import '../partners.css';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('partners', { ja, en });

const route = getRouteApi('/workspaces/$workspaceId/join');

export type DeadLink = 'invalid' | 'expired' | 'used';

/** Which dead-link page a refusal of the token means; null for any other failure. */
export function deadLinkOf(error: unknown): DeadLink | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'WORKSPACE_INVITATION_EXPIRED') return 'expired';
  if (error.code === 'WORKSPACE_INVITATION_USED') return 'used';
  if (error.code === 'WORKSPACE_INVITATION_INVALID' || error.status === 422) return 'invalid';
  return null;
}

/**
 * The join link's page (`/workspaces/{workspaceId}/join?invitation=<token>`, reachable without sign-in): who invites
 * whom into which workspace, then sign-in or sign-up (the token rides along as `invitationToken`) and the join
 * itself. Invalid, expired and used links each get their own page.
 */
export function WorkspaceJoinPage() {
  const { t } = useTranslation('partners');
  const search = route.useSearch();
  const token = search.invitation ?? search.invitationToken ?? '';
  const router = useRouter();
  const invitation = useQuery({ ...workspaceInvitationQueryOptions(token), enabled: token !== '' });

  // The spec's guard reads the invitation from the navigation state when the window regains focus signed out.
  useEffect(() => {
    const state = router.state.location.state as { invitationId?: string } | undefined;
    if (token && state?.invitationId !== token) {
      router.history.replace(router.state.location.href, { ...state, invitationId: token } as never);
    }
  }, [router, token]);

  // After a sign-in that knew only the token, the address names no workspace yet: show the invitation's own.
  const { workspaceId } = route.useParams();
  const actual = invitation.data?.attributes.workspace.id;
  useEffect(() => {
    if (actual && actual !== workspaceId) {
      void router.navigate({
        to: '/workspaces/$workspaceId/join',
        params: { workspaceId: actual },
        search: { invitation: token },
        replace: true,
      });
    }
  }, [actual, workspaceId, token, router]);

  const dead = token === '' ? 'invalid' : deadLinkOf(invitation.error);
  if (dead) return <DeadLinkPage kind={dead} />;
  return (
    <PublicFrame title={t('join.title')} wide>
      {invitation.isPending && (
        <p role="status" className="muted">
          {t('join.loading')}
        </p>
      )}
      <ApiErrorNotice error={invitation.error} />
      {invitation.data && <Invitation invitation={invitation.data} token={token} />}
    </PublicFrame>
  );
}

function Invitation({ invitation, token }: { invitation: InvitationSummary; token: string }) {
  const { t, i18n } = useTranslation('partners');
  const a = invitation.attributes;
  const signedIn = sessionGuard.hasSession();
  const joinPath = `/workspaces/${a.workspace.id}/join`;
  const date = japanDateTimeFormat(i18n.language).format(new Date(a.expiresAt));
  return (
    <>
      <p className="join-lead">
        {a.inviterName
          ? t('join.invites', { organization: a.organization.name, inviter: a.inviterName, email: a.email })
          : t('join.invitesNoInviter', { organization: a.organization.name, email: a.email })}
      </p>
      <dl className="join-facts">
        <dt>{t('join.workspace')}</dt>
        <dd>{a.workspace.name}</dd>
        <dt>{t('join.organization')}</dt>
        <dd>{a.organization.name}</dd>
        <dt>{t('join.email')}</dt>
        <dd>{a.email}</dd>
        <dt>{t('join.rights')}</dt>
        <dd>
          <ul>
            <li>{a.isPublic ? t('join.seesAll') : t('join.seesOwn')}</li>
            <li>{a.isEditable ? t('join.canEdit') : t('join.cannotEdit')}</li>
          </ul>
        </dd>
      </dl>
      <p className="hint">{t('join.expiresAt', { date })}</p>
      {signedIn ? (
        <Accept token={token} workspaceName={a.workspace.name} joinPath={joinPath} />
      ) : (
        <>
          <p>{t('join.signedOutIntro')}</p>
          <p className="join-actions">
            <Link to="/login" search={{ invitationToken: token, redirect: joinPath }} className="button primary">
              {t('join.login')}
            </Link>
            <Link to="/signup" search={{ invitationToken: token, redirect: joinPath }} className="button">
              {t('join.signup')}
            </Link>
          </p>
        </>
      )}
    </>
  );
}

function Accept({ token, workspaceName, joinPath }: { token: string; workspaceName: string; joinPath: string }) {
  const { t } = useTranslation('partners');
  const navigate = useNavigate();
  const me = useQuery(currentUserQueryOptions());
  const accept = useAcceptWorkspaceInvitation();
  const dead = deadLinkOf(accept.error);
  if (dead) return <DeadLinkNotice kind={dead} />;
  const user = me.data?.attributes;
  const organization = user?.organization.name ?? '';
  const join = () =>
    accept.mutate(token, {
      onSuccess: (workspace) => {
        toast.success(t('join.joined', { name: workspaceName }));
        void navigate({ to: '/organizations/workspaces/$workspaceId', params: { workspaceId: workspace.id } });
      },
    });
  return (
    <>
      {user && <p>{t('join.signedInAs', { user: user.name, organization })}</p>}
      <p className="hint">{t('join.whoMayAccept')}</p>
      <ApiErrorNotice error={accept.error} />
      <p className="join-actions">
        <button type="button" className="button primary" onClick={join} disabled={!user || accept.isPending}>
          {accept.isPending ? t('join.accepting') : t('join.accept', { organization })}
        </button>
        <Link to="/login" search={{ invitationToken: token, redirect: joinPath }} className="button">
          {t('join.otherAccount')}
        </Link>
      </p>
    </>
  );
}

const DEAD_TEXTS = {
  invalid: ['deadLink.invalidTitle', 'deadLink.invalidBody'],
  expired: ['deadLink.expiredTitle', 'deadLink.expiredBody'],
  used: ['deadLink.usedTitle', 'deadLink.usedBody'],
} as const;

/** The page of a dead link: its own title and explanation for each of invalid, expired and used. */
export function DeadLinkPage({ kind }: { kind: DeadLink }) {
  const { t } = useTranslation('partners');
  return (
    <PublicFrame title={t(DEAD_TEXTS[kind][0])}>
      <DeadLinkNotice kind={kind} />
    </PublicFrame>
  );
}

function DeadLinkNotice({ kind }: { kind: DeadLink }) {
  const { t } = useTranslation('partners');
  return (
    <div className={`dead-link dead-link-${kind}`}>
      <p role="alert" className="form-error">
        {t(DEAD_TEXTS[kind][1])}
      </p>
      <p className="links">
        {sessionGuard.hasSession() ? (
          <Link to="/">{t('join.toHome')}</Link>
        ) : (
          <Link to="/login">{t('deadLink.toLogin')}</Link>
        )}
      </p>
    </div>
  );
}
