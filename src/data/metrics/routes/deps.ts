/** What the metrics route plugins receive: the store, the clock, page tokens and the network. */
import type { Kysely } from 'kysely';
import type { NetworkIdentity } from '../../../shared/networks.js';
import type { DataSchema } from '../../store/schema.js';
import type { createUuidPageTokens } from '../page-tokens.js';
import type { SignedPage } from '../signed-page.js';

export interface MetricsRouteDeps {
  db: Kysely<DataSchema>;
  now: () => number;
  /** The indexed network: which `{network}` the staking metrics answer (any, when not given). */
  network?: NetworkIdentity;
  /** The legacy v1 listing's 24 h UUID tokens. */
  uuidTokens: ReturnType<typeof createUuidPageTokens>;
  /** Page size of the legacy v1 listing. */
  v1PageSize: number;
  signedPage: SignedPage;
}
