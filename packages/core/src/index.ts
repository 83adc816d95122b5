export * from './contract.js';
export { createLinkApi, LINK_CALLS } from './client-link/link-api.js';
export type { LinkApi, LinkApiOptions } from './client-link/link-api.js';
export { createApiClient, readCookie, httpError } from './api/client.js';
export type {
  ApiClient,
  ApiClientOptions,
  CallOptions,
  EndpointArgs,
  EndpointMethod,
  EndpointResult,
} from './api/client.js';
export { createFetchPutFile, uploadToPresignedUrl, uploadDocument } from './api/upload.js';
export type {
  PutFile,
  PutFileResult,
  ProgressListener,
  UploadTransport,
  UploadTarget,
} from './api/upload.js';
export type {
  FileLike,
  FetchLike,
  Clock,
  KeyValueStorage,
  Dialogs,
  FileSaver,
  Logger,
  Connectivity,
} from './ports.js';
export { createStore } from './store.js';
export type { Store, Listener, Flow } from './store.js';
export { STORAGE_KEYS } from './flows/storage-keys.js';
export { createLoginFlow } from './flows/login/login.js';
export type { LoginFlow, LoginFlowOptions, LoginState, LoginEvent } from './flows/login/login.js';
export { createForgotFlow } from './flows/forgot/forgot.js';
export type { ForgotFlow, ForgotFlowOptions, ForgotState, ForgotEvent } from './flows/forgot/forgot.js';
export { createResendFlow } from './flows/resend/resend.js';
export type { ResendFlow, ResendFlowOptions, ResendState, ResendEvent } from './flows/resend/resend.js';
export { createClientLinkFlow } from './flows/client-link/client-link.js';
export type {
  ClientLinkFlow,
  ClientLinkFlowOptions,
  ClientLinkState,
  ClientLinkEvent,
} from './flows/client-link/client-link.js';
export { createUploadFlow } from './flows/upload/upload.js';
export { canChangeFile, canRetryNow } from './flows/upload/upload-state.js';
export { defaultRetryPolicy, RETRY_DELAYS_SECONDS } from './flows/upload/retry-policy.js';
export type { RetryPolicy, RetryDecision } from './flows/upload/retry-policy.js';
export type {
  JournalEntry,
  KeptChoice,
  UploadJournal,
  UploadJournals,
  KeptFile,
  OpenedJournal,
} from './flows/upload/journal.js';
export {
  fetchJournalKey,
  holdJournalKey,
  NOT_THE_OWNER,
  openingKey,
  sealingKey,
} from './flows/upload/journal-key.js';
export type { HeldJournalKey, JournalKey, JournalKeySource, SealingKey } from './flows/upload/journal-key.js';
export { createUploadQueues } from './flows/upload-queues/upload-queues.js';
export type { UploadQueuesEngine } from './flows/upload-queues/upload-queues.js';
export { NO_OFFER } from './flows/upload-queues/types.js';
export type {
  FileClaims,
  KeptOffer,
  QueueScreen,
  QueuesSummary,
  TrayItem,
  UploadQueueSet,
  UploadQueuesPorts,
  UploadQueuesShared,
} from './flows/upload-queues/types.js';
export { createLinkCapture } from './flows/link-capture/link-capture.js';
export { awaitsQualityChoice } from './flows/link-capture/parts.js';
export type {
  CaptureThumb,
  LinkCapture,
  LinkCapturePage,
  LinkCapturePorts,
  LinkJournal,
} from './flows/link-capture/types.js';
export type { LinkFileRef, LinkReadingNote, LinkReadingsState } from './flows/link-capture/readings.js';
export { createScanFlow } from './flows/scan/scan.js';
export { STAFF_SCAN_TEXTS } from './flows/scan/scan-texts.js';
export type { ScanTexts, ScanFlowTexts } from './flows/scan/scan-texts.js';
export type { ScanFlow, ScanFlowOptions, ScanState, ScanEvent, ScanPageItem } from './flows/scan/scan.js';
export type { UploadFlow, UploadFlowOptions, CategoryUploadPorts } from './flows/upload/upload.js';
export type {
  UploadState,
  UploadEvent,
  QueuedFile,
  FileProgress,
  FailedProgress,
  ConvertImage,
  InspectImage,
} from './flows/upload/upload-state.js';
export { readConvertPreference, writeConvertPreference } from './flows/upload/preference.js';
export { createRetakeFlow } from './flows/retake/retake.js';
export type { RetakeFlow, RetakeFlowOptions, RetakeState, RetakeEvent } from './flows/retake/retake.js';
export { createRenameFlow } from './flows/rename/rename.js';
export type {
  RenameFlow,
  RenameFlowOptions,
  RenameState,
  RenameEvent,
  RenamedFile,
} from './flows/rename/rename.js';
export { createFileListFlow, sortByKeyOrder, allSelected } from './flows/file-list/file-list.js';
export type {
  FileListFlow,
  FileListFlowOptions,
  FileListState,
  FileListEvent,
} from './flows/file-list/file-list.js';
export { createReassignFlow, canConfirmReassign } from './flows/reassign/reassign.js';
export type {
  ReassignFlow,
  ReassignFlowOptions,
  ReassignState,
  ReassignEvent,
  ClientOwner,
} from './flows/reassign/reassign.js';
export { createOptimisticList } from './flows/admin-lists/optimistic-list.js';
export type {
  OptimisticListFlow,
  OptimisticListOptions,
  OptimisticListState,
  OptimisticListEvent,
} from './flows/admin-lists/optimistic-list.js';
export { createUserListFlow, createClientListFlow } from './flows/admin-lists/admin-lists.js';
export { createSessionFlow } from './flows/session/session.js';
export { createSubmissionFlow } from './flows/retention/submission.js';
export type {
  SubmissionFlow,
  SubmissionFlowOptions,
  SubmissionState,
  SubmissionEvent,
} from './flows/retention/submission.js';
export type {
  RememberedUser,
  SessionFlow,
  SessionFlowOptions,
  SessionState,
  SessionEvent,
  SignedOutReason,
} from './flows/session/session.js';
export type { FormState } from './flows/forms/form-flow.js';
export { createRegisterFlow } from './flows/forms/register.js';
export type {
  RegisterFlow,
  RegisterFlowOptions,
  RegisterState,
  RegisterEvent,
} from './flows/forms/register.js';
export { createNewClientFlow } from './flows/forms/new-client.js';
export type {
  NewClientFlow,
  NewClientFlowOptions,
  NewClientState,
  NewClientEvent,
} from './flows/forms/new-client.js';
export { createApprovalsFlow } from './flows/accounts/approvals.js';
export type {
  ApprovalsFlow,
  ApprovalsFlowOptions,
  ApprovalsState,
  ApprovalsEvent,
} from './flows/accounts/approvals.js';
export type { UserActionPorts } from './flows/accounts/user-actions.js';
export { createUserDetailFlow } from './flows/accounts/user-detail.js';
export type {
  UserDetailFlow,
  UserDetailFlowOptions,
  UserDetailState,
  UserDetailEvent,
} from './flows/accounts/user-detail.js';
export { createAuditLogFlow, createAuditExportFlow, NO_FILTERS } from './flows/audit-log/audit-log.js';
export type {
  AuditFilters,
  AuditLogFlow,
  AuditLogState,
  AuditLogEvent,
  AuditExportFlow,
  AuditExportFlowOptions,
  AuditExportState,
  AuditExportEvent,
} from './flows/audit-log/audit-log.js';
export { createClientDocsFlow, canAddType } from './flows/clients/client-docs.js';
export { deleteCategory, findClientCard } from './flows/clients/client-card.js';
export type {
  ClientDocsFlow,
  ClientDocsFlowOptions,
  ClientDocsState,
  ClientDocsEvent,
  DocCategory,
  AddTypeDialog,
} from './flows/clients/client-docs.js';
export { createVisibleClientsFlow } from './flows/clients/visible-clients.js';
export type {
  VisibleClientsFlow,
  VisibleClientsFlowOptions,
  VisibleClientsState,
  VisibleClientsEvent,
} from './flows/clients/visible-clients.js';
export { createDownloadAllFlow, canDownload, downloadPercent } from './flows/download-all/download-all.js';
export type {
  DownloadAllFlow,
  DownloadAllFlowOptions,
  DownloadAllState,
  DownloadAllEvent,
  DownloadChoice,
} from './flows/download-all/download-all.js';
export { createFileViewerFlow } from './flows/file-viewer/file-viewer.js';
export type {
  FileViewerFlow,
  FileViewerFlowOptions,
  FileViewerState,
  FileViewerEvent,
  PreviewKind,
} from './flows/file-viewer/file-viewer.js';
export { createInboxQueue, canAddScan } from './flows/scanner-inbox/inbox-queue.js';
export type {
  InboxQueue,
  InboxQueueOptions,
  InboxQueueState,
  InboxQueueEvent,
} from './flows/scanner-inbox/inbox-queue.js';
export type { ScannerInbox } from './flows/scanner-inbox/scanner-inbox.js';
export type { ScannerInboxSnapshot, InboxScanView } from './flows/scanner-inbox/inbox-snapshot.js';
export { createConsentTextFlow } from './flows/consent-text/consent-text.js';
export type {
  ConsentTextFlow,
  ConsentTextFlowOptions,
  ConsentTextState,
  ConsentTextEvent,
  ConsentTextOutcome,
} from './flows/consent-text/consent-text.js';
export { createProgrammeNameFlow } from './flows/programme-name/programme-name.js';
export type {
  ProgrammeNameFlow,
  ProgrammeNameFlowOptions,
  ProgrammeNameState,
  ProgrammeNameEvent,
} from './flows/programme-name/programme-name.js';
export {
  createLinkRequestFlow,
  canSend as canSendLinkRequest,
  requestLine,
} from './flows/client-link/link-request.js';
export type {
  LinkRequestFlow,
  LinkRequestFlowOptions,
  LinkRequestState,
  LinkRequestEvent,
  LinkRequestForm,
  RequestableCategory,
  RequestLine,
} from './flows/client-link/link-request.js';
export { createPasskeyPolicyFlow } from './flows/passkey-policy/passkey-policy.js';
export type {
  PasskeyPolicyFlow,
  PasskeyPolicyFlowOptions,
  PasskeyPolicyState,
  PasskeyPolicyEvent,
} from './flows/passkey-policy/passkey-policy.js';
export {
  createMyReadingFlow,
  createProgrammeReadingFlow,
} from './flows/reading-switches/reading-switches.js';
export type {
  ReadingSwitchFlow,
  ReadingSwitchState,
  ReadingSwitchEvent,
} from './flows/reading-switches/reading-switches.js';
export type { SaveOutcome, SettingsFormState } from './flows/settings-form/settings-form.js';
export { createRetentionFlow, retentionDaysValid } from './flows/retention/retention.js';
export type {
  RetentionFlow,
  RetentionFlowOptions,
  RetentionState,
  RetentionEvent,
  RetentionOutcome,
} from './flows/retention/retention.js';
export { createSeasonFlow, canCloseSeason } from './flows/season/season.js';
export type { SeasonFlow, SeasonFlowOptions, SeasonState, SeasonEvent } from './flows/season/season.js';
export { createOverviewFlow, lastThirtyDays } from './flows/overview/overview.js';
export type { OverviewFlow, OverviewState, OverviewEvent } from './flows/overview/overview.js';
export {
  imageToLetterPdf,
  createImageConverter,
  jpegToLetterPdf,
  letterLayout,
  PDF_MAX_IMAGE_SIDE,
  PDF_JPEG_QUALITY,
  PDF_MARGIN,
  LETTER_SIZE,
} from './pdf/letter-pdf.js';
export type { ImageToPdfPorts, ImageToPdfOptions, LetterLayout } from './pdf/letter-pdf.js';
export { imagesToLetterPdf, ScanPageError } from './pdf/scan-pdf.js';
export type { ScanOptions } from './pdf/scan-pdf.js';
export { MAX_SCAN_PAGES } from './pdf/scan-page.js';
export type { ScanPage } from './pdf/scan-page.js';
export { isConvertibleImage, isHeicFile, isPhotoFile, pdfFileName } from './pdf/convertible.js';
export { canConvertImage } from './pdf/can-convert.js';
export { assessImage, qualityWarnings, QUALITY_THRESHOLDS } from './quality/assess.js';
export { isQualityFault, NOTICE_WARNINGS } from './quality/warnings.js';
export {
  orderCorners,
  rectToQuad,
  project,
  straightenedSize,
  keepWholeReason,
} from './straighten/geometry.js';
export type { Point, Quad, Homography, KeepWholeReason } from './straighten/geometry.js';
export { findOutline, straightenPixels } from './straighten/page.js';
export type { PageCrop, PageOutline } from './straighten/page.js';
export { measurePagePixels } from './quality/page-metrics.js';
export type { PageMetrics } from './quality/page-metrics.js';
export type { QualityWarning, ImageMetrics, ImageAssessment } from './quality/assess.js';
export { measureGray, grayFromPixels, QUALITY_SAMPLE_SIDE } from './quality/metrics.js';
export type { GrayMetrics, PixelOrder } from './quality/metrics.js';
export { readImageInfo, sniffFormat, exifOrientation } from './pdf/image-info.js';
export type { ImageInfo, ImageFormat } from './pdf/image-info.js';
export { decodeBmp } from './pdf/bmp.js';
export type { RgbaImage } from './pdf/bmp.js';
export type {
  RasterPort,
  RasterRequest,
  RasterResult,
  QuarterTurn,
  ImageCheckPort,
  MeasureRequest,
  DecodeRequest,
  PagePixels,
  PagePixelsPort,
} from './pdf/raster.js';
// The verdict and its texts only: the rule table and the ID parsers load with a reader
// (`@vita-docs/core/browser`, `@vita-docs/core/node`), never with a page.
export { categoryForm, seasonTaxYear, readingVerdict } from './reading/verdict.js';
export { READING_TEXTS, verdictText } from './reading/texts.js';
export type { ReadableForm } from './reading/forms.js';
export type { DocumentReader, DocumentReading, ReadingEngine } from './reading/reader.js';
export type { ReadingVerdict } from './reading/verdict.js';
export type { ReadingTexts } from './reading/texts.js';
