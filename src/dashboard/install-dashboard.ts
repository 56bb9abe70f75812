import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.ts'
import { scheduleSessionPurge } from '../auth/dashboard-sessions.ts'
import { accountLifecyclePages } from './account-lifecycle.ts'
import { accountSettingsPages } from './account-settings.ts'
import { emailConfirmationPages } from './email-confirmation.ts'
import { appPages } from './apps.ts'
import { consentPages } from './consent-pages.ts'
import { leadsPages } from './leads.ts'
import { registerPages as registrationPages } from './register.ts'
import { type PageRow, registerPages } from './page-routes.ts'
import { dashboardScope } from './scope.ts'
import { myLinksPages } from './my-links.ts'
import { pageTransferPages } from './page-transfer-pages.ts'
import { profilePages } from './profile-page.ts'
import { signInPages } from './sign-in.ts'
import { secondStepPages } from './second-step.ts'
import { ssoPages } from './sso-pages.ts'
import { twoFactorPages } from './two-factor-settings.ts'
import { passkeyPages } from './passkey-settings.ts'
import { passkeySignInPages } from './passkey-sign-in.ts'
import { ownerProofPages } from './owner-proof-forms.ts'
import { sessionListPages } from './session-list.ts'
import { themePickerPages } from './theme-picker.ts'
import { tokenPages } from './token-pages.ts'
import { webhookPages } from './webhook-pages.ts'
import { domainPages } from './domain-pages.ts'
import { statisticsPages } from './statistics.ts'
import { accountStatisticsPages } from './account-statistics.ts'
import { welcomePages } from './welcome.ts'
import { editorPages } from './editor/editor-routes.ts'

/**
 * Every page of the account dashboard, in the order they are matched. Every first path segment
 * here is one of the spec's reserved logins (login, logout, register, settings, my-links, oauth),
 * so no user's page can ever shadow it; `/` has no segment at all.
 */
export const dashboardPages: PageRow[] = [
  ...signInPages, // GET / (the dashboard, or a welcome page for visitors), GET/POST /login, POST /logout, 404 pages under /settings/* and /my-links/*
  ...secondStepPages, // GET/POST /login/code (the second step after the password), POST /login/code/passkey-options, /login/code/passkey
  ...passkeySignInPages, // POST /login/passkey/options, POST /login/passkey (a passkey alone)
  ...ssoPages, // GET /login/sso (+ /callback), GET /settings/single-sign-on, POST …/link, …/unlink
  ...registrationPages, // GET/POST /register
  ...welcomePages, // GET /login/forgot
  ...accountSettingsPages, // GET/POST /settings, POST /settings/email (+ GET …/single-sign-on), POST /settings/password
  ...twoFactorPages, // GET /settings/two-factor, POST …/start, …/confirm, …/disable, …/recovery-codes
  ...passkeyPages, // GET /settings/passkeys, POST …/options, …/add, …/:id/rename, …/:id/remove, …/password
  ...ownerProofPages, // POST /settings/confirm/passkey-options (a passkey's challenge to confirm a change or an approval)
  ...sessionListPages, // GET /settings/sessions, POST …/end-others, POST …/:handle/end
  ...emailConfirmationPages, // GET/POST /settings/email/confirm (the link mailed to a new e-mail)
  ...accountLifecyclePages, // GET /settings/export, GET/POST /settings/delete, GET /settings/delete/single-sign-on
  ...tokenPages, // GET/POST /settings/tokens, POST /settings/tokens/:tokenId/revoke
  ...appPages, // GET /settings/apps, POST /settings/apps/:grantId/disconnect
  ...webhookPages, // GET/POST /settings/webhooks, GET /settings/webhooks/:endpointId (+ /remove), POST …/{test,secret,switch,remove}, POST …/deliveries/:deliveryId/again
  ...consentPages, // GET/POST /oauth/authorize (OAuth consent, on the dashboard's session)
  ...myLinksPages, // GET/POST /my-links, GET /my-links/check-login
  ...domainPages, // GET/POST /my-links/:profileId/domain, POST …/domain/{check,remove}
  ...profilePages, // GET /my-links/:profileId (+ /qr.svg, /qr.png), POST …/login, POST …/delete
  ...themePickerPages, // POST /my-links/:profileId/theme, GET /my-links/:profileId/preview/:themeId
  ...accountStatisticsPages, // GET /my-links/statistics[.csv]
  ...statisticsPages, // GET /my-links/:profileId/statistics[.csv]
  ...leadsPages, // GET /my-links/:profileId/leads[/:slotId[/submissions.csv]], POST …/:submissionId/delete
  ...editorPages, // GET /my-links/:profileId/editor (+ /preview), POST …/editor/{profile,images,socials,music,order,blocks…}
  ...pageTransferPages, // GET /my-links/:profileId/export, POST /my-links/import
]

export function installDashboard(app: FastifyInstance, ctx: AppContext): void {
  dashboardScope(app, ctx, (scope) => registerPages(scope, ctx, dashboardPages))

  scheduleSessionPurge(ctx)
}
