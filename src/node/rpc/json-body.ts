/**
 * Decoding a JSON-RPC request body. The reference node decodes with Go's encoding/json, which
 * refuses a document nested deeper than 10,000 levels ("exceeded max depth") before anything
 * reads it. JSON.parse accepts any depth, and a deep enough value later overflows the stack of
 * whatever walks it (JSON.stringify of an error echoing the request, a param decoder): the same
 * limit is applied here, so such a body is a parse error and never reaches a handler.
 */

/** encoding/json's maxNestingDepth. */
export const MAX_JSON_DEPTH = 10_000;

export type ParsedBody = { ok: true; value: unknown; text: string } | { ok: false; message: string };

export function parseJsonBody(body: Buffer | string): ParsedBody {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (nestingExceeds(text, MAX_JSON_DEPTH)) return { ok: false, message: 'exceeded max depth' };
  try {
    // The text goes along: a decoder may read a number as the client wrote it (json-literals.ts).
    return { ok: true, value: JSON.parse(text), text };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : 'invalid JSON' };
  }
}

/** Whether `[`/`{` outside strings ever nest deeper than `limit` (one pass, no allocation). */
function nestingExceeds(text: string, limit: number): boolean {
  // Most bodies are shallow: a body with fewer brackets than the limit cannot exceed it.
  if (text.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
