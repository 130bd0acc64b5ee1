#!/usr/bin/env node
// Compares the OpenAPI document a Flurry service serves with the real service's public document
// (shared/reference/openapi/): for every path+method in both, the parameters (in, required,
// schema type/format/enum/default/minimum/maximum), the JSON request body and the success
// response's schema (property names, types, required lists, enums; $refs resolved, allOf merged,
// oneOf/anyOf variants united), plus the paths only one side has.
//
//   node scripts/openapi-diff.mjs <served: URL or file> <reference: URL or file> [--depth N]
//
// It is an audit aid, not a test: every line it prints is a lead to check against the running
// service (a document-only difference is a route-schema fix; a behaviour difference a code fix).
import fs from 'node:fs';

const args = process.argv.slice(2);
const depthAt = args.indexOf('--depth');
const MAX_DEPTH = depthAt >= 0 ? Number(args.splice(depthAt, 2)[1]) : 4;
if (args.length !== 2) {
  process.stderr.write('usage: openapi-diff.mjs <served URL|file> <reference URL|file> [--depth N]\n');
  process.exit(2);
}
const load = async (src) =>
  /^https?:/.test(src) ? (await fetch(src)).json() : JSON.parse(fs.readFileSync(src, 'utf8'));
const [ours, ref] = await Promise.all(args.map(load));
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Follows local $refs (`#/components/...`). */
function deref(doc, node, seen = new Set()) {
  while (node && node.$ref) {
    if (seen.has(node.$ref)) return { type: `<cycle ${node.$ref}>` };
    seen.add(node.$ref);
    node = node.$ref
      .slice(2)
      .split('/')
      .reduce((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return node ?? {};
}

/** One schema flattened: allOf merged, oneOf/anyOf united (nullable variants folded in). */
function flatten(doc, schema) {
  schema = deref(doc, schema);
  const out = { ...schema };
  const types = new Set();
  const addType = (t) => (Array.isArray(t) ? t : t ? [t] : []).forEach((x) => types.add(x));
  addType(schema.type);
  const merge = (sub, union) => {
    const f = flatten(doc, sub);
    f.types.forEach((t) => types.add(t));
    for (const k of ['format', 'default', 'minimum', 'maximum', 'items'])
      if (f[k] !== undefined && out[k] === undefined) out[k] = f[k];
    // Enums unite across variants (a oneOf of consts, or of objects each with its own status).
    if (f.enum) out.enum = [...new Set([...(out.enum ?? []), ...f.enum])];
    // A property several variants have: unite its enums too.
    const props = { ...(out.properties ?? {}) };
    for (const [name, sub] of Object.entries(f.properties ?? {}))
      props[name] = props[name] && union ? { anyOf: [props[name], sub] } : sub;
    out.properties = props;
    // allOf: every part's required holds; a union: only what every variant requires.
    if (!union) out.required = [...new Set([...(out.required ?? []), ...(f.required ?? [])])];
    return f;
  };
  for (const sub of schema.allOf ?? []) merge(sub, false);
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) {
    const reqs = variants.map((v) => merge(v, true).required ?? []);
    const nonNull = variants.filter((v) => deref(doc, v).type !== 'null');
    const common = reqs.length ? reqs.reduce((a, b) => a.filter((x) => b.includes(x))) : [];
    out.required = [...new Set([...(schema.required ?? []), ...(nonNull.length > 1 ? common : reqs.flat())])];
  }
  if (schema.nullable) types.add('null');
  if (schema.const !== undefined) out.enum = [schema.const];
  if (!types.size && out.properties && Object.keys(out.properties).length) types.add('object');
  if (!types.size && out.items) types.add('array');
  out.types = [...types].sort();
  return out;
}

const show = (v) => (v === undefined ? '—' : JSON.stringify(v));
const sortEnum = (e) => (e ? [...e].map(String).sort() : undefined);

/** Differences between two schemas, as lines prefixed by `where`. */
function compareSchema(a, b, where, depth, lines, oursDoc = ours, refDoc = ref) {
  const fa = flatten(oursDoc, a);
  const fb = flatten(refDoc, b);
  const ta = fa.types.filter((t) => t !== 'null');
  const tb = fb.types.filter((t) => t !== 'null');
  if (show(ta) !== show(tb) && tb.length) lines.push(`${where}: type ours ${show(ta)} ref ${show(tb)}`);
  if (fa.types.includes('null') !== fb.types.includes('null') && tb.length)
    lines.push(`${where}: nullable ours ${fa.types.includes('null')} ref ${fb.types.includes('null')}`);
  for (const k of ['format', 'default', 'minimum', 'maximum'])
    if (show(fa[k]) !== show(fb[k])) lines.push(`${where}: ${k} ours ${show(fa[k])} ref ${show(fb[k])}`);
  const ea = sortEnum(fa.enum);
  const eb = sortEnum(fb.enum);
  if (show(ea) !== show(eb)) {
    const onlyRef = (eb ?? []).filter((x) => !(ea ?? []).includes(x));
    const onlyOurs = (ea ?? []).filter((x) => !(eb ?? []).includes(x));
    if (!ea) lines.push(`${where}: enum ours — ref ${show(eb)}`);
    else if (!eb) lines.push(`${where}: enum ours ${show(ea)} ref —`);
    else lines.push(`${where}: enum only-ref ${show(onlyRef)} only-ours ${show(onlyOurs)}`);
  }
  if (depth >= MAX_DEPTH) return;
  const pa = fa.properties ?? {};
  const pb = fb.properties ?? {};
  if (Object.keys(pa).length || Object.keys(pb).length) {
    const ra = new Set(fa.required ?? []);
    const rb = new Set(fb.required ?? []);
    for (const name of Object.keys(pb))
      if (!(name in pa))
        lines.push(`${where}.${name}: missing in ours (ref${rb.has(name) ? ' required' : ''})`);
    for (const name of Object.keys(pa))
      if (!(name in pb)) lines.push(`${where}.${name}: extra in ours${ra.has(name) ? ' (required)' : ''}`);
    for (const name of Object.keys(pb)) {
      if (!(name in pa)) continue;
      if (ra.has(name) !== rb.has(name))
        lines.push(`${where}.${name}: required ours ${ra.has(name)} ref ${rb.has(name)}`);
      compareSchema(pa[name], pb[name], `${where}.${name}`, depth + 1, lines, oursDoc, refDoc);
    }
  }
  if (fa.items || fb.items)
    compareSchema(fa.items ?? {}, fb.items ?? {}, `${where}[]`, depth + 1, lines, oursDoc, refDoc);
}

const norm = (p) => p.replace(/\{[^}]+\}/g, '{}');
const index = (doc) => {
  const m = new Map();
  for (const [p, item] of Object.entries(doc.paths ?? {}))
    for (const method of METHODS)
      if (item[method]) m.set(`${method.toUpperCase()} ${norm(p)}`, { p, item, op: item[method] });
  return m;
};
const io = index(ours);
const ir = index(ref);

const params = (doc, item, op) => {
  const all = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((x) => deref(doc, x));
  return new Map(all.map((x) => [`${x.in}:${x.name}`, x]));
};
const bodySchema = (doc, op) => {
  const body = deref(doc, op.requestBody);
  return body?.content?.['application/json']?.schema;
};
const okSchema = (doc, op) => {
  const code = Object.keys(op.responses ?? {}).find((c) => /^2\d\d$/.test(c));
  const r = deref(doc, op.responses?.[code]);
  return { code, schema: r?.content?.['application/json']?.schema };
};

let differences = 0;
for (const [key, r] of ir) {
  const o = io.get(key);
  if (!o) continue;
  const lines = [];
  const pa = params(ours, o.item, o.op);
  const pb = params(ref, r.item, r.op);
  // Path parameters may be named differently; match them by position.
  const pathNames = (p) => [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const rename = new Map(pathNames(o.p).map((n, i) => [`path:${n}`, `path:${pathNames(r.p)[i]}`]));
  const pa2 = new Map([...pa].map(([k, v]) => [rename.get(k) ?? k, v]));
  for (const [k, b] of pb) {
    const a = pa2.get(k);
    if (!a) {
      lines.push(`param ${k}: missing in ours${b.required ? ' (ref required)' : ''}`);
      continue;
    }
    if (!!a.required !== !!b.required)
      lines.push(`param ${k}: required ours ${!!a.required} ref ${!!b.required}`);
    compareSchema(a.schema ?? {}, b.schema ?? {}, `param ${k}`, MAX_DEPTH - 1, lines);
  }
  for (const k of pa2.keys()) if (!pb.has(k)) lines.push(`param ${k}: extra in ours`);
  const ba = bodySchema(ours, o.op);
  const bb = bodySchema(ref, r.op);
  if (ba || bb) compareSchema(ba ?? {}, bb ?? {}, 'body', 0, lines);
  const sa = okSchema(ours, o.op);
  const sb = okSchema(ref, r.op);
  if (sa.code !== sb.code) lines.push(`success status ours ${sa.code} ref ${sb.code}`);
  if (sa.schema || sb.schema) compareSchema(sa.schema ?? {}, sb.schema ?? {}, 'response', 0, lines);
  if (lines.length) {
    differences += lines.length;
    console.log(`\n## ${key.split(' ')[0]} ${r.p}${o.p !== r.p ? `   (ours ${o.p})` : ''}`);
    for (const l of lines) console.log(`  ${l}`);
  }
}
const onlyRef = [...ir.keys()].filter((k) => !io.has(k));
const onlyOurs = [...io.keys()].filter((k) => !ir.has(k));
console.log(`\n## only in the reference (${onlyRef.length})`);
for (const k of onlyRef) console.log(`  ${k.split(' ')[0]} ${ir.get(k).p}`);
console.log(`\n## only in ours (${onlyOurs.length})`);
for (const k of onlyOurs) console.log(`  ${k.split(' ')[0]} ${io.get(k).p}`);
console.log(
  `\n${differences} differences on ${[...ir.keys()].filter((k) => io.has(k)).length} shared operations`,
);
