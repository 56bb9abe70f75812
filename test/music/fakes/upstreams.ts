import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import {
  DISCOVERY_UPC,
  deezerAlbumSearchHits,
  deezerDiscovery,
  deezerHarder,
  deezerNoData,
  deezerOneMoreTimeHit,
  deezerSearch,
  HARDER_ISRC,
  itunesDiscovery,
  itunesOneMoreTime,
  itunesResults,
  type OdesliFixture,
  odesliDiscovery,
  odesliHarder,
  odesliIndie,
  odesliOneMoreTime,
  odesliUnresolved,
} from './fixtures.ts'

/**
 * How a fake behaves: answer from fixtures, fail with 503 every time, fail once then answer (ok),
 * or accept the connection and never answer (the lookup's own timeouts must end it).
 */
export type FakeMode = 'ok' | 'down' | 'flaky' | 'hang'

type Answer = { status: number; body: unknown }
type Router = (url: URL) => Answer

export interface FakeUpstream {
  /** http://127.0.0.1:<port> */
  url: string
  /** Path and query of every request received, in order. */
  calls: string[]
  mode: FakeMode
  close(): Promise<void>
}

async function startFake(route: Router): Promise<FakeUpstream> {
  const sockets = new Set<Socket>()
  const fake: FakeUpstream = {
    url: '',
    calls: [],
    mode: 'ok',
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    fake.calls.push(req.url ?? '')
    const send = ({ status, body }: Answer) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify(body))
    }
    if (fake.mode === 'hang') return
    if (fake.mode === 'down' || fake.mode === 'flaky') {
      if (fake.mode === 'flaky') fake.mode = 'ok'
      return send({ status: 503, body: { message: 'Service Unavailable' } })
    }
    send(route(new URL(req.url ?? '/', 'http://fake')))
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  fake.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  return fake
}

const ok = (body: unknown): Answer => ({ status: 200, body })
const plain = (s: string | null) => (s ?? '').toLowerCase()

/** Deezer answers "no data" inside a 200, as the real API does. */
const deezerRoute: Router = (url) => {
  const p = decodeURIComponent(url.pathname)
  if (p === `/album/upc:${DISCOVERY_UPC}` || p === '/album/302127') return ok(deezerDiscovery)
  if (p === `/track/isrc:${HARDER_ISRC}` || p === '/track/3135556') return ok(deezerHarder)
  const q = plain(url.searchParams.get('q'))
  if (p === '/search/album') {
    if (q === 'discovery') return ok(deezerSearch(deezerAlbumSearchHits))
    if (q === 'artist:"daft punk" album:"discovery"') return ok(deezerSearch([deezerAlbumSearchHits[1]]))
    return ok(deezerSearch([]))
  }
  if (p === '/search/track') {
    if (q === 'artist:"daft punk" track:"one more time"') return ok(deezerSearch([deezerOneMoreTimeHit]))
    return ok(deezerSearch([]))
  }
  return ok(deezerNoData)
}

const itunesRoute: Router = (url) => {
  const p = url.pathname
  const q = url.searchParams
  if (p === '/lookup') {
    if (q.get('upc') === DISCOVERY_UPC || q.get('id') === '697194953') return ok(itunesResults([itunesDiscovery]))
    return ok(itunesResults([]))
  }
  if (p === '/search') {
    const term = plain(q.get('term'))
    if (q.get('entity') === 'album' && (term === 'discovery' || term === 'daft punk discovery')) return ok(itunesResults([itunesDiscovery]))
    if (q.get('entity') === 'song' && term === 'daft punk one more time') return ok(itunesResults([itunesOneMoreTime]))
    return ok(itunesResults([]))
  }
  return { status: 404, body: { errorMessage: 'Invalid request' } }
}

// Tracks first: their Apple links carry the album id too.
const ODESLI_FIXTURES: OdesliFixture[] = [odesliHarder, odesliOneMoreTime, odesliDiscovery, odesliIndie]

const odesliRoute: Router = (url) => {
  if (url.pathname !== '/v1-alpha.1/links') return { status: 404, body: { statusCode: 404, code: 'not_found' } }
  const target = url.searchParams.get('url') ?? ''
  const fixture = ODESLI_FIXTURES.find((f) => f.keys.some((k) => target.includes(k)))
  return fixture ? ok(fixture.body) : { status: 404, body: odesliUnresolved }
}

export interface FakeUpstreams {
  deezer: FakeUpstream
  itunes: FakeUpstream
  odesli: FakeUpstream
  /** The three MUSIC_* variables pointing at the fakes: pass them to every startApp. */
  env: { MUSIC_DEEZER_URL: string; MUSIC_ITUNES_URL: string; MUSIC_ODESLI_URL: string }
  /** Every fake back to answering, call logs emptied. */
  reset(): void
  totalCalls(): number
  close(): Promise<void>
}

/** Deezer, iTunes and Odesli stand-ins on 127.0.0.1, serving the hand-written fixtures. */
export async function startFakeUpstreams(): Promise<FakeUpstreams> {
  const [deezer, itunes, odesli] = await Promise.all([startFake(deezerRoute), startFake(itunesRoute), startFake(odesliRoute)])
  const all = [deezer, itunes, odesli]
  return {
    deezer,
    itunes,
    odesli,
    env: { MUSIC_DEEZER_URL: deezer.url, MUSIC_ITUNES_URL: itunes.url, MUSIC_ODESLI_URL: odesli.url },
    reset() {
      for (const f of all) {
        f.mode = 'ok'
        f.calls.length = 0
      }
    },
    totalCalls: () => all.reduce((n, f) => n + f.calls.length, 0),
    close: async () => void (await Promise.all(all.map((f) => f.close()))),
  }
}
