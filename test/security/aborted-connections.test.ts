import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import { guarded } from '../../src/jobs/background.ts'
import { makeAccount, makeProfile, STORE, startApp, type TestApp } from '../helpers/app.ts'
import { BROWSER_UA } from '../pages/page-fixtures.ts'

/** Sends a page request and hangs up 1 ms later, as a visitor on a flaky mobile connection does. */
function dropRequest(url: string, path: string): Promise<void> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUser-Agent: ${BROWSER_UA}\r\nAccept: text/html\r\n\r\n`)
      setTimeout(() => socket.destroy(), 1)
    })
    socket.on('close', () => resolve())
    socket.on('error', () => resolve())
  })
}

const backgroundErrors = async (t: TestApp) => {
  const metric = await t.ctx.metrics.backgroundErrors.get()
  return metric.values.reduce((sum, v) => sum + v.value, 0)
}

describe(`dropped connections on an uncached page (${STORE})`, () => {
  let t: TestApp
  let login: string
  let token: string

  before(async () => {
    t = await startApp()
    const account = await makeAccount(t)
    token = account.token
    login = (await makeProfile(t, account.user)).login
  })
  after(() => t.close())

  it('keeps serving after visitors hang up mid-request, and counts no error', async () => {
    for (let round = 0; round < 3; round++) {
      // Any change makes the page uncached again, so the next views are rendered after a read.
      const res = await fetch(`${t.url}/v1/profiles/${login}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Round ${round}` }),
      })
      assert.equal(res.status, 200, await res.text())
      await Promise.all(Array.from({ length: 5 }, () => dropRequest(t.url, `/${login}`)))
      // Past the turn in which the intake hashes arrivals, and past its flush interval.
      await sleep(300)
    }
    await t.ctx.intake.flush()
    const health = await fetch(`${t.url}/-/healthz`)
    assert.equal(health.status, 200)
    assert.equal(await backgroundErrors(t), 0)
  })

  it('logs and counts an error thrown in background work instead of ending the process', async () => {
    const before = await backgroundErrors(t)
    setImmediate(
      guarded(t.ctx, 'test-task', () => {
        throw new Error('boom')
      }),
    )
    await sleep(20)
    assert.equal(await backgroundErrors(t), before + 1)
    assert.equal((await fetch(`${t.url}/-/healthz`)).status, 200)
  })
})
