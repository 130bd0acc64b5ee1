/**
 * uint64 amounts stored as zero-padded 20-digit decimal text: byte order equals numeric order in
 * SQLite and PostgreSQL alike, so amount sorts and minimum filters need no dialect-specific type.
 */
const WIDTH = 20;

export function amountKey(value: bigint | string | number): string {
  const text = typeof value === 'bigint' ? value.toString() : String(value);
  if (!/^\d+$/.test(text) || text.length > WIDTH) throw new RangeError(`not a uint64 amount: ${text}`);
  return text.padStart(WIDTH, '0');
}

export function amountText(key: string): string {
  const trimmed = key.replace(/^0+/, '');
  return trimmed === '' ? '0' : trimmed;
}
