/**
 * The one line a role prints when it cannot start. Most failures carry their own words; a port
 * already in use does not say which setting chose it (`listen EADDRINUSE: address already in
 * use 127.0.0.1:9700`, or `bind EADDRINUSE …` from a worker), and a role listens on up to three.
 */

/** The ports a role listens on, by the flag that sets each. */
export type PortFlags = Readonly<Record<string, number>>;

export function startFailure(err: unknown, ports: PortFlags): string {
  const e = err as NodeJS.ErrnoException & { port?: unknown; address?: unknown };
  if (e?.code !== 'EADDRINUSE' || typeof e.port !== 'number') return (err as Error)?.message ?? String(err);
  // Port 0 picks a free port, so only a flag naming this very port can have chosen it.
  const flag = Object.keys(ports).find((name) => ports[name] === e.port);
  const where = typeof e.address === 'string' ? ` on ${e.address}` : '';
  return `port ${e.port}${where} is in use${flag ? ` (${flag})` : ''}; stop what listens there or pick another port`;
}
