import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;

const require = createRequire(import.meta.url);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface SchemaValidator {
  /** Throws (with ajv's errors) unless `body` matches the documented response of the operation and status. */
  assertResponse(method: string, pathTemplate: string, status: number, body: unknown): void;
  /** Throws unless the payload matches `@octokit/openapi-webhooks`' schema for `event` + `action`. */
  assertWebhook(event: string, action: string | null, payload: unknown): void;
  /** The documented path template a concrete request path belongs to, or null. */
  findOperation(method: string, path: string): string | null;
  /** Required top-level request body fields of an operation. */
  requiredBodyFields(method: string, pathTemplate: string): string[];
}

function rewriteRefs(node: unknown, prefix: string): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, prefix));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${prefix}${value}` : rewriteRefs(value, prefix);
  }
  return out;
}

/** OpenAPI 3.0 `nullable: true` → JSON Schema (a `null` type, or anyOf null where no type is given). */
function convertNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convertNullable);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) if (key !== 'nullable') out[key] = convertNullable(value);
  // Document bug: some inlined schemas say allOf [Simple User, Enterprise] where components say anyOf.
  if (Array.isArray(out.allOf) && (out.allOf as Json[]).some((m) => m.title === 'Enterprise') && (out.allOf as Json[]).some((m) => m.title === 'Simple User')) {
    out.anyOf = out.allOf;
    delete out.allOf;
  }
  if ((node as Json).nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

function pointer(doc: Json, ref: string): Json {
  let node: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node as Json;
}

function deref(doc: Json, node: Json): Json {
  return typeof node.$ref === 'string' ? deref(doc, pointer(doc, node.$ref)) : node;
}

/** Loads GitHub's REST and webhook OpenAPI documents; compiles only the schemas asked for, once each. */
export function createSchemaValidator(): SchemaValidator {
  const rest = require('@octokit/openapi/generated/api.github.com.json') as Json;
  const hooks = require('@octokit/openapi-webhooks/generated/api.github.com.json') as Json;
  const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true, logger: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'rest', components: convertNullable(rest.components) } as Json);
  ajv.addSchema({ $id: 'hooks', components: hooks.components } as Json);
  const compiled = new Map<string, ValidateFunction>();
  const templates = Object.keys(rest.paths as Json).map((template) => ({
    template,
    literal: template.split('/').filter((s) => !s.startsWith('{')).length,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, (m) => (m === '{ref}' || m === '{path}' ? '.+' : '[^/]+'))}$`),
  })).sort((a, b) => b.literal - a.literal);

  const check = (validate: ValidateFunction, body: unknown, what: string): void => {
    if (validate(body)) return;
    const errors = (validate.errors ?? []).slice(0, 30).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    throw new Error(`${what} does not match GitHub's schema:\n${errors.join('\n')}`);
  };

  return {
    assertResponse(method, pathTemplate, status, body) {
      const key = `${method.toUpperCase()} ${pathTemplate} ${status}`;
      let validate = compiled.get(key);
      if (!validate) {
        const operation = (rest.paths as Record<string, Record<string, Json>>)[pathTemplate]?.[method.toLowerCase()];
        if (!operation) throw new Error(`${method} ${pathTemplate} is not a documented GitHub operation`);
        const responses = operation.responses as Record<string, Json>;
        // Errors GitHub returns but does not document per operation are checked against its generic error shape.
        const documented = responses[String(status)] ?? (status >= 400 ? { content: { 'application/json': { schema: { $ref: status === 422 ? '#/components/schemas/validation-error' : '#/components/schemas/basic-error' } } } } : undefined);
        if (!documented) throw new Error(`${method} ${pathTemplate} does not document status ${status} (has ${Object.keys(responses).join(', ')})`);
        const response = deref(rest, documented);
        const schema = ((response.content as Record<string, Json> | undefined)?.['application/json']?.schema ?? null) as Json | null;
        if (!schema) {
          if (body !== undefined && body !== null && body !== '') throw new Error(`${key} documents no body`);
          return;
        }
        validate = ajv.compile(rewriteRefs(convertNullable(schema), 'rest') as Json);
        compiled.set(key, validate);
      }
      check(validate, body, key);
    },
    assertWebhook(event, action, payload) {
      const name = [event, action].filter(Boolean).join('-').replace(/_/g, '-');
      let validate = compiled.get(`hook ${name}`);
      if (!validate) {
        const hook = (hooks.webhooks as Record<string, { post: Json }>)[name];
        if (!hook) throw new Error(`webhook ${name} is not documented`);
        const schema = ((hook.post.requestBody as Json).content as Record<string, Json>)['application/json']?.schema as Json;
        validate = ajv.compile(rewriteRefs(schema, 'hooks') as Json);
        compiled.set(`hook ${name}`, validate);
      }
      check(validate, payload, `webhook ${name}`);
    },
    findOperation(method, path) {
      const paths = rest.paths as Record<string, Json>;
      const found = templates.find((t) => t.pattern.test(path) && paths[t.template]?.[method.toLowerCase()] !== undefined);
      return found?.template ?? null;
    },
    requiredBodyFields(method, pathTemplate) {
      const operation = (rest.paths as Record<string, Record<string, Json>>)[pathTemplate]?.[method.toLowerCase()];
      const requestBody = operation?.requestBody as Json | undefined;
      if (!requestBody) return [];
      const schema = (deref(rest, requestBody).content as Record<string, Json> | undefined)?.['application/json']?.schema as Json | undefined;
      if (!schema) return [];
      const resolved = deref(rest, schema);
      return Array.isArray(resolved.required) ? resolved.required.map(String) : [];
    },
  };
}

const shared: { validator: SchemaValidator | null } = { validator: null };

function validator(): SchemaValidator {
  shared.validator ??= createSchemaValidator();
  return shared.validator;
}

/** Throws unless `body` matches GitHub's documented response schema (`@octokit/openapi`). */
export function assertMatchesSchema(method: string, pathTemplate: string, status: number, body: unknown): void {
  validator().assertResponse(method, pathTemplate, status, body);
}

/** Throws unless a webhook payload matches `@octokit/openapi-webhooks`. */
export function assertWebhookMatchesSchema(event: string, action: string | null, payload: unknown): void {
  validator().assertWebhook(event, action, payload);
}
