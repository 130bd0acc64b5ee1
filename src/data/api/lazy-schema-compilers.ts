/**
 * Fastify's own schema compilers (Ajv validators, fast-json-stringify serializers), run when a
 * route first needs one instead of at startup. The REST app has ~60 request schemas and ~280
 * response schemas (every route's error statuses, HEAD twins): compiling them all took ~0.2 s
 * of every start, for routes a devnet session mostly never calls. The compiled functions are the
 * same ones fastify would build, with the same options; each is built once, on first use.
 *
 * What changes: a schema that cannot compile fails its route's first request (500) instead of
 * the startup, and the first request of each route pays its compile (a few ms). Bodies are
 * validated without type coercion: query strings and path params are text and need it, a JSON
 * body carries its own types, so `"quorumPercentage": "67"` is a 400 rather than a 67.
 */
import AjvCompiler, { type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type Compile = ReturnType<BuildCompilerFromPool>;
/** What fastify passes a validator compiler (the Ajv compile's types omit it). */
interface ValidatorRoute {
  schema: Parameters<Compile>[0];
  httpPart?: string;
}
type Validate = ReturnType<Compile>;

/** `schemaController.compilersFactory` for `Fastify(...)`. */
export function lazySchemaCompilers(): CompilersFactory {
  const buildValidator = AjvCompiler();
  const buildSerializer = SerializerSelector();
  return {
    buildValidator: (
      externalSchemas: Parameters<BuildCompilerFromPool>[0],
      options: Parameters<BuildCompilerFromPool>[1],
    ) => {
      // Fastify calls the compiler with its route definition, not with a bare schema.
      type CompileRoute = (route: ValidatorRoute) => Validate;
      const compile = buildValidator(externalSchemas, options) as unknown as CompileRoute;
      const withoutCoercion = {
        ...options,
        customOptions: { ...options?.customOptions, coerceTypes: false },
      } as Parameters<BuildCompilerFromPool>[1];
      // Its own Ajv instance, made when the first body schema is compiled.
      let compileBody: CompileRoute | undefined;
      const bodyCompiler = () =>
        (compileBody ??= buildValidator(externalSchemas, withoutCoercion) as unknown as CompileRoute);
      return (route: ValidatorRoute) => {
        // With a compilers factory of its own, fastify no longer lower-cases header schemas:
        // refuse them rather than validate headers case-sensitively.
        if (route.httpPart === 'headers') throw new Error('header schemas are not supported');
        return lazyValidator(() => (route.httpPart === 'body' ? bodyCompiler() : compile)(route));
      };
    },
    buildSerializer: (...args: Parameters<typeof buildSerializer>) => {
      const compile = buildSerializer(...args);
      return (route: Parameters<typeof compile>[0]) => {
        let serialize: ((doc: unknown) => string) | undefined;
        return (doc: unknown) => (serialize ??= compile(route))(doc);
      };
    },
  } as CompilersFactory;
}

/**
 * A validator that compiles on first use. Fastify reads `schemaEnv` (to let Ajv coerce the root
 * value) and `errors` off the function, so both are forwarded to the compiled one.
 */
function lazyValidator(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  const get = () => (compiled ??= compile());
  const validate = function (this: unknown, data: unknown, context?: unknown) {
    const valid = get().call(this, data, context as never);
    if (valid !== true) return valid;
    // Ajv 8 coerces the text "Infinity" (or "1e400") to a number and then skips `minimum` and
    // `maximum` for a value that is not finite, so `pageSize=Infinity` would reach a route.
    const where = nonFiniteNumberAt(data, '');
    if (where === undefined) return true;
    get().errors = [
      {
        instancePath: where,
        schemaPath: '#',
        keyword: 'type',
        params: {},
        message: 'must be a finite number',
      },
    ];
    return false;
  };
  Object.defineProperties(validate, {
    errors: {
      get: () => get().errors,
      set: (errors: Validate['errors']) => (get().errors = errors),
    },
    schemaEnv: { get: () => get().schemaEnv },
  });
  return validate as unknown as Validate;
}

/** Path (JSON pointer) of the first number in a validated value that is not finite, if any. */
function nonFiniteNumberAt(value: unknown, at: string, depth = 0): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : at;
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nonFiniteNumberAt(item, `${at}/${key}`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
