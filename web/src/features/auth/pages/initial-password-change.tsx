import { getRouteApi } from '@tanstack/react-router';
import { PasswordChangeForm } from '../components/password-change-form.tsx';

const route = getRouteApi('/initial-password-change');

/** The first sign-in with a temporary password: the user sets their own password, then is signed in. */
export function InitialPasswordChangePage() {
  return <PasswordChangeForm variant="initial" search={route.useSearch()} />;
}
