/**
 * Command-line flags and their environment variables, validated once into typed config.
 * Every flag `--foo-bar` has a variable `FLURRY_FOO_BAR`; a flag wins over its variable.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_TX_POOL_LIMITS, type TxPoolLimits } from '../node/vms/evm/txpool/limits.js';
import { networkByName, type NetworkIdentity } from '../shared/networks.js';

/** The largest pool limit a flag takes: a million transactions is far past what memory allows. */
const MAX_POOL_LIMIT = 1_000_000;

export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The help to print after the message: the command's own when one was named. */
  constructor(
    message: string,
    readonly usage = USAGE,
  ) {
    super(message);
  }
}

export interface CliOptions {
  command: string;
  network: NetworkIdentity;
  dataDir: string;
  reset: boolean;
  seed: string;
  validators: number;
  blockTimeMs: number;
  host: string;
  nodePort: number;
  dataPort: number;
  metricsPort: number;
  json: boolean;
  logLevel: string;
  indexEnabled: boolean;
  indexAllowIncomplete: boolean;
  debugApi: boolean;
  pruningEnabled: boolean;
  historicalProofQueryWindow: number;
  minStakeDuration: number;
  /** EVM chains: ms one `eth_call` may run (geth's RPCEVMTimeout, 5 s; 0: no limit). */
  rpcEvmTimeoutMs: number;
  /** EVM chains: result bytes one JSON-RPC batch may return (coreth's 25 MB; 0: no cap). */
  batchResponseMaxBytes: number;
  /** Every HTTP server: ms a client may take to send a request (AvalancheGo's 30 s; 0: none). */
  httpReadTimeoutMs: number;
  /** EVM chains: the transaction pool's limits (coreth's `tx-pool-*` settings and defaults). */
  txPool: TxPoolLimits;
  /** `postgres://…` for the data platform's store; absent: SQLite in the data dir. */
  databaseUrl?: string;
  /** Node the `indexer` role reads (and the `api` role asks for live validator figures). */
  nodeUrl?: string;
  apiKeysFile?: string;
  /** Containers the indexer reads and writes per transaction (1 to 1024). */
  indexerBatchSize: number;
  /** `api` role: processes serving the REST and metrics ports together (0 = one per core). */
  workers: number;
}

