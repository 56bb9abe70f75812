import type { RouteModule } from '../http/routes.ts'
import analytics from './analytics.ts'
import discovery from './discovery.ts'
import files from './files.ts'
import formSubmissions from './form-submissions.ts'
import music from './music.ts'
import pageTransfer from './page-transfer.ts'
import profiles from './profiles.ts'
import slotTypes from './slot-types.ts'
import slots from './slots.ts'
import webhooks from './webhooks.ts'

/** Every API module, in the spec's order; routes, OpenAPI and docs read this list. */
export const apiModules: RouteModule[] = [discovery, slotTypes, profiles, slots, music, files, analytics, formSubmissions, pageTransfer, webhooks]
