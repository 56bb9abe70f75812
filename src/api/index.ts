import type { RouteModule } from '../http/routes.ts'
import discovery from './discovery.ts'
import profiles from './profiles.ts'

/** Every API module, in the spec's order; routes, OpenAPI and docs read this list. */
export const apiModules: RouteModule[] = [discovery, profiles]
