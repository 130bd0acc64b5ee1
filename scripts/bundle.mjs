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

const built = await esbuild.build({
  entryPoints: [path.join(root, 'dist/cli/main.js')],
  outdir,
  absWorkingDir: root,
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
  metafile: true,
});

// Chunks of earlier builds go once they are 10 minutes old, not at once: a flurry started just
// before this build may still be loading its lazy chunks (the working tree is shared while tests
// run), and chunk names change with their content.
const current = new Set(Object.keys(built.metafile.outputs).map((file) => path.resolve(root, file)));
for (const file of fs.readdirSync(outdir)) {
  const full = path.join(outdir, file);
  if (!current.has(full) && Date.now() - fs.statSync(full).mtimeMs > 10 * 60_000) fs.rmSync(full);
}

// A newly added package that locates its files by `__dirname` would break only at run time:
// refuse to build instead, so it is added to EXTERNAL.
for (const full of current) {
  const file = path.basename(full);
  const text = fs.readFileSync(full, 'utf8');
  const at = text.search(/\b__(dirname|filename)\b/);
  if (at >= 0) {
    const pkg = text
      .slice(0, at)
      .match(/\/\/ node_modules\/((@[^/]+\/)?[^/]+)\/[^\n]*\n(?![\s\S]*\/\/ node_modules\/)/);
    console.error(
      `bundle: ${file} uses __dirname/__filename (${pkg?.[1] ?? 'unknown package'}): add it to EXTERNAL in scripts/bundle.mjs`,
    );
    fs.rmSync(path.join(outdir, 'main.js')); // bin/flurry.js runs dist/ meanwhile
    process.exit(1);
  }
}
