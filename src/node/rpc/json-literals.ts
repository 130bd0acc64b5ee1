/**
 * The text a client wrote for a JSON number. Go's encoding/json decides an integer argument by its
 * literal (strconv.ParseInt/ParseUint on the digits as sent): it refuses `1e3`, `1.0` and, for an
 * unsigned type, `-0`, takes every uint64 exactly, and quotes the literal when it refuses one.
 * JSON.parse has already turned the literal into a double by then (`1e3` is 1000, `1e400`
 * Infinity, 2^64-1 rounded). Requests are not re-read for this: the servers hand each request's
 * text along with the call, and the first time a decoder asks for a literal in it, the text is
 * tokenized once (without validating: JSON.parse already did) into a tree of literals, paired with
 * JSON.parse's containers, and kept until the call ends.
 */

/** A container's number literals by key; nested containers are only paired, not stored. */
type LiteralNode = Map<string, string | LiteralNode>;

/** A request as the server received it: its text and what JSON.parse made of it. */
export interface RequestText {
  readonly text: string;
  readonly body: unknown;
}

/**
 * The request each call's params came from, while the call runs. A Map with an explicit delete,
 * not a WeakMap: weak entries made every request pay in garbage collection, several times what
 * JSON.parse costs on a large batch.
 */
const running = new Map<object, RequestText>();
/** Each request's parsed containers with their literal nodes, once a literal was asked for (rare). */
const paired = new WeakMap<RequestText, Map<object, LiteralNode>>();

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

/**
 * Lets the decoders of a call find the text of the request its `params` came in, until the
 * returned function is called (when the call has settled).
 */
export function attachRequestText(params: object, request: RequestText | undefined): () => void {
  if (!request) return detachNothing;
  running.set(params, request);
  return () => running.delete(params);
}

const detachNothing = () => {};

/**
 * The literal of the JSON number at `container[key]` as the client sent it; undefined when the
 * container came from no running call (a value built in code). `within` is the params array of
 * the call, for a container nested in it.
 */
export function numberLiteral(container: object, key: string | number, within?: object): string | undefined {
  const request = running.get(container) ?? (within && running.get(within));
  if (!request || !isContainer(request.body)) return undefined;
  let nodes = paired.get(request);
  if (!nodes) {
    // Once per request: a batch's calls share it.
    nodes = pair(request.body, tokenize(request.text));
    paired.set(request, nodes);
  }
  const literal = nodes.get(container)?.get(String(key));
  return typeof literal === 'string' ? literal : undefined;
}

/** Pairs each parsed container with its literal node (an explicit stack: bodies nest 10,000 deep). */
function pair(root: object, literals: LiteralNode | undefined): Map<object, LiteralNode> {
  const nodes = new Map<object, LiteralNode>();
  if (!literals) return nodes;
  const stack: [object, LiteralNode][] = [[root, literals]];
  while (stack.length > 0) {
    const [value, node] = stack.pop()!;
    nodes.set(value, node);
    for (const [key, child] of Object.entries(value)) {
      const childNode = node.get(key);
      if (isContainer(child) && childNode instanceof Map) stack.push([child, childNode]);
    }
  }
  return nodes;
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
      const start = i;
      i = afterString(text, i);
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

/** The index after the string that opens at `open` (indexOf, then its escapes counted). */
function afterString(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    // An odd run of backslashes escapes the quote.
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}
