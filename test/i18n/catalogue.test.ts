import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { CATALOGUES, directionOf, languageFromHeader, messagesFor, supportedLanguage } from '../../src/i18n/catalogue.ts'
import en from '../../src/i18n/messages/en.ts'
import { languagesRepository } from '../../src/store/languages.ts'
import { STORE, startApp, type TestApp } from '../helpers/app.ts'

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('message catalogues', () => {
  for (const [code, messages] of Object.entries(CATALOGUES)) {
    it(`${code} has every key of en.ts, no other, each non-empty with the same placeholders`, () => {
      assert.deepEqual(Object.keys(messages).sort(), Object.keys(en).sort(), `${code}: keys differ from en.ts`)
      for (const [key, text] of Object.entries(en)) {
        const own = (messages as Record<string, string>)[key]
        assert.ok(own.trim(), `${code}.${key} is empty`)
        assert.deepEqual(placeholders(own), placeholders(text), `${code}.${key} placeholders`)
      }
    })
  }

  it('translates: a catalogue is not English copied over (beyond names and short labels)', () => {
    for (const [code, messages] of Object.entries(CATALOGUES)) {
      if (code === 'en') continue
      const same = Object.entries(en).filter(([k, v]) => (messages as Record<string, string>)[k] === v)
      assert.ok(same.length <= 2, `${code} repeats English: ${same.map(([k]) => k).join(', ')}`)
    }
  })

  it('picks a language from Accept-Language by q-value, then order, else English', () => {
    assert.equal(languageFromHeader('fr-CH, fr;q=0.9, en;q=0.8'), 'fr')
    assert.equal(languageFromHeader('xx, de;q=0.5, ja;q=0.7'), 'ja')
    assert.equal(languageFromHeader('pt-BR'), 'pt')
    assert.equal(languageFromHeader('ar;q=0, tlh'), 'en')
    assert.equal(languageFromHeader(undefined), 'en')
  })

  it('reads regional codes as their language and writes Arabic right to left', () => {
    assert.equal(supportedLanguage('PT-br'), 'pt')
    assert.equal(messagesFor('zz').madeWith, en.madeWith)
    assert.equal(directionOf('ar'), 'rtl')
    assert.equal(directionOf('en'), 'ltr')
  })
})

describe(`every active language has a catalogue (${STORE})`, () => {
  let t: TestApp
  before(async () => {
    t = await startApp()
  })
  after(() => t.close())

  it('has one catalogue per active language of the store, and no other', async () => {
    const active = (await languagesRepository.listActive(t.ctx.db)).map((l) => l.code).sort()
    assert.equal(active.length, 18)
    assert.deepEqual(Object.keys(CATALOGUES).sort(), active)
  })
})
