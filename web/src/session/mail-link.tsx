import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { api } from './session.ts';

/** The `mailToken` of the address bar, when the page was opened from a task mail's link. */
function mailTokenOfLocation(): string | null {
  return new URLSearchParams(window.location.search).get('mailToken');
}

/**
 * POST /me/email-confirmation/mail-link (confirmEmailByMailLink): a signed-in user opening a task mail's link
 * proves the mail arrived at their address. Answers whether the address is confirmed now; a failure counts as not.
 */
async function confirmByMailLink(token: string): Promise<boolean> {
  const { data } = await api.POST('/me/email-confirmation/mail-link', {
    body: { data: { type: 'EmailConfirmation', attributes: { token } } },
  });
  return data?.data.attributes.confirmed ?? false;
}

/**
 * Inside the session gate: when the page was opened with a task mail's `mailToken`, sends it once before the page
 * renders (so the signing screen never asks for an arrival confirmation the link just gave), records the result in
 * the current user, and takes the token out of the address bar (and so out of the history and of shared links).
 */
export function MailLinkConfirmation({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState(() => mailTokenOfLocation() !== null);
  const sent = useRef(false);

  useEffect(() => {
    const token = mailTokenOfLocation();
    if (!token || sent.current) return;
    sent.current = true;
    void (async () => {
      const confirmed = await confirmByMailLink(token).catch(() => false);
      if (confirmed) await queryClient.invalidateQueries({ queryKey: ['me'] });
      const search = new URLSearchParams(window.location.search);
      search.delete('mailToken');
      const rest = search.toString();
      await navigate({ href: `${window.location.pathname}${rest ? `?${rest}` : ''}`, replace: true });
      setPending(false);
    })();
  }, [navigate, queryClient]);

  return pending ? null : children;
}
