import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { STORE } from '../helpers/app.ts'
import { cli } from '../helpers/process.ts'
import { separateStore } from '../helpers/separate-store.ts'
import { startReceiver } from '../webhooks/receiver.ts'

describe(`cli webhooks add / test / list (${STORE})`, () => {
  let outside: Awaited<ReturnType<typeof separateStore>>
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  before(async () => {
    receiver = await startReceiver()
    outside = await separateStore(STORE, 'slotline-cli-webhooks', { WEBHOOK_URL_ALLOW_HOSTS: receiver.hostPort })
    const made = await cli(['users', 'create', '--email', 'hooks@example.test', '--password', 'correct horse battery'], outside.env)
    assert.equal(made.code, 0, made.stderr)
  })
  after(async () => {
    await outside.remove()
    await receiver.close()
  })

  it('adds an endpoint (its secret printed once), sends a test that verifies, and lists it', async () => {
    const bad = await cli(['webhooks', 'add', '--email', 'hooks@example.test', '--url', receiver.url, '--events', 'page.updated,page.nope'], outside.env)
    assert.equal(bad.code, 1)
    assert.match(bad.stderr, /--events takes some of: form\.submitted/)

    const added = await cli(
      ['webhooks', 'add', '--email', 'hooks@example.test', '--url', receiver.url, '--events', 'page.updated, form.submitted'],
      outside.env,
    )
    assert.equal(added.code, 0, added.stderr)
    const id = /Endpoint (\d+) sends page\.updated, form\.submitted to /.exec(added.stdout)?.[1]
    const secret = /Signing secret \(shown once\): (whsec_\S+)/.exec(added.stdout)?.[1]
    assert.ok(id && secret, added.stdout)

    const tested = await cli(['webhooks', 'test', '--email', 'hooks@example.test', '--endpoint', id], outside.env)
    assert.equal(tested.code, 0, tested.stderr)
    assert.match(tested.stdout, /^Test msg_\S+: delivered; HTTP 200\.$/m)
    const got = receiver.received.at(-1)!
    assert.equal((new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as { type: string }).type, 'webhook.test')

    const listed = await cli(['webhooks', 'list', '--email', 'hooks@example.test'], outside.env)
    assert.equal(listed.code, 0, listed.stderr)
    const [line] = listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    assert.equal(line.id, Number(id))
    assert.deepEqual(line.eventTypes, ['page.updated', 'form.submitted'])
    assert.equal(line.lastDelivery.status, 'succeeded')
    assert.ok(!listed.stdout.includes(secret), 'the secret is never printed again')
  })
})
