/**
 * The text a client wrote for a JSON number. Go's encoding/json decides an integer argument by its
 * literal (strconv.ParseInt/ParseUint on the digits as sent): it refuses `1e3`, `1.0` and, for an
 * unsigned type, `-0`, takes every uint64 exactly, and quotes the literal when it refuses one.
 * JSON.parse has already turned the literal into a double by then (`1e3` is 1000, `1e400`
 * Infinity, 2^64-1 rounded). Requests are not re-read for this: the body decoder only remembers
 * each body's text, and the first time a decoder asks for a literal in that body, the text is
 * tokenized once (without validating: JSON.parse already did) into a tree of literals, paired with
 * JSON.parse's containers, and kept for the rest of the request.
 */

/** A container's number literals by key; nested containers are only paired, not stored. */
type LiteralNode = Map<string, string | LiteralNode>;

interface Source {
  readonly text: string;
  readonly root: object;
  paired: boolean;
}

/** The body a parsed container came from (its root, and what the endpoint linked to it). */
const sourceOf = new WeakMap<object, Source>();
/** Each parsed container's literal node, once its body was tokenized. */
const literalsOf = new WeakMap<object, LiteralNode>();

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** Remembers the text a parsed body came from (a scalar body has no number to look up later). */
export function rememberSource(value: unknown, text: string): void {
  if (isContainer(value)) sourceOf.set(value, { text, root: value, paired: false });
}

/** Lets `child` (a container inside `parent`) find the body's text on its own (one map write). */
export function linkSource(parent: object, child: unknown): void {
  if (!isContainer(child)) return;
  const source = sourceOf.get(parent);
  if (source) sourceOf.set(child, source);
}

/**
 * The literal of the JSON number at `container[key]` as the client sent it; undefined when the
 * container came from no remembered body (a value built in code). `within` is a linked container
 * holding `container` (a handler's params, for an object nested in them).
 */
export function numberLiteral(container: object, key: string | number, within?: object): string | undefined {
  let node = literalsOf.get(container);
  if (!node) {
    const source = sourceOf.get(container) ?? (within && sourceOf.get(within));
    if (!source || source.paired) return undefined;
    source.paired = true;
    pair(source.root, tokenize(source.text));
    node = literalsOf.get(container);
  }
  const literal = node?.get(String(key));
  return typeof literal === 'string' ? literal : undefined;
}

/** Pairs each parsed container with its literal node (an explicit stack: bodies nest 10,000 deep). */
function pair(root: object, literals: LiteralNode | undefined): void {
  if (!literals) return;
  const stack: [object, LiteralNode][] = [[root, literals]];
  while (stack.length > 0) {
    const [value, node] = stack.pop()!;
    literalsOf.set(value, node);
    for (const [key, child] of Object.entries(value)) {
      const childNode = node.get(key);
      if (isContainer(child) && childNode instanceof Map) stack.push([child, childNode]);
    }
  }
}

const isNumberChar = (c: number) =>
  (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;

/**
 * The literal tree of valid JSON text: objects and arrays as Maps (array items under their
 * index), numbers as their text, other scalars left out. A duplicate key keeps its last value,
 * as JSON.parse and Go do.
 */
function tokenize(text: string): LiteralNode | undefined {
  interface Open {
    node: LiteralNode;
    isArray: boolean;
    index: number;
    key: string | undefined;
  }
  const stack: Open[] = [];
  let root: LiteralNode | undefined;
  // The key the next value is stored under in the innermost container.
  const place = (value: string | LiteralNode | undefined) => {
    const top = stack[stack.length - 1];
    if (!top) {
      if (value instanceof Map) root = value;
      return;
    }
    const key = top.isArray ? String(top.index++) : top.key!;
    if (value === undefined) top.node.delete(key);
    else top.node.set(key, value);
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      const node: LiteralNode = new Map();
      place(node);
      stack.push({ node, isArray: c === 0x5b, index: 0, key: undefined });
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      i++;
    } else if (c === 0x22) {
      const start = i++;
      while (text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      i++;
      const top = stack[stack.length - 1];
      // A string is an object's key when a colon follows it.
      let j = i;
      while (j < text.length && text.charCodeAt(j) <= 0x20) j++;
      if (top && !top.isArray && text.charCodeAt(j) === 0x3a) {
        top.key = JSON.parse(text.slice(start, i)) as string;
        i = j + 1;
      } else place(undefined);
    } else if (isNumberChar(c)) {
      const start = i;
      while (i < text.length && isNumberChar(text.charCodeAt(i))) i++;
      place(text.slice(start, i));
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      // true, false, null
      while (i < text.length && text.charCodeAt(i) >= 0x61 && text.charCodeAt(i) <= 0x7a) i++;
      place(undefined);
    } else i++; // whitespace, commas
  }
  return root;
}
