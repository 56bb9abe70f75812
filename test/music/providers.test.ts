import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { after, before, beforeEach, describe, it } from 'node:test'
import { deezerClient } from '../../src/music/deezer.ts'
import { itunesClient } from '../../src/music/itunes.ts'
import { odesliClient } from '../../src/music/odesli.ts'
import { UpstreamFailure } from '../../src/music/upstream.ts'
import { deezerDiscovery, itunesDiscovery, itunesResults, odesliDiscovery } from './fakes/fixtures.ts'

type Scripted = { status: number; body: string; headers?: Record<string, string> }
const json = (body: unknown, status = 200, headers?: Record<string, string>): Scripted => ({ status, body: JSON.stringify(body), headers })

/** One local server answering from a script, one entry per request, for the clients' edge cases. */
describe('music upstream clients', () => {
  let server: Server
  let base: string
  let script: Scripted[] = []
  let calls: string[] = []
  const deadline = () => AbortSignal.timeout(10_000)
  const isFailure = (upstream: string) => (err: unknown) => err instanceof UpstreamFailure && err.upstream === upstream

  before(async () => {
    server = createServer((req, res) => {
      calls.push(req.url ?? '')
      const next = script.shift() ?? json({ message: 'unscripted' }, 500)
      res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers })
      res.end(next.body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  beforeEach(() => {
    script = []
    calls = []
  })

  it('reads a Deezer "no data" error, sent with HTTP 200, as not found', async () => {
    script = [json({ error: { type: 'DataException', message: 'no data', code: 800 } })]
    assert.equal(await deezerClient(base).albumByUpc('000000000000', deadline()), null)
    assert.equal(calls.length, 1)
  })

  it('retries Deezer once when its 200 answer reports the quota, then gives up with an UpstreamFailure', async () => {
    const quota = json({ error: { type: 'Exception', message: 'Quota limit exceeded', code: 4 } })
    script = [quota, json(deezerDiscovery)]
    assert.equal((await deezerClient(base).albumByUpc('724384960650', deadline()))?.title, 'Discovery')
    script = [quota, quota]
    await assert.rejects(deezerClient(base).albumByUpc('724384960650', deadline()), isFailure('deezer'))
    assert.equal(calls.length, 4)
  })

  it('honours a short Retry-After on 429 and fails after the second 429', async () => {
    script = [json({}, 429, { 'retry-after': '0' }), json(odesliDiscovery.body)]
    assert.equal((await odesliClient(base).links('https://www.deezer.com/album/302127', deadline()))?.title, 'Discovery')
    script = [json({}, 429), json({}, 429)]
    await assert.rejects(odesliClient(base).links('https://www.deezer.com/album/302127', deadline()), isFailure('odesli'))
  })

  it('leaves Odesli’s store links out when the streaming link of the same company is there', async () => {
    script = [json(odesliDiscovery.body)]
    const set = await odesliClient(base).links('https://www.deezer.com/album/302127', deadline())
    assert.ok(set)
    assert.ok(!set.urls.some((u) => u.includes('app=itunes') || u.includes('amazon.com/dp/')))
    assert.equal(set.artist, 'Daft Punk')
  })

  it('reads Odesli’s could_not_resolve_entity and Apple’s invalid-value 400 as not found', async () => {
    script = [json({ statusCode: 404, code: 'could_not_resolve_entity' }, 404)]
    assert.equal(await odesliClient(base).links('https://open.spotify.com/album/x', deadline()), null)
    script = [json({ errorMessage: 'Invalid value(s) for key(s): [upc]', queryParameters: { upc: 'x' } }, 400)]
    assert.equal(await itunesClient(base).albumByUpc('x', deadline()), null)
  })

  it('asks iTunes for large artwork and drops its tracking marker from links', async () => {
    script = [json(itunesResults([itunesDiscovery]))]
    const release = await itunesClient(base).albumByUpc('724384960650', deadline())
    assert.equal(release?.url, 'https://music.apple.com/us/album/discovery/697194953')
    assert.match(release?.thumbnail ?? '', /\/600x600bb\.jpg$/)
  })

  it('counts a 200 that is not JSON, or a list without results, as a failure', async () => {
    script = [{ status: 200, body: '<html>maintenance</html>' }]
    await assert.rejects(itunesClient(base).search('Discovery', null, 'album', deadline()), isFailure('itunes'))
    script = [json({ resultCount: 0 })]
    await assert.rejects(itunesClient(base).search('Discovery', null, 'album', deadline()), isFailure('itunes'))
  })

  it('fails with an UpstreamFailure when nothing listens', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const address = closed.address()
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    await assert.rejects(deezerClient(url).trackByIsrc('GBDUW0000059', deadline()), isFailure('deezer'))
  })

  it('stops at the lookup deadline', async () => {
    script = [json({}, 503, { 'retry-after': '1' })]
    const expired = AbortSignal.abort()
    await assert.rejects(deezerClient(base).trackByIsrc('GBDUW0000059', expired), isFailure('deezer'))
    assert.equal(calls.length, 0)
  })
})
