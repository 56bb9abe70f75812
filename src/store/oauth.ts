import type { Selectable } from 'kysely'
import { type CamelCased, camelRow } from './camel-row.ts'
import { type Db, inTransaction, nowIso } from './db.ts'
import type { OAuthClientsTable, OAuthCodesTable, OAuthGrantsTable } from './schema.ts'

type ClientRow = Selectable<OAuthClientsTable>
type GrantRow = Selectable<OAuthGrantsTable>
type CodeRow = Selectable<OAuthCodesTable>

export interface OAuthClient extends CamelCased<Omit<ClientRow, 'redirect_uris'>> {
  redirectUris: string[]
}

export interface OAuthGrant extends CamelCased<Omit<GrantRow, 'scopes'>> {
  scopes: string[]
}

export interface OAuthCode extends CamelCased<Omit<CodeRow, 'scopes'>> {
  scopes: string[]
}

const words = (s: string) => s.split(' ').filter(Boolean)

async function findClient(db: Db, clientId: string): Promise<OAuthClient | undefined> {
  const r = await db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst()
  return r && camelRow(r, { redirectUris: JSON.parse(r.redirect_uris) as string[] })
}

/** Inserts a client, or refreshes a metadata-document client's cached name and redirects. */
async function saveClient(db: Db, c: { clientId: string; name: string; redirectUris: string[]; metadataUrl?: string; metadataExpiresAt?: string }) {
  const values = {
    client_id: c.clientId,
    name: c.name,
    redirect_uris: JSON.stringify(c.redirectUris),
    metadata_url: c.metadataUrl ?? null,
    metadata_expires_at: c.metadataExpiresAt ?? null,
    created_at: nowIso(),
  }
  await db
    .insertInto('oauth_clients')
    .values(values)
    .onConflict((oc) =>
      oc.column('client_id').doUpdateSet({ name: values.name, redirect_uris: values.redirect_uris, metadata_expires_at: values.metadata_expires_at }),
    )
    .execute()
}

async function touchClient(db: Db, clientId: string): Promise<void> {
  await db.updateTable('oauth_clients').set({ last_used_at: nowIso() }).where('client_id', '=', clientId).execute()
}

/** Registrations never used for a sign-in, older than the cut-off (dynamic registration is open to anyone). */
async function purgeUnusedClients(db: Db, olderThan: string): Promise<number> {
  const res = await db
    .deleteFrom('oauth_clients')
    .where('last_used_at', 'is', null)
    .where('created_at', '<', olderThan)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('oauth_grants').select('id').whereRef('oauth_grants.client_id', '=', 'oauth_clients.client_id'))))
    .executeTakeFirst()
  return Number(res.numDeletedRows)
}

const toGrant = (r: GrantRow): OAuthGrant => camelRow(r, { scopes: words(r.scopes) })

async function findGrant(db: Db, userId: number, clientId: string): Promise<OAuthGrant | undefined> {
  const r = await db.selectFrom('oauth_grants').selectAll().where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst()
  return r && toGrant(r)
}

async function findGrantById(db: Db, id: number): Promise<OAuthGrant | undefined> {
  const r = await db.selectFrom('oauth_grants').selectAll().where('id', '=', id).executeTakeFirst()
  return r && toGrant(r)
}

/** The user's grant to this client with these scopes (one grant per user and client), and what was consented to. */
async function upsertGrant(
  db: Db,
  userId: number,
  clientId: string,
  scopes: string[],
  consent: { consented: string; clientRedirects: string } = { consented: '[]', clientRedirects: '' },
): Promise<OAuthGrant> {
  const kept = { consented: consent.consented, client_redirects: consent.clientRedirects }
  const r = await db
    .insertInto('oauth_grants')
    .values({ user_id: userId, client_id: clientId, scopes: scopes.join(' '), created_at: nowIso(), ...kept })
    .onConflict((oc) => oc.columns(['user_id', 'client_id']).doUpdateSet({ scopes: scopes.join(' '), ...kept }))
    .returningAll()
    .executeTakeFirstOrThrow()
  return toGrant(r)
}

async function touchGrant(db: Db, id: number, at = nowIso()): Promise<void> {
  await db.updateTable('oauth_grants').set({ last_used_at: at }).where('id', '=', id).execute()
}

/** Disconnect: the grant goes, and with it (cascade, and explicitly) every token and code. */
/** Deletes the user's grant with its tokens and codes; another user's grant id deletes nothing. */
async function deleteGrant(db: Db, userId: number, grantId: number): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const res = await trx.deleteFrom('oauth_grants').where('id', '=', grantId).where('user_id', '=', userId).executeTakeFirst()
    if (Number(res.numDeletedRows) === 0) return false
    // Explicitly, not only by cascade: SQLite enforces foreign keys only where the pragma is on.
    await trx.deleteFrom('tokens').where('grant_id', '=', grantId).execute()
    await trx.deleteFrom('oauth_codes').where('grant_id', '=', grantId).execute()
    return true
  })
}

async function listGrantsWithClients(db: Db, userId: number) {
  return db
    .selectFrom('oauth_grants')
    .innerJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
    .select([
      'oauth_grants.id',
      'oauth_grants.client_id',
      'oauth_grants.scopes',
      'oauth_grants.created_at',
      'oauth_grants.last_used_at',
      'oauth_clients.name',
      'oauth_clients.metadata_url',
      'oauth_clients.redirect_uris',
    ])
    .where('oauth_grants.user_id', '=', userId)
    .orderBy('oauth_grants.id')
    .execute()
}

async function insertCode(db: Db, c: Omit<OAuthCode, 'usedAt'>): Promise<void> {
  await db
    .insertInto('oauth_codes')
    .values({
      code_hash: c.codeHash,
      grant_id: c.grantId,
      redirect_uri: c.redirectUri,
      code_challenge: c.codeChallenge,
      scopes: c.scopes.join(' '),
      resource: c.resource,
      expires_at: c.expiresAt,
    })
    .execute()
}

async function findCode(db: Db, codeHash: string): Promise<OAuthCode | undefined> {
  const r = await db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst()
  return r && camelRow(r, { scopes: words(r.scopes) })
}

/** Claims a code once: false when it was already used (two racing exchanges get one true). */
async function useCode(db: Db, codeHash: string): Promise<boolean> {
  const res = await db.updateTable('oauth_codes').set({ used_at: nowIso() }).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst()
  return Number(res.numUpdatedRows) > 0
}

/** Codes live 60 s; used ones are kept a day so a replay can still be recognised and punished. */
async function purgeCodes(db: Db, expiredBefore: string): Promise<void> {
  await db.deleteFrom('oauth_codes').where('expires_at', '<', expiredBefore).execute()
}

export const oauthRepository = Object.freeze({
  findClient,
  saveClient,
  touchClient,
  purgeUnusedClients,
  findGrant,
  findGrantById,
  upsertGrant,
  touchGrant,
  deleteGrant,
  listGrantsWithClients,
  insertCode,
  findCode,
  useCode,
  purgeCodes,
})
