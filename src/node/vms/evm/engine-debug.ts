/**
 * The ethereumjs engine creates a `debug` logger in the constructor of every trie, state cache
 * and state manager — a storage trie for each account a state reads, a state manager for each
 * block's read view — and `debug` asks `tty.isatty(stderr)` for each new logger, to choose
 * colours: the largest part of making a trie (about 10 µs per logger). Whether stderr is a
 * terminal does not change while the node runs, so it is asked once here; a logger enabled with
 * DEBUG prints exactly as before (DEBUG_COLORS still decides first, as `debug` reads it).
 *
 * This is the copy of `debug` the engine loads (the only one installed; the bundle shares it).
 */
import createDebug from 'debug';

const colors = createDebug.useColors();
createDebug.useColors = () => colors;
