import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { apiModules } from '../../src/api/index.ts'
import { commands } from '../../src/cli/commands.ts'
import * as catalogue from '../../src/core/use-cases.ts'
import { accountSettingsPages } from '../../src/dashboard/account-settings.ts'
import { appPages } from '../../src/dashboard/apps.ts'
import { emailConfirmationPages } from '../../src/dashboard/email-confirmation.ts'
import { myLinksPages } from '../../src/dashboard/my-links.ts'
import type { PageRow } from '../../src/dashboard/page-routes.ts'
import { profilePages } from '../../src/dashboard/profile-page.ts'
import { registerPages } from '../../src/dashboard/register.ts'
import { signInPages } from '../../src/dashboard/sign-in.ts'
import { themePickerPages } from '../../src/dashboard/theme-picker.ts'
import { tokenPages } from '../../src/dashboard/tokens.ts'
import { tools } from '../../src/mcp/tools/index.ts'
import { consentPages } from '../../src/oauth/consent-pages.ts'

/**
 * What a face may do without a catalogue operation, each with its reason. Anything else a route
 * row, MCP tool, dashboard form or command does goes through core/use-cases.ts, so a rule added
 * to an operation holds for every face at once.
 */
const FACE_ONLY = new Set([
  // The API describing itself: no account, no store, the same for every caller.
  'api GET /v1',
  'api GET /v1/openapi.json',
  'api GET /v1/schemas/page-document.json',
  // Sign-in itself: the dashboard's session is how the owner becomes a principal at all.
  'dashboard POST /login',
  'dashboard POST /logout',
  // The OAuth consent decision is a step of the authorization server's protocol (oauth/grants.ts).
  'dashboard POST /oauth/authorize',
  // Files of a stopped (or copied) store, not an open context: there is no store to go through.
  'cli backup',
  'cli restore',
])

const groups = Object.entries(catalogue).filter(([, v]) => typeof v === 'object') as Array<[string, Record<string, unknown>]>
const isOperation = (group: string, op: string) => groups.some(([g, ops]) => g === group && typeof ops[op] === 'function')
const isAnyOperation = (op: string) => groups.some(([, ops]) => typeof ops[op] === 'function')

/** The source of `fn` plus every function of its own module it calls, so a helper's call counts. */
function reachableSource(fn: (...args: any[]) => unknown, file: string): string {
  const text = readFileSync(file, 'utf8')
  const seen = new Set<string>()
  let source = fn.toString()
  for (let round = 0; round < 4; round++) {
    for (const [, name] of source.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)) {
      if (seen.has(name)) continue
      seen.add(name)
      const at = text.search(new RegExp(`(?:function\\s+${name}\\s*[<(]|const\\s+${name}\\s*=)`))
      if (at < 0) continue
      const end = text.indexOf('\n}', at)
      source += `\n${text.slice(at, end < 0 ? undefined : end)}`
    }
  }
  return source
}

/** The catalogue operations a source calls: `useCases.slots.create(`, `slots.create(`, `slotUseCases.create(`. */
function catalogueCalls(source: string): string[] {
  const calls: string[] = []
  for (const m of source.matchAll(/\buseCases\.(\w+)\.(\w+)\s*\(/g)) if (isOperation(m[1], m[2])) calls.push(`${m[1]}.${m[2]}`)
  for (const m of source.matchAll(/\b(\w+)\.(\w+)\s*\(/g)) {
    if (m[1] !== 'useCases' && isOperation(m[1], m[2])) calls.push(`${m[1]}.${m[2]}`)
    else if (/UseCases$/.test(m[1]) && isAnyOperation(m[2])) calls.push(`${m[1]}.${m[2]}`)
  }
  return calls
}

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url))
const rowName = (prefix: string, row: { method: string; url: string }) => `api ${row.method} ${`${prefix}${row.url}`.replace(/\/$/, '')}`
/** The file of each module of apiModules, in its order. */
const API_FILES = ['discovery', 'slot-types', 'profiles', 'slots', 'music', 'files', 'analytics', 'form-submissions', 'page-transfer']
const kebab = (name: string) => name.replace(/_/g, '-')

