/**
 * A reader of avalanchego's linear codec (codec.Manager over reflectcodec) that fails in its
 * words, for the layouts the node decodes by hand but must refuse as the reference does (the
 * Warp message, its AddressedCall and the ACP-77 payloads). Each read names what the reflect
 * codec names for that Go kind: a uint32 field `couldn't unmarshal uint32: <packer error>`, a
 * fixed byte array the packer's error bare, a byte slice's length `couldn't unmarshal slice: …`
 * and its bytes bare, an interface's type id `couldn't unmarshal interface: …`; then the
 * manager's `trailing buffer space: read <n> provided <m>`.
 */
import { ByteReader } from '../../../shared/byte-reader.js';

/** wrappers.ErrInsufficientLength. */
const SHORT = 'packer has insufficient length for input';
const MAX_INT32 = 2 ** 31 - 1;

export class CodecReader {
  private readonly r: ByteReader;

  /**
   * `codec.Manager.Unmarshal`'s opening: the size limit, then the 2-byte version (only 0 is
   * registered by the codecs read here).
   */
  constructor(
    bytes: Uint8Array,
    private readonly fail: (message: string) => Error,
    maxSize = Number.MAX_SAFE_INTEGER,
  ) {
    if (bytes.length > maxSize) throw fail(`byte array exceeds maximum length: ${bytes.length} > ${maxSize}`);
    this.r = new ByteReader(bytes, () => fail(SHORT));
    if (bytes.length < 2) throw fail("couldn't unpack codec version");
    if (this.r.u16() !== 0) throw fail('unknown codec version');
  }

  /** Offset of the next unread byte. */
  get at(): number {
    return this.r.at;
  }

  private under<T>(what: string, read: () => T): T {
    try {
      return read();
    } catch {
      throw this.fail(`${what}: ${SHORT}`);
    }
  }

  u32(): number {
    return this.under("couldn't unmarshal uint32", () => this.r.u32());
  }

  u64(): bigint {
    return this.under("couldn't unmarshal uint64", () => this.r.u64());
  }

  bool(): boolean {
    const b = this.under("couldn't unmarshal bool", () => this.r.take(1)[0]);
    if (b > 1) throw this.fail("couldn't unmarshal bool: unexpected value when unpacking bool");
    return b === 1;
  }

  /** A Go byte array (`[n]byte`, e.g. ids.ID): the packer's error bare. */
  fixed(n: number): Uint8Array {
    return this.r.take(n);
  }

  /** A Go slice's length, refused past MaxInt32 as reflectcodec does. */
  sliceLength(): number {
    const n = this.under("couldn't unmarshal slice", () => this.r.u32());
    if (n > MAX_INT32)
      throw this.fail(`max slice length exceeded; array length, ${n}, exceeds maximum length, ${MAX_INT32}`);
    return n;
  }

  /** A Go `[]byte`: its length, then its bytes (their shortage bare). */
  bytes(): Uint8Array {
    return this.r.take(this.sliceLength());
  }

  /** An interface's type id, one of the `registered` types (ids 0…registered-1). */
  typeId(registered: number): number {
    const id = this.under("couldn't unmarshal interface", () => this.r.u32());
    if (id >= registered) throw this.fail(`couldn't unmarshal interface: unknown type ID ${id}`);
    return id;
  }

  /** Every byte read, or `trailing buffer space: read <n> provided <m>`. */
  end(): void {
    if (!this.r.done())
      throw this.fail(`trailing buffer space: read ${this.r.at} provided ${this.r.bytes.length}`);
  }
}
