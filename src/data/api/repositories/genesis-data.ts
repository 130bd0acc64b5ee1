/**
 * A chain's genesis bytes as the `genesisData` object: EVM genesis JSON with its numeric header
 * fields as hex strings, as the real service returns them; other genesis bytes stay hex text.
 */
const HEX_FIELDS = [
  'difficulty',
  'gasLimit',
  'gasUsed',
  'nonce',
  'number',
  'timestamp',
  'excessBlobGas',
  'blobGasUsed',
  'extraData',
  'mixHash',
  'parentHash',
  'coinbase',
  'airdropHash',
] as const;

function toHex(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return '0x' + v.toString(16);
  if (typeof v === 'string')
    return v.startsWith('0x') || v === '' ? v : /^\d+$/.test(v) ? '0x' + BigInt(v).toString(16) : v;
  return String(v);
}

function toNumberOrNull(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'string' && v.startsWith('0x') ? Number(BigInt(v)) : Number(v);
  return Number.isFinite(n) ? n : null;
}

export function parseGenesisData(
  genesisHex: string,
  evm: boolean,
): { genesisData?: Record<string, unknown> | string; evmChainId?: number } {
  const bytes = Buffer.from(genesisHex.replace(/^0x/, ''), 'hex');
  const text = bytes.toString('utf8');
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    return bytes.length ? { genesisData: '0x' + bytes.toString('hex') } : {};
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    return { genesisData: '0x' + bytes.toString('hex') };
  if (!evm && !json.config) return { genesisData: json };
  const out: Record<string, unknown> = { ...json };
  for (const f of HEX_FIELDS) if (f in json) out[f] = toHex(json[f]);
  out.baseFeePerGas = toNumberOrNull(json.baseFeePerGas);
  out.airdropAmount = toNumberOrNull(json.airdropAmount);
  if (json.alloc && typeof json.alloc === 'object') {
    const alloc: Record<string, unknown> = {};
    for (const [addr, a] of Object.entries(json.alloc as Record<string, any>)) {
      const key = addr.startsWith('0x') ? addr.toLowerCase() : '0x' + addr.toLowerCase();
      alloc[key] = {
        balance: toHex(a?.balance) ?? '0x0',
        ...(a?.code ? { code: a.code } : {}),
        ...(a?.storage ? { storage: a.storage } : {}),
      };
    }
    out.alloc = alloc;
  }
  const chainId = json.config?.chainId;
  return { genesisData: out, evmChainId: typeof chainId === 'number' ? chainId : undefined };
}
