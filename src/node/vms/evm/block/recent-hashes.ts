/**
 * Block hashes by number for BLOCKHASH and block lookups, the most recently added `limit` kept.
 * The chain adds every block it accepts: a map without a bound grew by one entry per block for
 * the life of the node (BLOCKHASH reads at most the last 256; older hashes come from the store).
 */
export class RecentHashes {
  private readonly byNumber = new Map<bigint, Uint8Array>();

  constructor(private readonly limit = 512) {}

  get(n: bigint): Uint8Array | undefined {
    return this.byNumber.get(n);
  }

  set(n: bigint, hash: Uint8Array): void {
    this.byNumber.delete(n);
    this.byNumber.set(n, hash);
    if (this.byNumber.size > this.limit) this.byNumber.delete(this.byNumber.keys().next().value!);
  }

  get size(): number {
    return this.byNumber.size;
  }
}
