import type { RouteModule } from '../http/routes.ts'
import analytics from './analytics-routes.ts'
import discovery from './discovery-routes.ts'
import domains from './domain-routes.ts'
import files from './file-routes.ts'
import formSubmissions from './form-submission-routes.ts'
import music from './music-routes.ts'
import pageTransfer from './page-transfer-routes.ts'
import profiles from './profile-routes.ts'
import slotTypes from './slot-type-routes.ts'
import slots from './slot-routes.ts'
import webhooks from './webhook-routes.ts'

/** Every API module, in the spec's order; routes, OpenAPI and docs read this list. */
export const apiModules: RouteModule[] = [discovery, slotTypes, profiles, slots, music, files, analytics, formSubmissions, pageTransfer, webhooks, domains]