const FLAGS = {
  network: { type: 'string' },
  'data-dir': { type: 'string' },
  reset: { type: 'boolean' },
  seed: { type: 'string' },
  validators: { type: 'string' },
  'block-time': { type: 'string' },
  host: { type: 'string' },
  'node-port': { type: 'string' },
  'data-port': { type: 'string' },
  'metrics-port': { type: 'string' },
  json: { type: 'boolean' },
  'log-level': { type: 'string' },
  'index-enabled': { type: 'string' },
  'index-allow-incomplete': { type: 'boolean' },
  'debug-api': { type: 'string' },
  'pruning-enabled': { type: 'string' },
  'historical-proof-query-window': { type: 'string' },
  'min-stake-duration': { type: 'string' },
  'rpc-evm-timeout': { type: 'string' },
  'batch-response-max-size': { type: 'string' },
  'http-read-timeout': { type: 'string' },
  'tx-pool-account-slots': { type: 'string' },
  'tx-pool-global-slots': { type: 'string' },
  'tx-pool-account-queue': { type: 'string' },
  'tx-pool-global-queue': { type: 'string' },
  'database-url': { type: 'string' },
  'node-url': { type: 'string' },
  'api-keys-file': { type: 'string' },
  'indexer-batch-size': { type: 'string' },
  workers: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

type Flag = keyof typeof FLAGS;
type Command = 'start' | 'node' | 'indexer' | 'api';

const COMMANDS: Record<Command, string> = {
  start: 'the devnet node and every data service in one process (default)',
  node: 'the node alone',
  indexer: 'the chain-data indexer alone (needs --node-url)',
  api: 'the chain-data REST and metrics services alone (read the store an indexer fills)',
};

/** Each option's help line, in the order help lists them. */
const OPTION_HELP: [Flag, string][] = [
  ['network', '--network local|fuji|mainnet   network identity (default local)'],
  ['data-dir', '--data-dir DIR                 state directory (default ./.flurry)'],
  ['reset', '--reset                        delete the state directory first'],
  ['seed', '--seed TEXT                    seed of every derived key (default "flurry")'],
  ['validators', '--validators N                 primary-network validators (default 5)'],
  [
    'block-time',
    '--block-time MS                0 = build a block as soon as a transaction arrives (default 0)',
  ],
  ['host', '--host HOST                    listen address (default 127.0.0.1)'],
  ['node-port', '--node-port PORT               node JSON-RPC port (default 9650; 0 = any free port)'],
  ['data-port', '--data-port PORT               chain-data REST port (default 9700)'],
  ['metrics-port', '--metrics-port PORT            metrics REST port (default 9701)'],
  ['index-enabled', '--index-enabled true|false     serve the index API (default true)'],
  [
    'index-allow-incomplete',
    '--index-allow-incomplete       start even if indexing was on before and is off now',
  ],
  ['debug-api', '--debug-api true|false         serve the EVM debug_ namespace (default true)'],
  [
    'pruning-enabled',
    '--pruning-enabled true|false   C-chain eth_getProof only within 32 blocks of the head (default false)',
  ],
  [
    'historical-proof-query-window',
    '--historical-proof-query-window N  archival eth_getProof window in blocks, 0 = any (default 43200)',
  ],
  ['min-stake-duration', '--min-stake-duration SECONDS   shortest P-chain staking period (default 60)'],
  [
    'rpc-evm-timeout',
    '--rpc-evm-timeout MS           how long one eth_call may run, 0 = no limit (default 5000)',
  ],
  [
    'http-read-timeout',
    '--http-read-timeout MS         time a client may take to send a request, every port, 0 = no limit (default 30000)',
  ],
  [
    'batch-response-max-size',
    '--batch-response-max-size BYTES  result bytes one EVM JSON-RPC batch may return, 0 = no cap (default 25000000)',
  ],
  [
    'tx-pool-account-slots',
    '--tx-pool-account-slots N      EVM pools: executable txs kept per sender when the pool is over its global slots (default 16)',
  ],
  [
    'tx-pool-global-slots',
    '--tx-pool-global-slots N       EVM pools: executable txs of all senders (default 5120)',
  ],
  [
    'tx-pool-account-queue',
    '--tx-pool-account-queue N      EVM pools: nonce-gapped (queued) txs kept per sender (default 64)',
  ],
  [
    'tx-pool-global-queue',
    '--tx-pool-global-queue N       EVM pools: nonce-gapped txs of all senders (default 1024)',
  ],
  ['log-level', '--log-level LEVEL              trace|debug|info|warn|error|fatal|silent (default info)'],
  ['json', '--json                         print one JSON line with every URL and key instead of the banner'],
  [
    'database-url',
    '--database-url URL             postgres://… store for the data platform (default SQLite in the data dir)',
  ],
  [
    'node-url',
    '--node-url URL                 node the indexer reads (indexer/api roles; start uses its own node)',
  ],
  [
    'api-keys-file',
    '--api-keys-file FILE           JSON file of API keys, tiers and prices (else FLURRY_API_KEYS)',
  ],
  [
    'indexer-batch-size',
    '--indexer-batch-size N         containers per indexer transaction, 1 to 1024 (default 1024)',
  ],
  [
    'workers',
    '--workers N                    api role: processes sharing its ports, 0 = one per core (default 1)',
  ],
  ['version', '--version                      print the version and exit'],
  ['help', '-h, --help                     print this help and exit'],
];

/** What every role reads: where its state is, how it logs and reports, and the help flags. */
const EVERY_ROLE: Flag[] = ['data-dir', 'reset', 'log-level', 'json', 'version', 'help'];
const NODE_FLAGS: Flag[] = [
  'network',
  'seed',
  'validators',
  'block-time',
  'host',
  'node-port',
  'index-enabled',
  'index-allow-incomplete',
  'debug-api',
  'pruning-enabled',
  'historical-proof-query-window',
  'min-stake-duration',
  'rpc-evm-timeout',
  'http-read-timeout',
  'batch-response-max-size',
  'tx-pool-account-slots',
  'tx-pool-global-slots',
  'tx-pool-account-queue',
  'tx-pool-global-queue',
];
/**
 * The flags each role uses. The indexer serves no port and learns its network from its node;
 * `start` reads its own node, so it takes no --node-url, and serves no --workers.
 */
const ROLE_FLAGS: Record<Command, ReadonlySet<Flag>> = {
  start: new Set([
    ...EVERY_ROLE,
    ...NODE_FLAGS,
    'data-port',
    'metrics-port',
    'database-url',
    'api-keys-file',
    'indexer-batch-size',
  ]),
  node: new Set([...EVERY_ROLE, ...NODE_FLAGS]),
  indexer: new Set([...EVERY_ROLE, 'database-url', 'node-url', 'indexer-batch-size']),
  api: new Set([
    ...EVERY_ROLE,
    'network',
    'host',
    'data-port',
    'metrics-port',
    'http-read-timeout',
    'database-url',
    'node-url',
    'api-keys-file',
    'workers',
  ]),
};

function optionLines(flags: (flag: Flag) => boolean): string {
  return OPTION_HELP.filter(([flag]) => flags(flag))
    .map(([, line]) => `  ${line}\n`)
    .join('');
}

export const USAGE = `Usage: flurry <command> [options]

Commands:
${(Object.keys(COMMANDS) as Command[]).map((c) => `  ${c.padEnd(10)} ${COMMANDS[c]}\n`).join('')}\
  help       print this help (as --help)
  version    print the version (as --version)

Options (each also read from FLURRY_<NAME>, e.g. FLURRY_NODE_PORT):
${optionLines(() => true)}`;

/** `flurry <role> --help`: the options that role reads. */
export function roleUsage(command: Command): string {
  return `Usage: flurry ${command} [options]

${COMMANDS[command][0].toUpperCase()}${COMMANDS[command].slice(1)}.

Options (each also read from FLURRY_<NAME>; a variable this command does not read is ignored):
${optionLines((flag) => ROLE_FLAGS[command].has(flag))}`;
}

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

function envName(flag: string): string {
  return 'FLURRY_' + flag.toUpperCase().replace(/-/g, '_');
}

export function parseOptions(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): CliOptions & { help: boolean; version: boolean; usage: string } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  // `flurry help` and `flurry version`, as many CLIs take them, are the flags by another name.
  const word = positionals[0];
  if (word === 'help') values.help = true;
  if (word === 'version') values.version = true;
  const named = word !== undefined && word !== 'help' && word !== 'version';
  const command = (named ? word : 'start') as Command;
  if (!(command in COMMANDS)) throw new UsageError(`unknown command "${command}"`);
  // `flurry <command> --help` is that command's help; `flurry --help` everything's.
  const usage = named ? roleUsage(command) : USAGE;
  const reads = ROLE_FLAGS[command];
  // A flag its role does not read is refused rather than silently ignored (`flurry node
  // --data-port 1` serves no data port). Its FLURRY_ variable is not even looked at: one
  // environment may configure every role, and another role's bad value is that role's error.
  const unread = Object.keys(values).find((flag) => !reads.has(flag as Flag));
  if (unread !== undefined && values.help !== true)
    throw new UsageError(`--${unread} is not an option of the ${command} command`, usage);
  const flagValue = (flag: Flag) => (values as Record<string, string | boolean | undefined>)[flag];
  const get = (flag: Flag): string | boolean | undefined =>
    flagValue(flag) ?? (reads.has(flag) ? env[envName(flag)] : undefined);
  /** Where a bad value came from, so the message names what the operator has to change. */
  const origin = (flag: Flag) => (flagValue(flag) === undefined ? envName(flag) : `--${flag}`);
  const refuse = (message: string) => new UsageError(message, usage);
  const str = (flag: Flag, fallback: string): string => {
    const v = get(flag);
    return v === undefined || v === '' ? fallback : String(v);
  };
  const bool = (flag: Flag, fallback: boolean): boolean => {
    const v = get(flag);
    if (v === undefined || v === '') return fallback;
    if (typeof v === 'boolean') return v;
    if (/^(1|true|yes|on)$/i.test(v)) return true;
    if (/^(0|false|no|off)$/i.test(v)) return false;
    throw refuse(`${origin(flag)} must be true or false, got "${v}"`);
  };
  const int = (flag: Flag, fallback: number, min: number, max: number): number => {
    const text = str(flag, String(fallback));
    if (!/^\d+$/.test(text)) throw refuse(`${origin(flag)} must be a whole number, got "${text}"`);
    const n = Number(text);
    if (n < min || n > max) throw refuse(`${origin(flag)} must be between ${min} and ${max}, got ${n}`);
    return n;
  };
  const optional = (flag: Flag): string | undefined => {
    const v = str(flag, '');
    return v === '' ? undefined : v;
  };

  const networkName = str('network', 'local');
  const network = networkByName(networkName);
  if (!network) throw refuse(`${origin('network')} must be local, fuji or mainnet, got "${networkName}"`);
  // pino throws on an unknown level deep in start-up: refuse it here as the bad value it is.
  const logLevel = str('log-level', 'info');
  if (!LOG_LEVELS.includes(logLevel))
    throw refuse(`${origin('log-level')} must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const databaseUrl = optional('database-url');
  if (databaseUrl && !/^postgres(ql)?:\/\//i.test(databaseUrl))
    throw refuse(`${origin('database-url')} must be a postgres:// URL`);
  const nodeUrl = optional('node-url');
  if (nodeUrl && !/^https?:\/\/[^/]+/i.test(nodeUrl))
    throw refuse(`${origin('node-url')} must be an http(s):// URL`);
  // `flurry indexer --help` asks how to give it a node: answer that, not the missing flag.
  if (command === 'indexer' && !nodeUrl && values.help !== true && values.version !== true)
    throw refuse('the indexer command needs --node-url');
  return {
    command,
    usage,
    help: values.help === true,
    version: values.version === true,
    network,
    dataDir: path.resolve(str('data-dir', './.flurry')),
    reset: bool('reset', false),
    seed: str('seed', 'flurry'),
    validators: int('validators', 5, 1, 2000),
    blockTimeMs: int('block-time', 0, 0, 3_600_000),
    host: str('host', '127.0.0.1'),
    nodePort: int('node-port', 9650, 0, 65535),
    dataPort: int('data-port', 9700, 0, 65535),
    metricsPort: int('metrics-port', 9701, 0, 65535),
    json: bool('json', false),
    logLevel,
    indexEnabled: bool('index-enabled', true),
    indexAllowIncomplete: bool('index-allow-incomplete', false),
    debugApi: bool('debug-api', true),
    pruningEnabled: bool('pruning-enabled', false),
    historicalProofQueryWindow: int('historical-proof-query-window', 43_200, 0, Number.MAX_SAFE_INTEGER),
    minStakeDuration: int('min-stake-duration', 60, 1, 365 * 24 * 3600),
    rpcEvmTimeoutMs: int('rpc-evm-timeout', 5000, 0, 3_600_000),
    batchResponseMaxBytes: int('batch-response-max-size', 25_000_000, 0, Number.MAX_SAFE_INTEGER),
    httpReadTimeoutMs: int('http-read-timeout', 30_000, 0, 3_600_000),
    // coreth takes 0 as "use the default"; here a limit is at least 1, a 0 refused as out of range.
    txPool: {
      accountSlots: int('tx-pool-account-slots', DEFAULT_TX_POOL_LIMITS.accountSlots, 1, MAX_POOL_LIMIT),
      globalSlots: int('tx-pool-global-slots', DEFAULT_TX_POOL_LIMITS.globalSlots, 1, MAX_POOL_LIMIT),
      accountQueue: int('tx-pool-account-queue', DEFAULT_TX_POOL_LIMITS.accountQueue, 1, MAX_POOL_LIMIT),
      globalQueue: int('tx-pool-global-queue', DEFAULT_TX_POOL_LIMITS.globalQueue, 1, MAX_POOL_LIMIT),
    },
    databaseUrl,
    nodeUrl,
    apiKeysFile: optional('api-keys-file'),
    indexerBatchSize: int('indexer-batch-size', 1024, 1, 1024),
    workers: int('workers', 1, 0, 256),
  };
}
