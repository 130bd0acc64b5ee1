// `npm run build`, second step: bundles the compiled CLI (dist/cli/main.js) with the packages it
// loads into dist/bundle/, which bin/flurry.js runs. Node 20 resolves, reads and compiles the
// ~2,000 files of the module graph one at a time, about half of a cold start; a few bundled files
// load in a fraction of that. The node, the data platform and the PostgreSQL driver stay lazy
// chunks, loaded only by the roles that use them, as the dynamic imports in dist/ are.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const outdir = path.join(root, 'dist/bundle');

// Loaded from node_modules at run time: native addons, and packages that find files next to
// their own code (`__dirname`: pino's transport workers, the swagger UI's assets, swagger's
// package.json), which a bundle would move away from them.
const EXTERNAL = [
  'libsql',
  '@chainsafe/blst',
  'secp256k1',
  'keccak',
  'pg-native',
  'pino',
  '@fastify/swagger',
  '@fastify/swagger-ui',
];

fs.rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: [path.join(root, 'dist/cli/main.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // CommonJS packages inside an ES module bundle still call require (node builtins, externals).
  banner: {
    js: "import { createRequire as __flurryRequire } from 'node:module'; const require = __flurryRequire(import.meta.url);",
  },
  logLevel: 'error',
});

// A newly added package that locates its files by `__dirname` would break only at run time:
// refuse to build instead, so it is added to EXTERNAL.
for (const file of fs.readdirSync(outdir)) {
  const text = fs.readFileSync(path.join(outdir, file), 'utf8');
  const at = text.search(/\b__(dirname|filename)\b/);
  if (at >= 0) {
    const pkg = text
      .slice(0, at)
      .match(/\/\/ node_modules\/((@[^/]+\/)?[^/]+)\/[^\n]*\n(?![\s\S]*\/\/ node_modules\/)/);
    console.error(
      `bundle: ${file} uses __dirname/__filename (${pkg?.[1] ?? 'unknown package'}): add it to EXTERNAL in scripts/bundle.mjs`,
    );
    process.exit(1);
  }
}
