/**
 * The organization settings area (/organizations/settings/*), in menu order. `adminOnly` sections are hidden from
 * users who are not organization administrators (the API refuses them anyway); `directory` sections (users, groups)
 * are shown to organization administrators and group administrators only, whom the API lets read the directory. The
 * seal images, e-certificate and agents sections are each user's own signing settings. A section with a `feature`
 * (a plugin's screen) shows only when GET /me `organization.features` lists it: the plan has it and its plugin is on.
 */
export const SETTINGS_SECTIONS = [
  { path: 'users', key: 'users', adminOnly: false, directory: true },
  { path: 'groups', key: 'groups', adminOnly: false, directory: true },
  { path: 'roles', key: 'roles', adminOnly: true },
  { path: 'organization', key: 'organization', adminOnly: false },
  { path: 'password-policy', key: 'passwordPolicy', adminOnly: true },
  { path: 'ip-restrictions', key: 'ipRestrictions', adminOnly: true },
  { path: 'api-keys', key: 'apiKeys', adminOnly: true, feature: 'apiKeys' },
  { path: 'sso', key: 'sso', adminOnly: true, feature: 'sso' },
  { path: 'box', key: 'box', adminOnly: true, feature: 'box' },
  { path: 'webhooks', key: 'webhooks', adminOnly: true, feature: 'webhooks' },
  { path: 'ai-ocr', key: 'aiOcr', adminOnly: false, feature: 'aiOcr' },
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

/** What decides the sections a user sees: organization administrator, or administrator of one of their groups. */
export interface SettingsViewer {
  isAdmin: boolean;
  groups?: { isGroupAdmin?: boolean }[];
  /** GET /me `organization.features`: a section of a feature not listed is hidden. */
  features?: readonly string[];
}

/** The sections a user may use, in menu order: a non-administrator never sees a section that would refuse them. */
export function sectionsFor(viewer: SettingsViewer) {
  const groupAdmin = (viewer.groups ?? []).some((group) => group.isGroupAdmin);
  return SETTINGS_SECTIONS.filter((section) => {
    if ('feature' in section && !(viewer.features ?? []).includes(section.feature)) return false;
    if (viewer.isAdmin) return true;
    if (section.adminOnly) return false;
    return !('directory' in section) || groupAdmin;
  });
}
