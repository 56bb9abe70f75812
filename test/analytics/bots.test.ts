import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isBot, isSpeculative } from '../../src/analytics/bots.ts'

const automated = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Twitterbot/1.0',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  'TelegramBot (like TwitterBot)',
  'WhatsApp/2.23.20.0 A',
  'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  'curl/8.4.0',
  'Wget/1.21.4',
  'python-requests/2.31.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
  'Go-http-client/1.1',
  'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
  'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
]

// Fetchers our former hand-made list let through as people; isbot's maintained pattern knows them.
const missedBefore = [
  'Mastodon/4.2.1 (http.rb/5.1.1; +https://mastodon.social/)',
  'Iframely/1.3.1 (+https://iframely.com/docs/about)',
  'Mozilla/5.0 (compatible; Feedly/1.0)',
  'Mozilla/5.0 (compatible; Qwantify/2.4w; +https://www.qwant.com/)/2.4w',
]

const people = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:120.0) Gecko/20100101 Firefox/120.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.43 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 307.0.0.34.111',
]

describe('bot and prefetch detection', () => {
  it('recognises crawlers, link unfurlers, scripted clients and headless browsers', () => {
    for (const ua of automated) assert.equal(isBot(ua), true, ua)
  })

  it('follows the maintained isbot list: fetchers without "bot" in their name are recognised too', () => {
    for (const ua of missedBefore) assert.equal(isBot(ua), true, ua)
  })

  it('lets ordinary browsers and in-app browsers through', () => {
    for (const ua of people) assert.equal(isBot(ua), false, ua)
  })

  it('treats a missing or empty user agent as automated', () => {
    assert.equal(isBot(undefined), true)
    assert.equal(isBot(''), true)
    assert.equal(isBot('   '), true)
  })

  it('recognises prefetch and prerender purposes and nothing else', () => {
    assert.equal(isSpeculative('prefetch'), true)
    assert.equal(isSpeculative('prefetch;prerender'), true)
    assert.equal(isSpeculative('Prefetch'), true)
    assert.equal(isSpeculative(undefined), false)
    assert.equal(isSpeculative(''), false)
  })
})
