import { useMutation } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi } from '../../../session/session.ts';

export type UserIdReminderAttributes = components['schemas']['UserIdReminderRequest']['data']['attributes'];

/** POST /user-id-reminders (requestUserIdReminder): always 202, whether or not the address is registered. */
export async function requestUserIdReminder(attributes: UserIdReminderAttributes): Promise<void> {
  unwrap(
    await anonymousApi.POST('/user-id-reminders', {
      body: { data: { type: 'UserIdReminder', attributes } },
      parseAs: 'text',
    }),
  );
}

export function useRequestUserIdReminder() {
  return useMutation({ mutationFn: requestUserIdReminder });
}
