/**
 * The one place errors become HTTP: `{message, statusCode, error}` with the eight statuses of
 * the spec's Errors table. Validation failures and typed client errors keep their message; any
 * other failure is a 500 (or 503 when the store is unreachable) whose internals are logged,
 * never shown; what is logged, and how loudly, depends on whose fault it was (request-log.ts).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../../shared/logger.js';
import {
  DataError,
  ForbiddenError,
  InvalidPageTokenError,
  InvalidParameterError,
  NotFoundError,
  RateLimitedError,
  StoreError,
  UnknownApiKeyError,
  UpstreamInvalidError,
  UpstreamUnavailableError,
} from '../../internal/errors.js';
import { toStoreError } from '../../store/database.js';
import { logRequestFailure } from '../../internal/request-log.js';

export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export interface ErrorBody {
  message: string;
  statusCode: number;
  error: string;
}

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { message, statusCode, error: STATUS_TEXT[statusCode] ?? STATUS_TEXT[500] };
}

function statusOf(err: DataError): number {
  if (err instanceof InvalidParameterError || err instanceof InvalidPageTokenError) return 400;
  if (err instanceof UnknownApiKeyError) return 401;
  if (err instanceof ForbiddenError) return 403;
  if (err instanceof NotFoundError) return 404;
  if (err instanceof RateLimitedError) return 429;
  if (err instanceof UpstreamInvalidError) return 502;
  if (err instanceof UpstreamUnavailableError) return 503;
  if (err instanceof StoreError) return err.retryable ? 503 : 500;
  return 500;
}

/** Turns a fastify validation error into one readable sentence naming the parameter. */
function validationMessage(err: FastifyError): string {
  const v = err.validation?.[0];
  if (!v) return err.message;
  const where = err.validationContext ?? 'request';
  const path = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
  const missing = (v.params as { missingProperty?: string })?.missingProperty;
  const name = missing ?? path;
  const allowed = (v.params as { allowedValues?: unknown[] })?.allowedValues;
  const msg = allowed ? `must be one of ${allowed.join(', ')}` : v.message;
  return name ? `${where}.${name} ${msg}` : `${where} ${msg}`;
}

/**
 * Fastify's `frameworkErrors`: a malformed percent-encoding or an over-long path parameter is
 * refused before routing, where the error handler does not run; fastify's own body would add a
 * `code` and say 414. Both are the client's bad input: a 400 in the documented shape.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  reply.status(400).type('application/json; charset=utf-8').send(errorBody(400, err.message));
}

export function registerErrorHandling(app: FastifyInstance, logger?: Logger): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    let status: number;
    let message: string;
    if (err.validation) {
      status = 400;
      message = validationMessage(err);
    } else if (err instanceof DataError) {
      status = statusOf(err);
      message = status >= 500 ? errorBody(status, '').error : err.message;
      if (err instanceof RateLimitedError) reply.header('retry-after', String(err.retryAfterSeconds));
      if (status === 503 || status === 502) message = err.message;
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      // Framework client errors (malformed JSON, unsupported media type, body too large, …).
      status =
        err.statusCode === 401 || err.statusCode === 403 || err.statusCode === 404 || err.statusCode === 429
          ? err.statusCode
          : 400;
      message = err.message;
    } else if (toStoreError(err).retryable) {
      // A driver error (the database went away or does not answer) reaches here unwrapped: the
      // store is unavailable for now, which the Errors table calls a 503, not a broken server.
      status = 503;
      message = 'the data store is unavailable; retry later';
    } else {
      status = 500;
      message = 'Internal Server Error';
    }
    logRequestFailure(logger, err, status, request.url);
    reply.status(status).type('application/json; charset=utf-8').send(errorBody(status, message));
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .type('application/json; charset=utf-8')
      .send(errorBody(404, `Route ${request.method}:${request.url.split('?')[0]} not found`));
  });
}
