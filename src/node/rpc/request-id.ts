/**
 * The id a JSON-RPC answer carries. geth keeps a request's id as its raw JSON text and writes it
 * back unchanged; JSON.parse has made a double of a number id by then, which loses what it
 * cannot hold (digits past 2^53, `1.50`'s zero, `-0`'s sign, `1e400`, read as Infinity and
 * written as null), and a client matching answers to calls by id would miss its own.
 */
import { JsonNumberText } from './json-integer.js';
import { attachRequestText, numberLiteral, type RequestText } from './json-literals.js';
import type { RpcResponse } from './types.js';

export function answerId(request: Record<string, unknown>, text: RequestText | undefined): RpcResponse['id'] {
  const id = (request.id ?? null) as RpcResponse['id'];
  // Nearly every id is a string or a small integer, which the double holds exactly: the request
  // text is only read for the others.
  if (typeof id !== 'number' || (Number.isSafeInteger(id) && !Object.is(id, -0))) return id;
  const detach = attachRequestText(request, text);
  try {
    const literal = numberLiteral(request, 'id');
    return literal === undefined ? id : new JsonNumberText(literal);
  } finally {
    detach();
  }
}
