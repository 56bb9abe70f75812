import { makeAccount, startApp } from '../test/helpers/app.ts'
import { ratioAgainstBaseline } from './lib.ts'

/** GET /v1/me through the whole stack (auth, rate limits, two counts) against bare node:http. */
export async function benchMe(store: 'sqlite' | 'postgres') {
  const t = await startApp({}, { store })
  try {
    const { token } = await makeAccount(t)
    await ratioAgainstBaseline(`GET /v1/me (${store})`, `${t.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })
  } finally {
    await t.close()
  }
}
