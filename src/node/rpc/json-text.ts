/**
 * JSON text of any value a request can carry, however deeply nested. The body decoder lets
 * through what Go's encoding/json reads (up to 10,000 levels, json-body.ts), but V8's
 * JSON.stringify recurses on the native stack and overflows some thousands of levels sooner,
 * so echoing such a value (an error's `data`, a param quoted in a message) threw "Maximum call
 * stack size exceeded" where the reference answers normally. The fallback below writes the
 * same text with a heap-allocated stack instead.
 */

export type JsonReplacer = (this: unknown, key: string, value: unknown) => unknown;

/** JSON.stringify, falling back to an explicit-stack writer when the value is too deep for it. */
export function jsonText(value: unknown, replacer?: JsonReplacer): string {
  try {
    return JSON.stringify(value, replacer);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return deepJsonText(value, replacer);
  }
}

type Frame =
  | { kind: 'array'; items: unknown[]; next: number }
  | { kind: 'object'; holder: Record<string, unknown>; keys: string[]; next: number; written: number };

/** JSON.stringify's output for plain data (toJSON and a replacer honoured), without recursion. */
export function deepJsonText(value: unknown, replacer?: JsonReplacer): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const prepare = (holder: unknown, key: string, v: unknown): unknown => {
    const withJson = v as { toJSON?: (key: string) => unknown } | null | undefined;
    if (withJson !== null && withJson !== undefined && typeof withJson.toJSON === 'function')
      v = withJson.toJSON(key);
    return replacer ? replacer.call(holder, key, v) : v;
  };
  const open = (v: object) => {
    if (Array.isArray(v)) {
      out.push('[');
      stack.push({ kind: 'array', items: v, next: 0 });
    } else {
      out.push('{');
      const holder = v as Record<string, unknown>;
      stack.push({ kind: 'object', holder, keys: Object.keys(holder), next: 0, written: 0 });
    }
  };
  const root = prepare({ '': value }, '', value);
  if (typeof root !== 'object' || root === null) return scalarText(root) as string;
  open(root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.kind === 'array') {
      if (top.next >= top.items.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      const index = top.next++;
      if (index > 0) out.push(',');
      const v = prepare(top.items, String(index), top.items[index]);
      if (typeof v === 'object' && v !== null) open(v);
      else out.push(scalarText(v) ?? 'null');
      continue;
    }
    if (top.next >= top.keys.length) {
      out.push('}');
      stack.pop();
      continue;
    }
    const key = top.keys[top.next++];
    const v = prepare(top.holder, key, top.holder[key]);
    const isNested = typeof v === 'object' && v !== null;
    const scalar = isNested ? undefined : scalarText(v);
    // Members JSON.stringify leaves out (undefined, functions, symbols) are left out here too.
    if (!isNested && scalar === undefined) continue;
    out.push(`${top.written++ > 0 ? ',' : ''}${JSON.stringify(key)}:`);
    if (isNested) open(v);
    else out.push(scalar!);
  }
  return out.join('');
}

/**
 * A non-object value as JSON.stringify writes it (undefined where it writes nothing), a bigint
 * included: its TypeError is the one callers already handle.
 */
function scalarText(v: unknown): string | undefined {
  return JSON.stringify(v) as string | undefined;
}
