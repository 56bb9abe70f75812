import type { Redis } from 'ioredis'
import type { AppContext } from '../context.ts'
import { schedulePeriodic } from '../jobs/periodic-job.ts'
import type { Db } from '../store/db.ts'
import { sessionsRepository } from '../store/sessions.ts'
import { type User, usersRepository } from '../store/users.ts'
import { sha256 } from './secrets.ts'
import type { SessionFacts } from './session-facts.ts'

/**
 * A browser session as the dashboard keeps it (@fastify/session's record): who signed in, when
 * its cookie expires, and whatever else the face stores. Kept free of Fastify's types: the store
 * sits below the faces (the command line ends sessions too).
 */
export interface Session {
  userId?: unknown
  cookie?: { expires?: Date | string | null }
  /** What the owner sees of it in their list of sessions (set at sign-in). */
  seen?: SessionFacts
}

/** A live session of a user, by the digest of its id (never the id itself). */
export interface ListedSession {
  idHash: string
  session: Session
}

type Callback = (err?: unknown) => void
type GetCallback = (err: unknown, session?: Session | null) => void

/**
 * What @fastify/session needs from a store, plus ending all of a user's sessions (a password
 * change, `cli users set-password`). Ids are stored as SHA-256 digests: whoever reads the
 * store or its backups cannot use a row as a cookie.
 */
export interface DashboardSessionStore {
  set(sessionId: string, session: Session, callback: Callback): void
  get(sessionId: string, callback: GetCallback): void
  destroy(sessionId: string, callback: Callback): void
  /** Ends every session of the user except `keepSessionId` (raw id); resolves to how many ended. */
  endAllFor(userId: number, keepSessionId?: string): Promise<number>
  /** The user's sessions that have not expired. */
  listFor(userId: number): Promise<ListedSession[]>
  /** Ends one session of the user, by its id's digest; false when it is not theirs or already gone. */
  endOne(userId: number, idHash: string): Promise<boolean>
}

const userOf = (session: Session): number | null => (typeof session.userId === 'number' ? session.userId : null)

/** How long an idle record may live when the cookie names no expiry (browser-session cookies). */
const FALLBACK_TTL_MS = 24 * 3600_000
/**
 * A visitor's session only carries the CSRF secret of a sign-in or registration form; it is
 * kept for two hours whatever its cookie says, so anonymous traffic cannot pile up records
 * (a form left open longer is refused as expired and simply sent again).
 */
const VISITOR_TTL_MS = 2 * 3600_000

function expiryOf(session: Session): number {
  const expires = session.cookie?.expires
  const at = expires ? new Date(expires).getTime() : Number.NaN
  const cookieExpiry = Number.isFinite(at) ? at : Date.now() + FALLBACK_TTL_MS
  return userOf(session) === null ? Math.min(cookieExpiry, Date.now() + VISITOR_TTL_MS) : cookieExpiry
}

/** Node-style callbacks around a promise, without ever calling back twice. */
function settle<T>(work: Promise<T>, done: (err: unknown, value?: T) => void): void {
  work.then(
    (value) => done(null, value),
    (err) => done(err),
  )
}

export function sqlSessionStore(db: Db): DashboardSessionStore {
  return {
    set(id, session, cb) {
      const data = JSON.stringify(session)
      settle(sessionsRepository.save(db, { idHash: sha256(id), userId: userOf(session), data, expiresAt: new Date(expiryOf(session)).toISOString() }), (e) =>
        cb(e ?? undefined),
      )
    },
    get(id, cb) {
      settle(
        sessionsRepository.find(db, sha256(id), new Date().toISOString()).then((row) => (row ? (JSON.parse(row.data) as Session) : null)),
        cb,
      )
    },
    destroy(id, cb) {
      settle(sessionsRepository.remove(db, sha256(id)), (e) => cb(e ?? undefined))
    },
    endAllFor: (userId, keep) => sessionsRepository.removeForUser(db, userId, keep === undefined ? undefined : sha256(keep)),
    listFor: async (userId) =>
      (await sessionsRepository.listForUser(db, userId, new Date().toISOString())).map((r) => ({ idHash: r.idHash, session: JSON.parse(r.data) as Session })),
    endOne: (userId, idHash) => sessionsRepository.removeOfUser(db, userId, idHash),
  }
}

/**
 * Sessions in Redis (shared by every instance): one key per session expiring with its cookie,
 * and a set per user naming that user's session keys, so all of them can be ended at once.
 */
export function redisSessionStore(redis: Redis): DashboardSessionStore {
  const key = (idHash: string) => `session:${idHash}`
  const userKey = (userId: number) => `session-user:${userId}`
  return {
    set(id, session, cb) {
      const idHash = sha256(id)
      const ttl = Math.max(1000, expiryOf(session) - Date.now())
      const userId = userOf(session)
      const tx = redis.multi().set(key(idHash), JSON.stringify(session), 'PX', ttl)
      if (userId !== null) tx.sadd(userKey(userId), idHash).pexpire(userKey(userId), ttl, 'GT')
      settle(tx.exec(), (e) => cb(e ?? undefined))
    },
    get(id, cb) {
      settle(
        redis.get(key(sha256(id))).then((text) => (text ? (JSON.parse(text) as Session) : null)),
        cb,
      )
    },
    destroy(id, cb) {
      settle(redis.del(key(sha256(id))), (e) => cb(e ?? undefined))
    },
    async endAllFor(userId, keep) {
      const keepHash = keep === undefined ? undefined : sha256(keep)
      const members = await redis.smembers(userKey(userId))
      const ending = members.filter((m) => m !== keepHash)
      if (!ending.length) return 0
      const [[, removed]] = (await redis
        .multi()
        .del(...ending.map(key))
        .srem(userKey(userId), ...ending)
        .exec()) as [[null, number], unknown]
      return removed
    },
    async listFor(userId) {
      const members = await redis.smembers(userKey(userId))
      if (!members.length) return []
      const texts = await redis.mget(...members.map(key))
      const listed: ListedSession[] = []
      members.forEach((idHash, i) => {
        const session = texts[i] ? (JSON.parse(texts[i]) as Session) : undefined
        if (session && userOf(session) === userId) listed.push({ idHash, session })
      })
      return listed
    },
    async endOne(userId, idHash) {
      if (!(await redis.sismember(userKey(userId), idHash))) return false
      const [[, removed]] = (await redis.multi().del(key(idHash)).srem(userKey(userId), idHash).exec()) as [[null, number], unknown]
      return removed === 1
    },
  }
}

/** The session store of a context: Redis when configured (instances share it), else the database. */
export const sessionStore = (db: Db, redis: Redis | undefined): DashboardSessionStore => (redis ? redisSessionStore(redis) : sqlSessionStore(db))

/** Redis expires its own records; in SQL, expired sessions are swept hourly. */
export function scheduleSessionPurge(ctx: AppContext): void {
  if (ctx.redis) return
  schedulePeriodic(ctx, {
    name: 'sessions-purge',
    everyMs: 3600_000,
    run: async () => {
      await sessionsRepository.purgeExpired(ctx.db, new Date().toISOString())
      return undefined
    },
  })
}

/** The signed-in user a session names, read fresh from the store (a deleted account is signed out). */
export const sessionUser = (db: Db, userId: number): Promise<User | undefined> => usersRepository.findById(db, userId)

// The context holds this as a member; declared here, so that the context imports nothing above it.
declare module '../context.ts' {
  interface AppContext {
    /** Signed-in browser sessions (the dashboard's), which a password change ends. */
    sessions: DashboardSessionStore
  }
}
