import type { Db } from '../store/db.ts'

/** One application the user authorised through OAuth: a row of /settings/apps. */
export interface ConnectedApp {
  /** What Disconnect names (the grant's id, unique per user). */
  grantId: number
  /** The name the client registered (shown as text, never trusted as markup). */
  name: string
  clientId: string
  /** The client's metadata document URL, for clients identified by one. */
  metadataUrl: string | null
  scopes: string[]
  authorisedAt: string
  lastUsedAt: string | null
}

/**
 * Where /settings/apps reads its rows and sends Disconnect. The OAuth server (issue 12) owns
 * grants; it passes its repository here. Disconnect must make the app's very next request fail
 * (spec, Authentication 6): revoke the grant and every token issued under it, for this user only.
 */
export interface ConnectedAppsSource {
  listForUser(db: Db, userId: number): Promise<ConnectedApp[]>
  /** false when the grant is not this user's (the page answers 404). */
  disconnect(db: Db, userId: number, grantId: number): Promise<boolean>
}
