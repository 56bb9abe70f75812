import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { unzipSync } from 'fflate'
import { STORE } from '../helpers/app.ts'
import { cli } from '../helpers/process.ts'
import { separateStore } from '../helpers/separate-store.ts'

describe(`cli pages export / import (${STORE})`, () => {
  let outside: Awaited<ReturnType<typeof separateStore>>
  let dir: string
  before(async () => {
    outside = await separateStore(STORE, 'slotline-cli-pages')
    dir = mkdtempSync(join(tmpdir(), 'slotline-pages-'))
    const made = await cli(['demo', '--email', 'pages@example.test', '--login', 'cli.pages'], outside.env)
    assert.equal(made.code, 0, made.stderr)
  })
  after(async () => {
    await outside.remove()
    rmSync(dir, { recursive: true, force: true })
  })

  it('exports a page by login to a zip holding page.json and its images', async () => {
    const file = join(dir, 'page.zip')
    const res = await cli(['pages', 'export', '--login', 'cli.pages', '--to', file], outside.env)
    assert.equal(res.code, 0, res.stderr)
    assert.match(res.stdout, /Exported cli\.pages to /)
    const entries = unzipSync(readFileSync(file))
    assert.equal(JSON.parse(new TextDecoder().decode(entries['page.json'])).slots.length, 11)
    assert.equal(Object.keys(entries).filter((n) => n.startsWith('files/')).length, 3)
  })

  it('imports it as a new page, with --dry-run storing nothing first', async () => {
    const file = join(dir, 'page.zip')
    const dry = await cli(['pages', 'import', '--email', 'pages@example.test', '--from', file, '--login', 'cli.pages.copy', '--dry-run'], outside.env)
    assert.equal(dry.code, 0, dry.stderr)
    assert.match(dry.stdout, /Would create page at .*\/cli\.pages\.copy: 11 slots, 3 socials, 3 images, 1 events, 1 forms/)
    const real = await cli(['pages', 'import', '--email', 'pages@example.test', '--from', file, '--login', 'cli.pages.copy'], outside.env)
    assert.equal(real.code, 0, real.stderr)
    assert.match(real.stdout, /Created page \d+ at .*\/cli\.pages\.copy/)
  })

  it('fails with the field and its problem when the login is taken', async () => {
    const res = await cli(['pages', 'import', '--email', 'pages@example.test', '--from', join(dir, 'page.zip')], outside.env)
    assert.equal(res.code, 1)
    assert.match(res.stderr, /profile\.login: The login "cli\.pages" is already taken; free ones: /)
  })
})
