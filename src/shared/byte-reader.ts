/**
 * A bounds-checked cursor over Avalanche's big-endian wire layouts (codec-packed txs, blocks,
 * Warp messages). Every read checks the remaining length first and reports a short input through
 * the caller's own error type, so each layer keeps its error contract (a codec error on the node,
 * an upstream error in the indexer) while sharing one reader.
 */
export class ByteReader {
  /** Offset of the next unread byte. */
  at = 0;
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    /** Builds the error thrown for input that ends early (`message` says what was read). */
    private readonly fail: (message: string) => Error,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Throws unless `n` more bytes remain. */
  need(n: number): void {
    if (this.at + n > this.bytes.length) throw this.fail('unexpected end of bytes');
  }

  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.at);
    this.at += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.at);
    this.at += 4;
    return v;
  }

  u64(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.at);
    this.at += 8;
    return v;
  }

  /** The next `n` bytes, as a view into the input (no copy). */
  take(n: number): Uint8Array {
    this.need(n);
    const v = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }

  /** A u32 length, then that many bytes. */
  sized(): Uint8Array {
    return this.take(this.u32());
  }

  /** A list length, refused when even elements of `minElementBytes` each could not fit. */
  count(minElementBytes: number): number {
    const n = this.u32();
    this.need(n * minElementBytes);
    return n;
  }

  /** The unread rest of the input (a view; the cursor does not move). */
  rest(): Uint8Array {
    return this.bytes.subarray(this.at);
  }

  /** Whether every byte was read. */
  done(): boolean {
    return this.at === this.bytes.length;
  }
}
