import type { Config } from '../config.ts'
import { buildOpenApi } from '../http/openapi.ts'
import { apiModules } from './index.ts'

let cached: { publicUrl: string; json: string } | undefined

/** The OpenAPI document of every API module, serialised once per public URL. */
export function openApiJson(config: Config): string {
  if (cached?.publicUrl !== config.publicUrl) {
    cached = { publicUrl: config.publicUrl, json: JSON.stringify(buildOpenApi(config, apiModules)) }
  }
  return cached.json
}
