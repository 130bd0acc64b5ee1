/**
 * Typed errors of the data platform. Each has a literal `name` and a stable `code`; the REST
 * layer maps them to its wire shape in one place (api/plugins/errors.ts), never by message text.
 */

export abstract class DataError extends Error {
  abstract readonly code: string;
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A request parameter is missing, malformed or out of range (HTTP 400). */
export class InvalidParameterError extends DataError {
  override readonly name = 'InvalidParameterError';
  readonly code = 'DATA_INVALID_PARAMETER';
}

/** A page token that this service did not issue, or issued for another query (HTTP 400). */
export class InvalidPageTokenError extends DataError {
  override readonly name = 'InvalidPageTokenError';
  readonly code = 'DATA_INVALID_PAGE_TOKEN';
}

/** The resource (network, node, route) is not served here (HTTP 404). */
export class NotFoundError extends DataError {
  override readonly name = 'NotFoundError';
  readonly code = 'DATA_NOT_FOUND';
}

/** The API key header names a key this service does not know (HTTP 401). */
export class UnknownApiKeyError extends DataError {
  override readonly name = 'UnknownApiKeyError';
  readonly code = 'DATA_UNKNOWN_API_KEY';
}

/** The key is valid but lacks the privilege the route needs (HTTP 403). */
export class ForbiddenError extends DataError {
  override readonly name = 'ForbiddenError';
  readonly code = 'DATA_FORBIDDEN';
}

/** The caller spent its compute units for the current window (HTTP 429). */
export class RateLimitedError extends DataError {
  override readonly name = 'RateLimitedError';
  readonly code = 'DATA_RATE_LIMITED';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The upstream node answered with something that is not a valid reply (HTTP 502). */
export class UpstreamInvalidError extends DataError {
  override readonly name = 'UpstreamInvalidError';
  readonly code = 'DATA_UPSTREAM_INVALID';
  /** The HTTP status of a reply that was not JSON-RPC (a 404: the node serves no such path). */
  httpStatus?: number;
}

/** The upstream node or the store cannot be reached right now (HTTP 503). */
export class UpstreamUnavailableError extends DataError {
  override readonly name = 'UpstreamUnavailableError';
  readonly code = 'DATA_UPSTREAM_UNAVAILABLE';
}

/** A database error: retryable ones (busy, connection lost) are worth another attempt. */
export class StoreError extends DataError {
  override readonly name = 'StoreError';
  readonly code = 'DATA_STORE';
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, undefined, options);
  }
}
