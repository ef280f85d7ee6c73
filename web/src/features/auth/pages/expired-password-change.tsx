import { getRouteApi } from '@tanstack/react-router';
import { PasswordChangeForm } from '../components/password-change-form.tsx';

const route = getRouteApi('/expired-password-change');

/** A password past the organization's expiry: the user sets a new one, then is signed in. */
export function ExpiredPasswordChangePage() {
  return <PasswordChangeForm variant="expired" search={route.useSearch()} />;
}
