/**
 * The organization settings area (/organizations/settings/*), in menu order. `adminOnly` sections are hidden from
 * users who are not organization administrators (the API refuses them anyway).
 */
export const SETTINGS_SECTIONS = [
  { path: 'users', key: 'users', adminOnly: false },
  { path: 'groups', key: 'groups', adminOnly: false },
  { path: 'roles', key: 'roles', adminOnly: true },
  { path: 'organization', key: 'organization', adminOnly: false },
  { path: 'password-policy', key: 'passwordPolicy', adminOnly: true },
  { path: 'ip-restrictions', key: 'ipRestrictions', adminOnly: true },
  { path: 'properties', key: 'properties', adminOnly: true },
  { path: 'mail-templates', key: 'mailTemplates', adminOnly: true },
  { path: 'batch', key: 'batch', adminOnly: true },
  { path: 'logs', key: 'logs', adminOnly: true },
  { path: 'usage', key: 'usage', adminOnly: true },
] as const;

export type SettingsSectionPath = (typeof SETTINGS_SECTIONS)[number]['path'];
