import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { demo } from '../../src/cli/demo-commands.ts'
import { SLOT_TYPES } from '../../src/slots/types.ts'
import { usersRepository } from '../../src/store/users.ts'
import { makeToken, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { cli } from '../helpers/process.ts'
import { separateStore } from '../helpers/separate-store.ts'

describe(`cli demo (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('builds a page with title, description, socials, one slot of each of the ten types and a legacy slot', async () => {
    await demo.run(t.ctx, { email: 'demo@example.test', login: 'demo.page' })
    const user = (await usersRepository.findByEmail(t.ctx.db, 'demo@example.test'))!
    const token = await makeToken(t, user)
    const page = (await t.request('GET', '/v1/profiles/demo.page?include=slots', { token })).body.data
    assert.ok(page.title && page.description)
    assert.ok(page.socials.length >= 2)
    assert.deepEqual(
      page.slots.map((s: any) => s.type),
      [...SLOT_TYPES, 'countdown'],
    )
    assert.deepEqual(
      page.slots.filter((s: any) => !s.supported).map((s: any) => s.type),
      ['countdown'],
    )
    // Pictures are real uploads, served where computed.src says.
    const picture = page.slots.find((s: any) => s.type === 'picture')
    const image = await fetch(picture.computed.src)
    assert.equal(image.status, 200)
    assert.match(String(image.headers.get('content-type')), /^image\/png/)
    // Event and form render from their records.
    const markdown = (await t.request('GET', '/v1/profiles/demo.page/markdown', { token })).text
    assert.match(markdown, /Spring exhibition/)
    assert.match(markdown, /Say hello/)
  })

  it('runs as `npm run cli -- demo --email E --login L`', async () => {
    // On PostgreSQL the CLI process gets a schema of its own through its environment.
    const outside = await separateStore(STORE, 'slotline-cli-demo')
    try {
      const res = await cli(['demo', '--email', 'cli.demo@example.test', '--login', 'cli.demo'], outside.env)
      assert.equal(res.code, 0, res.stderr)
      assert.match(res.stdout, /Demo page \d+ at .*\/cli\.demo \(11 slots/)
    } finally {
      await outside.remove()
    }
  })
})
