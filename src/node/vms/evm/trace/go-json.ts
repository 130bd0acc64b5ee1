/**
 * How Go's encoding/json decodes a JSON object into a struct, as far as the trace configs need:
 * keys matched to fields case-insensitively, a value of the wrong JSON kind refused in Go's words
 * (`json: cannot unmarshal <kind> into Go struct field <Struct>.<path> of type <type>`), a JSON
 * null leaving the field as it was. geth decodes a trace config, and each native tracer its
 * `tracerConfig`, this way; the words are what a client sees when it sends a wrong type.
 */
import { jsonKind } from '../api/args.js';

/** The Go field types the trace configs have. */
export type GoScalar = 'bool' | 'int' | 'uint64' | 'string';

export interface GoField {
  /** The field's JSON name (its tag, or its Go name) in the spelling the tracers read. */
  name: string;
  /** The field as Go names it in an error: its tag or Go name, after any embedded structs'. */
  path: string;
  type: GoScalar;
}

/** The word Go's error uses for `v` when it cannot become a `type`; undefined when it can. */
function mismatch(v: unknown, type: GoScalar): string | undefined {
  if (v === null) return undefined;
  if (type === 'bool') return typeof v === 'boolean' ? undefined : jsonKind(v);
  if (type === 'string') return typeof v === 'string' ? undefined : jsonKind(v);
  if (typeof v !== 'number') return jsonKind(v);
  // A number an integer field cannot hold (a fraction, a sign for uint64, out of range) is named
  // with its text.
  const fits =
    Number.isInteger(v) && (type === 'int' ? v >= -(2 ** 63) && v < 2 ** 63 : v >= 0 && v < 2 ** 64);
  return fits ? undefined : `number ${String(v)}`;
}

/**
 * `v` decoded as the Go struct `goType` (`package.Name`) with `fields`: a copy with each known
 * field under its `name`, other keys kept as given. Throws Go's error for a value that is not an
 * object, or the first field of the wrong type (Go reports the first one it meets).
 */
export function decodeGoStruct(
  v: unknown,
  goType: string,
  fields: readonly GoField[],
): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v))
    throw new Error(`json: cannot unmarshal ${jsonKind(v)} into Go value of type ${goType}`);
  const struct = goType.slice(goType.lastIndexOf('.') + 1);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(v)) {
    const field = fields.find((f) => f.name.toLowerCase() === key.toLowerCase());
    if (!field) {
      out[key] = value;
      continue;
    }
    const kind = mismatch(value, field.type);
    if (kind !== undefined)
      throw new Error(
        `json: cannot unmarshal ${kind} into Go struct field ${struct}.${field.path} of type ${field.type}`,
      );
    // null leaves a Go field at its zero value.
    if (value !== null) out[field.name] = value;
  }
  return out;
}
