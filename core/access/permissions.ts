import type { Principal } from '../http/context.ts';

/** Permissions a route can require; each is decided from the principal alone. */
export const PERMISSIONS = {
  /** Organization info, password policy, roles, templates and access restriction. */
  'organization:manage': (p: Principal) => p.isAdmin,
  'users:manage': (p: Principal) => p.isAdmin,
  /** Requests a change of plan or paid options (the service operator applies it: plans are billed). */
  'organization:owner': (p: Principal) => p.isOwner,
  'logs:download': (p: Principal) => p.isAdmin,
  'mail:read': (p: Principal) => p.isAdmin,
} as const satisfies Record<string, (principal: Principal) => boolean>;

export type Permission = keyof typeof PERMISSIONS;

export function hasPermission(principal: Principal, permission: Permission): boolean {
  return PERMISSIONS[permission](principal);
}
