/**
 * The part of the `debug` package (the logger the ethereumjs engine creates one of for every trie,
 * cache and state manager) that engine-debug.ts uses; the package ships no types.
 */
declare module 'debug' {
  interface CreateDebug {
    (namespace: string): unknown;
    /** Whether a new logger colours its output; asked once per logger created. */
    useColors(): boolean;
  }
  const createDebug: CreateDebug;
  export default createDebug;
}
