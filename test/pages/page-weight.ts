import { Readable } from 'node:stream'
import type { Page } from 'playwright-core'
import { uploadService } from '../../src/media/uploads.ts'
import { profilesRepository } from '../../src/store/profiles.ts'
import { makeAccount, makeProfile, type TestApp } from '../helpers/app.ts'
import { photoLikeJpeg } from '../media/images.ts'

/**
 * Debian's chromium, never a downloaded browser. Network rule: anything not on loopback goes to a
 * closed local port and fails (Chromium never proxies loopback), without intercepting, and so
 * slowing, the page's own requests.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    '--proxy-server=http://127.0.0.1:9',
  ],
}

/** issue 32: a public page with a 2000 px photo as its avatar transfers at most this much in all. */
export const PAGE_WEIGHT_BUDGET = 60 * 1024

/** A published page whose avatar is a 2000 px photo-like jpeg, uploaded as a client would. */
export async function photoAvatarPage(t: TestApp): Promise<{ url: string; login: string; avatar: string }> {
  const { user } = await makeAccount(t)
  const profile = await makeProfile(t, user)
  const photo = await photoLikeJpeg(2000)
  const file = (await uploadService.fromStream(t.ctx, user.id, Readable.from([photo]), photo.length, { dryRun: false }))!
  await profilesRepository.update(t.ctx.db, profile.id, { avatar: file.path, title: 'Ada Photo', description: 'A page with a photo avatar.' })
  return { url: `${t.url}/${profile.login}`, login: profile.login, avatar: file.path }
}

export interface Transfer {
  url: string
  status: number
  /** Bytes on the wire for this response: headers and body as encoded (compressed) by the server. */
  bytes: number
}

/**
 * Records every response `page` receives from here on with its bytes on the wire (Chromium's
 * own count, from the DevTools protocol: `Network.loadingFinished.encodedDataLength`). The
 * returned function answers the list so far.
 */
export async function recordTransfers(page: Page): Promise<() => Transfer[]> {
  const cdp = await page.context().newCDPSession(page)
  const responses = new Map<string, { url: string; status: number }>()
  const done: Transfer[] = []
  cdp.on('Network.responseReceived', (e) => responses.set(e.requestId, { url: e.response.url, status: e.response.status }))
  cdp.on('Network.loadingFinished', (e) => {
    const r = responses.get(e.requestId)
    if (r) done.push({ ...r, bytes: e.encodedDataLength })
  })
  await cdp.send('Network.enable')
  return () => [...done]
}

/**
 * The page's icon as a browser with a tab strip fetches it (headless Chromium shows no tab, so
 * it fetches none): the bytes of the `<link rel="icon">` response, headers included.
 */
export async function iconTransfer(page: Page): Promise<Transfer | undefined> {
  const href = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href)
  if (!href) return undefined
  const res = await page.request.get(href, { headers: { 'accept-encoding': 'br, gzip' } })
  const head = Object.entries(res.headers()).reduce((sum, [k, v]) => sum + k.length + v.length + 4, 0)
  return { url: href, status: res.status(), bytes: (await res.body()).length + head }
}
