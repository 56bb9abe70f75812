/**
 * An error an OAuth endpoint answers in the RFC's own shape (`{error, error_description}`,
 * RFC 6749 §5.2, RFC 7591 §3.2.2), not the API's envelope: OAuth clients parse these codes.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description)
  }
  get body() {
    return { error: this.error, error_description: this.description }
  }
}
