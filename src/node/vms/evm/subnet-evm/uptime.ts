/**
 * Uptime of a chain's validators as this node sees them: every few seconds each validator that
 * is connected (its peer endpoint is online) is credited the time since the last tick, measured
 * on the devnet clock (so `platform.advanceTime` counts as time online for connected
 * validators). Totals survive restarts (kept in the node database's metadata).
 */
import type { ChainContext } from '../../../chains/chain.js';

export type Connectivity = (nodeID: string) => boolean;

interface Track {
  /** Seconds seen online. */
  up: number;
  /** Devnet time (ms) tracking started. */
  since: number;
}

const TICK_MS = 1_000;

export class UptimeTracker {
  private readonly tracks = new Map<string, Track>();
  private lastTickMs: number;
  private timer?: NodeJS.Timeout;
  private connectivity: Connectivity = () => false;
  private readonly key: string;

  constructor(
    private readonly ctx: ChainContext,
    chainID: string,
    private readonly validators: () => string[],
  ) {
    this.key = `subnet-evm/uptime/${chainID}`;
    this.lastTickMs = ctx.clock.nowMs();
    const saved = ctx.db.getMetaString(this.key);
    if (saved) {
      const parsed = JSON.parse(saved) as { tracks: Record<string, Track>; lastTickMs: number };
      for (const [id, t] of Object.entries(parsed.tracks)) this.tracks.set(id, t);
    }
  }

  start(connectivity: Connectivity): void {
    this.connectivity = connectivity;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.tick();
  }

  isConnected(nodeID: string): boolean {
    return this.connectivity(nodeID);
  }

  tick(): void {
    const now = this.ctx.clock.nowMs();
    const elapsed = Math.max(0, now - this.lastTickMs) / 1000;
    this.lastTickMs = now;
    for (const id of this.validators()) {
      let t = this.tracks.get(id);
      if (!t) {
        t = { up: 0, since: now };
        this.tracks.set(id, t);
        continue;
      }
      if (this.connectivity(id)) t.up += elapsed;
    }
    try {
      this.ctx.db.setMeta(
        this.key,
        JSON.stringify({ tracks: Object.fromEntries(this.tracks), lastTickMs: now }),
      );
    } catch {
      // The database is closing: the last totals were saved on the previous tick.
    }
  }

  /**
   * Seconds online and the share of the tracked time. Before any time has been tracked the share
   * is 100%, as the reference reads an uptime whose best possible duration is still 0.
   */
  uptimeOf(nodeID: string): { seconds: number; percentage: number } {
    const t = this.tracks.get(nodeID);
    if (!t) return { seconds: 0, percentage: 100 };
    const tracked = Math.max(0, this.lastTickMs - t.since) / 1000;
    const seconds = Math.min(t.up, tracked);
    return { seconds: Math.floor(seconds), percentage: tracked > 0 ? (seconds / tracked) * 100 : 100 };
  }
}
