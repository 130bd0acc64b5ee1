/**
 * How Go's encoding/json decodes a JSON object into a struct, as far as the trace configs need:
 * keys matched to fields case-insensitively, a value of the wrong JSON kind refused in Go's words
 * (`json: cannot unmarshal <kind> into Go struct field <Struct>.<path> of type <type>`), a JSON
 * null leaving the field as it was. geth decodes a trace config, and each native tracer its
 * `tracerConfig`, this way; the words are what a client sees when it sends a wrong type.
 */
import { goIntegerOf, jsonKind, jsonNumberText } from '../api/args.js';

/** The Go field types the trace configs have. */
export type GoScalar = 'bool' | 'int' | 'uint64' | 'string';

export interface GoField {
  /** The field's JSON name (its tag, or its Go name) in the spelling the tracers read. */
  name: string;
  /** The field as Go names it in an error: its tag or Go name, after any embedded structs'. */
  path: string;
  type: GoScalar;
}

/**
 * The word Go's error uses for `struct[key]` when it cannot become a `type`; undefined when it
 * can. `within` is the params array the struct came in.
 */
function mismatch(struct: object, key: string, type: GoScalar, within?: object): string | undefined {
  const v = (struct as Record<string, unknown>)[key];
  if (v === null) return undefined;
  if (type === 'bool') return typeof v === 'boolean' ? undefined : jsonKind(v);
  if (type === 'string') return typeof v === 'string' ? undefined : jsonKind(v);
  if (typeof v !== 'number') return jsonKind(v);
  // An integer field takes the number by its literal (no fraction, no exponent, in range), and
  // names it by its literal when it cannot.
  const literal = jsonNumberText(struct, key, within);
  return goIntegerOf(literal, type) === undefined ? `number ${literal}` : undefined;
}

/**
 * `v` decoded as the Go struct `goType` (`package.Name`) with `fields`: a copy with each known
 * field under its `name`, other keys kept as given. Throws Go's error for a value that is not an
 * object, or the first field of the wrong type (Go reports the first one it meets). `within`: the
 * params array `v` came in, where a number's literal is looked up.
 */
export function decodeGoStruct(
  v: unknown,
  goType: string,
  fields: readonly GoField[],
  within?: object,
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
    const kind = mismatch(v, key, field.type, within);
    if (kind !== undefined)
      throw new Error(
        `json: cannot unmarshal ${kind} into Go struct field ${struct}.${field.path} of type ${field.type}`,
      );
    // null leaves a Go field at its zero value.
    if (value !== null) out[field.name] = value;
  }
  return out;
}
