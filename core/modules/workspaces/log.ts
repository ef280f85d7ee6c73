import { changeLogger } from '../logs/operation-log.ts';

/** Appends a workspace change to the operation log of the actor's (the owner) organization. */
export const logWorkspaceChange = changeLogger('workspace');
