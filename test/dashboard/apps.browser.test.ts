import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { oauthRepository } from '../../src/store/oauth.ts'
import { usersRepository } from '../../src/store/users.ts'
import { appAndBrowser, localContext, seriousAxeFindings, signedInPage } from '../helpers/browser.ts'
import { freshEmail, Visitor } from '../helpers/dashboard.ts'

describe('connected apps of one name, in a browser', () => {
  const started = appAndBrowser()

  it('shows where each returns you and when it was connected, the Disconnect buttons told apart by name; no serious axe finding at 375 and 1280 px', async () => {
    const { t, browser } = started
    const email = freshEmail()
    await Visitor.of(t).register({ email })
    const user = (await usersRepository.findByEmail(t.ctx.db, email))!
    for (const [clientId, redirect] of [
      ['browser-a', 'https://agent-one.example/callback'],
      ['browser-b', 'http://127.0.0.1:41234/callback'],
    ]) {
      await oauthRepository.saveClient(t.ctx.db, { clientId, name: 'Claude', redirectUris: [redirect] })
      await oauthRepository.upsertGrant(t.ctx.db, user.id, clientId, ['profile:read', 'profile:write'])
    }
    for (const width of [375, 1280]) {
      const context = await localContext(browser, { viewport: { width, height: 900 } })
      const page = await signedInPage(context, t.url, email, 'correct horse battery')
      await page.goto(`${t.url}/settings/apps`)
      const main = page.getByRole('main')
      assert.equal(await main.getByText('Returns you to agent-one.example').count(), 1)
      assert.equal(await main.getByText('Returns you to 127.0.0.1:41234').count(), 1)
      assert.equal(await page.getByRole('button', { name: /^Disconnect Claude at agent-one\.example, connected / }).count(), 1)
      assert.equal(await page.getByRole('button', { name: /^Disconnect Claude at 127\.0\.0\.1:41234, connected / }).count(), 1)
      assert.deepEqual(await seriousAxeFindings(main), [])
      await page.screenshot({ path: new URL(`../../test-artifacts/apps-${width}.png`, import.meta.url).pathname, fullPage: true })
      if (width === 1280) {
        await page.getByRole('button', { name: /^Disconnect Claude at 127\.0\.0\.1:41234/ }).click()
        await page.waitForLoadState()
        assert.equal(await page.getByRole('button', { name: /^Disconnect Claude at agent-one\.example/ }).count(), 1, 'the other one stays')
        assert.equal(await page.getByRole('button', { name: /^Disconnect Claude at 127/ }).count(), 0)
      }
      await context.close()
    }
  })
})
