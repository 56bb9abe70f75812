// The catalogue: every operation any face performs, by aggregate, for the faces (REST routes,
// MCP tools, dashboard, command line, first start). Each takes (ctx, principal, [profileKey,]
// input, { dryRun }); `operator` ones take no principal (the command line holds the machine).
// test/core/catalogue.test.ts checks that every route row, tool, form handler and command
// calls one of these or is declared face-only.
export { accountUseCases as account } from './account-use-cases.ts'
export { analyticsUseCases as analytics } from './analytics-use-cases.ts'
export { demoUseCases as demo } from './demo-page.ts'
export { domainUseCases as domains } from './domain-use-cases.ts'
export { ConnectDomainInput, CustomDomain, domainPageUrl, DomainAnswer, type DomainAnswer as DomainAnswerType } from './domain-use-cases.ts'
export { editorUseCases as editor } from './editor-use-cases.ts'
export { fileUseCases as files } from './file-use-cases.ts'
export { formSubmissionUseCases as formSubmissions } from './form-submission-use-cases.ts'
export { grantUseCases as grants } from './grant-use-cases.ts'
export { runIdempotent } from './idempotent.ts'
export { musicUseCases as music } from './music-use-cases.ts'
export { operatorUseCases as operator } from './operator-use-cases.ts'
export { pageRenderingUseCases as render } from './page-rendering.ts'
export { passwordResetUseCases as passwordReset, RESET_MINUTES } from './password-reset.ts'
export { EMAIL_CHANGE_MINUTES } from './email-change.ts'
export { pageExportUseCases as pageExport } from './page-export.ts'
export { pageImportUseCases as pageImport } from './page-import.ts'
export { foreignImportUseCases as foreignImport } from './page-import-foreign.ts'
export { profileUseCases as profiles } from './profile-use-cases.ts'
export { slotTypeUseCases as slotTypes } from './slot-type-use-cases.ts'
export { slotUseCases as slots } from './slot-use-cases.ts'
export { tokenUseCases as tokens } from './token-use-cases.ts'
export { sessionUseCases as sessions, type SessionView } from './session-use-cases.ts'
export { singleSignOnUseCases as singleSignOn, type ProviderIdentity, type SsoRefusal } from './single-sign-on-use-cases.ts'
export { passkeyUseCases as passkeys, type PasskeyView } from './passkey-use-cases.ts'
export { twoFactorUseCases as twoFactor, type TwoFactorStatus } from './two-factor-use-cases.ts'
export { secondFactorUseCases as secondFactor, type SecondFactorAnswer, type SecondFactors } from './second-factor-use-cases.ts'
export { visitorUseCases as visitor } from './visitor-use-cases.ts'
export { slotMoveUseCases as slotMoves } from './slot-move-use-cases.ts'
export { socialLinkUseCases as socialLinks } from './social-link-use-cases.ts'
export { slotVisibilityUseCases as slotVisibility } from './slot-visibility-use-cases.ts'
export { webhookUseCases as webhooks } from './webhook-use-cases.ts'
export {
  DeliveriesQuery,
  Delivery,
  Endpoint as WebhookEndpoint,
  EndpointChanges as WebhookEndpointChanges,
  NewEndpoint as NewWebhookEndpoint,
  SecretRotation,
} from './webhook-use-cases.ts'
export type { ProfileKey, WriteOptions } from './unit-of-work.ts'
export type { OwnerConfirmation, OwnerProof, User } from './account-use-cases.ts'
export { FORM_FIELD_TYPE_LABELS, FORM_FIELD_TYPES, utcToWallTime } from './editor-use-cases.ts'
export { UploadedFile, UploadFromUrl, UploadUrlGrant } from './file-use-cases.ts'
export {
  FormSubmission,
  SubmissionsForm,
  type SubmissionsFormView,
  SubmissionsMeta,
  type SubmissionsPage,
  SubmissionsQuery,
} from './form-submission-use-cases.ts'
export type { ConnectedApp } from './grant-use-cases.ts'
export { LookupQuery } from './music-use-cases.ts'
export { pageDocumentSchemaUrl } from './page-export.ts'
export { ForeignImportRequest } from './page-import-foreign.ts'
export { ImportResult } from './page-import.ts'
export type { StoredProfile } from './profile-use-cases.ts'
export { MoveSlotInput } from './slot-move-use-cases.ts'
export { DeleteBody, NewSlotBody, NewSlotsBody, OrderBody, PatchSlotBody, PatchSlotsBody, SlotIds } from './slot-use-cases.ts'
export { DeleteSocialLinkInput, MoveSocialLinkInput, SocialLinkAnswer, UpsertSocialLinkInput } from './social-link-use-cases.ts'
export { ABILITIES, type Ability, tokenNameProblem, type TokenRecord } from './token-use-cases.ts'
export { describeRule, type LimitGroup, takeTokenLimit, waitSeconds } from '../infra/token-limits.ts'
export { checkIdempotencyKey, claimIdempotencyKey } from './idempotent.ts'
export { SlotData } from './slot-use-cases.ts'
