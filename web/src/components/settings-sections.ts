/**
 * The organization settings area (/organizations/settings/*), in menu order. `adminOnly` sections are hidden from
 * users who are not organization administrators (the API refuses them anyway). The seal images, e-certificate and
 * agents sections are each user's own signing settings.
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
  { path: 'seal-images', key: 'sealImages', adminOnly: false },
  { path: 'e-certificate', key: 'eCertificate', adminOnly: false },
  { path: 'agents', key: 'agents', adminOnly: false },
] as const;

export type SettingsSectionPath = (typeof SETTINGS_SECTIONS)[number]['path'];
