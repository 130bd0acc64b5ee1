/**
 * The devnet clock: real time plus an offset that only moves forward. `advance()` is the
 * devnet-only way to let staking periods end in tests (like dev chains' `evm_increaseTime`);
 * the offset is stored, so time never runs backwards across restarts.
 */
import type { NodeDatabase } from './storage/database.js';

const OFFSET_KEY = 'clock/offset-ms';
/**
 * The latest instant the clock may reach: 9999-12-31T23:59:59Z, the last time RFC 3339 (and Go's
 * time JSON, which the reference's answers use) can write. Beyond it, every API that formats a
 * timestamp would fail, and since the clock never moves back the node would stay broken.
 */
export const LATEST_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
const HIGH_WATER_KEY = 'clock/high-water-ms';

export class DevnetClock {
  private offsetMs: number;
  private highWaterMs: number;

  constructor(private readonly db: NodeDatabase) {
    this.offsetMs = Number(db.getMetaString(OFFSET_KEY) ?? '0');
    this.highWaterMs = Number(db.getMetaString(HIGH_WATER_KEY) ?? '0');
  }

  /** Unix milliseconds; never less than any value returned before, even across restarts. */
  nowMs(): number {
    const t = Date.now() + this.offsetMs;
    if (t < this.highWaterMs) return this.highWaterMs;
    this.highWaterMs = t;
    return t;
  }

  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /** Moves the clock forward by `seconds` and persists the new offset. */
  advance(seconds: number): number {
    if (!Number.isFinite(seconds) || seconds < 0) throw new Error('the clock only moves forward');
    const offsetMs = this.offsetMs + Math.round(seconds * 1000);
    if (Date.now() + offsetMs > LATEST_CLOCK_MS) {
      const room = Math.floor((LATEST_CLOCK_MS - this.nowMs()) / 1000);
      throw new Error(
        `cannot advance the clock by ${seconds} seconds: it would pass 9999-12-31T23:59:59Z, the latest time the node can represent (at most ${room} seconds from now)`,
      );
    }
    this.offsetMs = offsetMs;
    this.db.setMeta(OFFSET_KEY, String(this.offsetMs));
    return this.nowSeconds();
  }

  /** Records the high-water mark (call when committing blocks). */
  persist(): void {
    this.db.setMeta(HIGH_WATER_KEY, String(this.highWaterMs));
  }
}
