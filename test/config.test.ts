import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../src/config.ts'

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({})
    assert.equal(c.host, '127.0.0.1')
    assert.equal(c.port, 8080)
    assert.equal(c.publicUrl, 'http://127.0.0.1:8080')
    assert.match(c.dataDir, /\/data$/)
    assert.equal(c.databaseUrl, undefined)
    assert.equal(c.redisUrl, undefined)
    assert.deepEqual(c.rateLimit, { perSecond: 5, perMinute: 60, analyticsPerMinute: 20, musicPerMinute: 15, addressPerMinute: 60, signInPer10Minutes: 10 })
    assert.deepEqual(c.uploadUrlAllowHosts, [])
    assert.equal(c.registration, 'open')
  })

  for (const [variable, value] of [
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['RATE_LIMIT_PER_SECOND', '-1'],
    ['RATE_LIMIT_PER_MINUTE', '1.5'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['REDIS_URL', 'not a url'],
    ['PUBLIC_URL', 'ftp://example.test'],
    ['UPLOAD_URL_ALLOW_HOSTS', 'localhost'],
    ['MUSIC_DEEZER_URL', 'nope'],
    ['REGISTRATION', 'sometimes'],
  ]) {
    it(`stops on a bad ${variable} (${JSON.stringify(value)}) naming the variable`, () => {
      assert.throws(
        () => loadConfig({ [variable]: value }),
        (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.startsWith(variable),
      )
    })
  }

  it('accepts 0 to turn a rate limit off', () => {
    assert.equal(loadConfig({ RATE_LIMIT_PER_MINUTE: '0' }).rateLimit.perMinute, 0)
  })

  it('reads the upload allow-list as host:port pairs', () => {
    assert.deepEqual(loadConfig({ UPLOAD_URL_ALLOW_HOSTS: '127.0.0.1:8081, LOCALHOST:9000' }).uploadUrlAllowHosts, ['127.0.0.1:8081', 'localhost:9000'])
  })
})
