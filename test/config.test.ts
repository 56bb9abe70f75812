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

  describe('single sign-on', () => {
    const sso = { OIDC_ISSUER_URL: 'https://id.example.test/realms/main', OIDC_CLIENT_ID: 'slotline', OIDC_CLIENT_SECRET: 's3cret-value-xyz' }

    it('is off by default, with password sign-in on', () => {
      const c = loadConfig({})
      assert.equal(c.singleSignOn, undefined)
      assert.equal(c.passwordSignIn, true)
    })

    it('reads issuer, client, button text, domains and the switches', () => {
      const c = loadConfig({ ...sso, OIDC_ALLOWED_DOMAINS: 'Example.test, @staff.example.test', OIDC_AUTO_REGISTER: 'on', PASSWORD_SIGN_IN: 'off' })
      assert.deepEqual(c.singleSignOn, {
        issuer: 'https://id.example.test/realms/main',
        clientId: 'slotline',
        clientSecret: 's3cret-value-xyz',
        buttonText: 'Sign in with single sign-on',
        allowedDomains: ['example.test', 'staff.example.test'],
        autoRegister: true,
      })
      assert.equal(c.passwordSignIn, false)
      assert.equal(c.registration, 'closed', 'password accounts could not sign in')
    })

    for (const [env, variable] of [
      [{ OIDC_ISSUER_URL: sso.OIDC_ISSUER_URL }, 'OIDC_CLIENT_ID'],
      [{ OIDC_ISSUER_URL: sso.OIDC_ISSUER_URL, OIDC_CLIENT_ID: 'x' }, 'OIDC_CLIENT_SECRET'],
      [{ OIDC_CLIENT_SECRET: 'x' }, 'OIDC_ISSUER_URL'],
      [{ ...sso, OIDC_ISSUER_URL: 'http://id.example.test' }, 'OIDC_ISSUER_URL'],
      [{ ...sso, OIDC_ISSUER_URL: 'not a url' }, 'OIDC_ISSUER_URL'],
      [{ ...sso, OIDC_ALLOWED_DOMAINS: 'example' }, 'OIDC_ALLOWED_DOMAINS'],
      [{ ...sso, OIDC_AUTO_REGISTER: 'maybe' }, 'OIDC_AUTO_REGISTER'],
      [{ OIDC_AUTO_REGISTER: 'on' }, 'OIDC_AUTO_REGISTER'],
      [{ PASSWORD_SIGN_IN: 'off' }, 'PASSWORD_SIGN_IN'],
      [{ ...sso, PASSWORD_SIGN_IN: 'off', REGISTRATION: 'open' }, 'REGISTRATION'],
    ] as Array<[Record<string, string>, string]>) {
      it(`stops on ${JSON.stringify(env)} naming ${variable}, never the secret`, () => {
        assert.throws(
          () => loadConfig(env),
          (err: unknown) => err instanceof ConfigError && err.variable === variable && !err.message.includes(sso.OIDC_CLIENT_SECRET),
        )
      })
    }

    it('takes http for a provider on this machine only', () => {
      assert.equal(loadConfig({ ...sso, OIDC_ISSUER_URL: 'http://127.0.0.1:9000' }).singleSignOn?.issuer, 'http://127.0.0.1:9000')
    })
  })

  it('accepts 0 to turn a rate limit off', () => {
    assert.equal(loadConfig({ RATE_LIMIT_PER_MINUTE: '0' }).rateLimit.perMinute, 0)
  })

  it('reads the upload allow-list as host:port pairs', () => {
    assert.deepEqual(loadConfig({ UPLOAD_URL_ALLOW_HOSTS: '127.0.0.1:8081, LOCALHOST:9000' }).uploadUrlAllowHosts, ['127.0.0.1:8081', 'localhost:9000'])
  })
})
