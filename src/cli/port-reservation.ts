/**
 * `flurry start` listens on three ports, but binds them one after the other: the node's first,
 * then (once the node serves and the indexer has started) the data platform's two. A data or
 * metrics port already in use was found only after the node had logged `node listening` and the
 * indexer had begun. Holding those ports from before the node starts makes a taken one fail the
 * start at once, in its one line, before anything says it is up.
 */
import net from 'node:net';
import type { PortFlags } from './start-failure.js';

export interface ReservedPorts {
  /** Lets the ports go, just before the servers that will serve on them bind them. */
  release(): Promise<void>;
}

/**
 * Binds each given port (0 picks a free port, so there is nothing to hold) on `host`. Rejects
 * with the first bind error (EADDRINUSE names its port, so startFailure can name the flag),
 * after letting go of the ports already held.
 */
export async function reservePorts(host: string, ports: PortFlags): Promise<ReservedPorts> {
  const held: net.Server[] = [];
  const release = () =>
    Promise.all(held.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  try {
    for (const port of new Set(Object.values(ports))) {
      if (port === 0) continue;
      const server = net.createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        // exclusive: a cluster worker must not be handed a share of the primary's handle.
        server.listen({ host, port, exclusive: true }, () => resolve());
      });
      held.push(server);
    }
  } catch (err) {
    await release();
    throw err;
  }
  return {
    async release() {
      await release();
    },
  };
}
