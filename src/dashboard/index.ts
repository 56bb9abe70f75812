import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.ts'
import { sessionsRepository } from '../store/sessions.ts'
import { accountSettingsPages } from './account-settings.ts'
import { appPages } from './apps.ts'
import { registerPages as registrationPages } from './register.ts'
import { type PageRow, registerPages } from './page-routes.ts'
import { dashboardScope } from './scope.ts'
import { myLinksPages } from './my-links.ts'
import { pageTransferPages } from './page-transfer.ts'
import { profilePages } from './profile-page.ts'
import { signInPages } from './sign-in.ts'
import { schedulePeriodic } from '../jobs/periodic-job.ts'
import { themePickerPages } from './theme-picker.ts'
import { tokenPages } from './tokens.ts'
import { connectedApps } from '../oauth/grants.ts'
import { consentPages } from '../oauth/consent-pages.ts'

/**
 * The account dashboard. Every first path segment here is one of the spec's reserved logins
 * (login, logout, register, settings, my-links), so no user's page can ever shadow it; `/`
 * has no segment at all.
 */
export function installDashboard(app: FastifyInstance, ctx: AppContext): void {
  const pages: PageRow[] = [
    ...signInPages, // GET / (to the dashboard), GET/POST /login, POST /logout, 404 pages under /settings/* and /my-links/*
    ...registrationPages, // GET/POST /register
    ...accountSettingsPages, // GET/POST /settings, POST /settings/password
    ...tokenPages, // GET/POST /settings/tokens, POST /settings/tokens/:tokenId/revoke
    ...appPages(connectedApps), // GET /settings/apps, POST /settings/apps/:grantId/disconnect
    ...consentPages, // GET/POST /oauth/authorize (OAuth consent, on the dashboard's session)
    ...myLinksPages, // GET/POST /my-links, GET /my-links/check-login
    ...profilePages, // GET /my-links/:profileId (+ /qr.svg, /qr.png), POST …/login, POST …/delete
    ...themePickerPages, // POST /my-links/:profileId/theme, GET /my-links/:profileId/preview/:themeId
    ...pageTransferPages, // GET /my-links/:profileId/export, POST /my-links/import
  ]
  dashboardScope(app, ctx, (scope) => registerPages(scope, ctx, pages))

  // Redis expires its own records; in SQL, expired sessions are swept hourly.
  if (!ctx.redis) {
    schedulePeriodic(ctx, {
      name: 'sessions-purge',
      everyMs: 3600_000,
      run: async () => {
        await sessionsRepository.purgeExpired(ctx.db, new Date().toISOString())
        return undefined
      },
    })
  }
}