describe('the catalogue of use cases', () => {
  it('is called by every API route row, or the row is declared face-only', () => {
    assert.equal(apiModules.length, API_FILES.length, 'every API module is checked')
    const missing: string[] = []
    apiModules.forEach((module, i) => {
      for (const row of module.rows) {
        const key = rowName(module.prefix, row)
        if (FACE_ONLY.has(key)) continue
        if (!catalogueCalls(reachableSource(row.handler as any, src(`api/${API_FILES[i]}.ts`))).length) missing.push(key)
      }
    })
    assert.deepEqual(missing, [])
  })

  it('is called by every MCP tool, or the tool is declared face-only', () => {
    const missing = tools
      .filter((t) => !FACE_ONLY.has(`mcp ${t.name}`))
      .filter((t) => !catalogueCalls(reachableSource(t.handler as any, src(`mcp/tools/${kebab(t.name)}.ts`))).length)
      .map((t) => t.name)
    assert.deepEqual(missing, [])
  })

  it('is called by every dashboard form handler, or the form is declared face-only', () => {
    const tables: Array<[PageRow[], string]> = [
      [signInPages, 'dashboard/sign-in.ts'],
      [registerPages, 'dashboard/register.ts'],
      [accountSettingsPages, 'dashboard/account-settings.ts'],
      [emailConfirmationPages, 'dashboard/email-confirmation.ts'],
      [tokenPages, 'dashboard/tokens.ts'],
      [appPages, 'dashboard/apps.ts'],
      [consentPages, 'oauth/consent-pages.ts'],
      [myLinksPages, 'dashboard/my-links.ts'],
      [profilePages, 'dashboard/profile-page.ts'],
      [themePickerPages, 'dashboard/theme-picker.ts'],
    ]
    const missing: string[] = []
    for (const [rows, file] of tables) {
      for (const row of rows.filter((r) => r.method === 'POST')) {
        const key = `dashboard POST ${row.url}`
        if (FACE_ONLY.has(key)) continue
        if (!catalogueCalls(reachableSource(row.handler, src(file))).length) missing.push(key)
      }
    }
    assert.deepEqual(missing, [])
  })

  it('is called by every command, or the command is declared face-only', () => {
    const fileOf: Record<string, string> = {
      'users create': 'accounts',
      'users set-password': 'accounts',
      'tokens create': 'accounts',
      migrate: 'accounts',
      demo: 'demo',
      'files purge': 'files',
      'analytics purge': 'analytics',
      'analytics seed': 'analytics',
      'forms submissions': 'forms',
      'pages export': 'pages',
      'pages import': 'pages',
      backup: 'backup',
      restore: 'backup',
    }
    assert.deepEqual(Object.keys(fileOf).sort(), commands.map((c) => c.name).sort(), 'every command is checked')
    const missing = commands
      .filter((c) => !FACE_ONLY.has(`cli ${c.name}`))
      .filter((c) => {
        const run = 'run' in c ? c.run : c.runWithoutContext
        return !catalogueCalls(reachableSource(run, src(`cli/${fileOf[c.name]}.ts`))).length
      })
      .map((c) => c.name)
    assert.deepEqual(missing, [])
  })

  it('names no face-only entry that no longer exists or that calls the catalogue after all', () => {
    const api = apiModules.flatMap((m) => m.rows.map((r) => rowName(m.prefix, r)))
    const known = new Set([
      ...api,
      ...tools.map((t) => `mcp ${t.name}`),
      ...[signInPages, consentPages].flat().map((r) => `dashboard ${r.method} ${r.url}`),
      ...commands.map((c) => `cli ${c.name}`),
    ])
    assert.deepEqual([...FACE_ONLY].filter((k) => !known.has(k)), [])
    const callingAfterAll = [
      ...apiModules.flatMap((m, i) =>
        m.rows.filter((r) => FACE_ONLY.has(rowName(m.prefix, r)) && catalogueCalls(reachableSource(r.handler as any, src(`api/${API_FILES[i]}.ts`))).length).map((r) => rowName(m.prefix, r)),
      ),
      ...tools.filter((t) => FACE_ONLY.has(`mcp ${t.name}`) && catalogueCalls(reachableSource(t.handler as any, src(`mcp/tools/${kebab(t.name)}.ts`))).length).map((t) => `mcp ${t.name}`),
    ]
    assert.deepEqual(callingAfterAll, [])
  })
})
