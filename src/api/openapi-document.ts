import type { Config } from '../config.ts'
import { buildOpenApi } from '../http/openapi.ts'
import type { RouteModule } from '../http/routes.ts'

const cache = new WeakMap<readonly RouteModule[], { publicUrl: string; json: string }>()

/** The OpenAPI document of the modules an app serves, serialised once per module list and public URL. */
export function openApiJson(config: Config, modules: readonly RouteModule[]): string {
  let cached = cache.get(modules)
  if (cached?.publicUrl !== config.publicUrl) {
    cached = { publicUrl: config.publicUrl, json: JSON.stringify(buildOpenApi(config, [...modules])) }
    cache.set(modules, cached)
  }
  return cached.json
}
