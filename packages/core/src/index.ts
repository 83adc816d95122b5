export {
  FIXED_CATEGORIES,
  CATEGORY_TEMPLATES,
  MAX_CATEGORY_NOTE_LENGTH,
  isFixedCategory,
  isCategoryTemplate,
  categoryName,
} from './domain/categories.js';
export type { FixedCategory, CategoryTemplate } from './domain/categories.js';
export {
  ROLES,
  canApproveUsers,
  canManageAllUsers,
  canSetRole,
  canDeleteUser,
  canReassignClients,
  canManageAllClients,
  canAccessClient,
  roleTag,
} from './domain/roles.js';
export type { Role, Actor, Target } from './domain/roles.js';
export {
  messages,
  uploadFailedMessage,
  deleteSelectedConfirm,
  deleteCategoryConfirm,
  resendCountdownLabel,
} from './domain/messages.js';
export { formatBytes, formatMegabytes } from './domain/format.js';
export {
  CODE_LENGTH,
  RESEND_COOLDOWN_SECONDS,
  CATEGORY_DIALOG_SCROLL_PX,
  MIN_PIN_LENGTH,
  MAX_PIN_LENGTH,
  zipFileName,
} from './domain/constants.js';
export {
  MAX_FILE_NAME_BYTES,
  fileExtension,
  safeFileName,
  applyRenameRule,
  uploadContentType,
  isClientId,
  buildDocKey,
  parseDocKey,
  keyOrder,
} from './domain/files.js';
export type { DocKeyParts } from './domain/files.js';
export { endpoints, fillPath, isStateChanging, CSRF_COOKIE, CSRF_HEADER } from './api/endpoints.js';
export type { EndpointDef, Endpoints, EndpointName } from './api/endpoints.js';
export * as schemas from './api/schemas.js';
export type { User, Client, DocItem, Volunteer, AuditEntry, OutboxMail } from './api/schemas.js';
