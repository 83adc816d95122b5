/**
 * `@vita-docs/core/contract`: the wire contract and the rules both ends share, and nothing that runs a
 * flow or makes a PDF: the endpoint table and its zod schemas, the error codes, the domain rules
 * (categories, roles, file names, limits) and the texts. The server imports this entry only (lint
 * keeps the root barrel out of apps/server), so its start never loads the flows or pdf-lib.
 */
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
  deleteFailedMessage,
  duplicateNote,
  qualityWarningMessage,
  scanDiscardConfirm,
  filesUploadedMessage,
  discardKeptConfirm,
  notUploadedYetMessage,
  seasonClosePhrase,
  filesWaitingMessage,
  offlineKeptMessage,
  filesLostMessage,
  filesDeletedForOtherMessage,
  logoutWithWaitingConfirm,
  uploadingTrayLabel,
  waitingTrayLabel,
  fileTooLargeMessage,
  makeOfficerQuestion,
  roleChangeConfirm,
  longDate,
  markSubmittedConfirm,
  submittedOnText,
  documentsDeletedOnText,
  retentionReachText,
} from './domain/messages.js';
export { passkeyConfirmSent, passkeyMessages, removePasskeysConfirm } from './domain/passkey-messages.js';
export {
  formatBytes,
  formatDate,
  formatDateTime,
  formatMegabytes,
  fullName,
  scanFileName,
  searchFold,
} from './domain/format.js';
export { AUDIT_ACTIONS } from './domain/audit.js';
export { AUDIT_ACTION_LABELS, auditActionLabel, auditActorLabel, auditFiles } from './domain/audit-labels.js';
export type { AuditAction } from './domain/audit.js';
export {
  CODE_LENGTH,
  RESEND_COOLDOWN_SECONDS,
  KEPT_UPLOADS_LIFETIME_HOURS,
  RETENTION_MIN_DAYS,
  RETENTION_MAX_DAYS,
  RETENTION_NOTICE_DAYS,
  CATEGORY_DIALOG_SCROLL_PX,
  MIN_PIN_LENGTH,
  MAX_PIN_LENGTH,
  zipFileName,
} from './domain/constants.js';
export {
  MAX_FILE_NAME_BYTES,
  fileExtension,
  safeFileName,
  documentFileName,
  applyRenameRule,
  captureFileName,
  refusalBeforeUpload,
  uploadContentType,
  mediaType,
  buildDocKey,
  parseDocKey,
  keyOrder,
} from './domain/files.js';
export type { DocKeyParts } from './domain/files.js';
export { isClientId } from './domain/client-id.js';
export { endpoints } from './api/endpoints.js';
export { fillPath, isStateChanging, readCsrfToken, CSRF_COOKIE, CSRF_HEADER } from './api/endpoint-def.js';
export type { EndpointDef } from './api/endpoint-def.js';
export type { Endpoints, EndpointName } from './api/endpoints.js';
import * as schemas from './api/schemas.js';
/** Every zod schema of the wire contract, by name (e.g. `schemas.User`). */
export { schemas };
export type {
  User,
  Client,
  DocItem,
  DuplicateOf,
  Volunteer,
  AuditEntry,
  AuditQuery,
  AuditList,
  RetentionSettings,
  RetentionStatus,
  SubmissionStatus,
  SeasonSummary,
  ProgrammeOverview,
  OutboxMail,
  JournalKeyResponse,
  Passkey,
  PasskeyList,
} from './api/schemas.js';
export * as linkSchemas from './api/link-schemas.js';
export {
  LINK_DAYS_DEFAULT,
  LINK_DAYS_MAX,
  LINK_MAX_FILES,
  LINK_MESSAGE_MAX,
  LINK_STATES,
  CONSENT_TEXT_MAX,
  PROGRAMME_NAME_MAX,
} from './api/link-schemas.js';
export type {
  ConsentTextStatus,
  CreateLinkResponse,
  LinkChecklist,
  LinkFile,
  LinkOpenResponse,
  LinkStatusResponse,
  NewFromClientsResponse,
} from './api/link-schemas.js';
export {
  CLIENT_LINK_TEXTS,
  clientLinkText,
  consentStatement,
  fillPlaces,
  maskEmail,
  PROGRAMME_NAME_DEFAULT,
  VOLUNTEER_DONE_MAIL,
} from './client-link/texts.js';
export { CATEGORY_HINTS, categoryHint } from './client-link/category-hints.js';
export type { ClientLinkTextKey, ClientLinkTexts } from './client-link/texts.js';
export { CLIENT_LINK_LANGUAGES } from './client-link/languages.js';
export type { ClientLinkLanguage } from './client-link/languages.js';
export {
  CLIENT_CAPTURE_TEXTS,
  clientCaptureText,
  clientQualityWarning,
  clientScanTexts,
} from './client-link/capture-texts.js';
export type { CaptureTextKey } from './client-link/capture-texts.js';
export {
  ApiError,
  isApiError,
  errorMessage,
  ERROR_CODES,
  errorCodeForStatus,
  isErrorCode,
} from './api/errors.js';
export type { ApiErrorKind, ErrorCode } from './api/errors.js';
