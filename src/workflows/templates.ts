/** Standardized workflow templates (workflows-templates/) rendered with `{{placeholder}}` values. */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument, Scalar } from 'yaml';
import { invalidInput } from '../errors.js';
import { templatesDir } from '../paths.js';
import { walkStrings } from './nodes.js';
import { stringifyWorkflow } from './parse.js';

/** `{{name}}`, but not GitHub's own `${{ expression }}`. */
const PLACEHOLDER = /(?<!\$)\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g;
const TEMPLATE_NAME = /^[a-z0-9][a-z0-9-]*$/;

export interface TemplateOptions {
  /** Folder holding the templates; by default the repository's workflows-templates/. */
  templatesDir?: string;
}

/** The repository's workflows-templates/ (works from src/ and from dist/src/). */
export function defaultTemplatesDir(): string {
  return templatesDir();
}

/** The placeholders a template text uses, sorted. */
export function templatePlaceholders(text: string): string[] {
  const bodyOnly = text.split('\n').filter((line) => !line.trimStart().startsWith('#')).join('\n');
  return [...new Set([...bodyOnly.matchAll(PLACEHOLDER)].map((match) => match[1] ?? ''))].sort();
}

/** Renders a template text: every placeholder must have a value and every value a placeholder. */
export function renderTemplateText(text: string, values: Readonly<Record<string, string>>, name = 'template'): string {
  const placeholders = templatePlaceholders(text);
  const unknown = Object.keys(values).filter((key) => !placeholders.includes(key)).sort();
  if (unknown.length > 0) {
    throw invalidInput('unknown_placeholder', `${name} has no placeholder ${unknown.join(', ')} (it has ${placeholders.join(', ')})`, { unknown });
  }
  const missing = placeholders.filter((key) => values[key] === undefined || values[key].trim() === '');
  if (missing.length > 0) throw invalidInput('missing_placeholder', `${name} needs a value for ${missing.join(', ')}`, { missing });
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw invalidInput('invalid_template', `${name} is not valid YAML: ${doc.errors[0]?.message ?? ''}`);
  walkStrings(doc.contents, '', ({ scalar }) => {
    const source = String(scalar.value);
    const rendered = source.replace(PLACEHOLDER, (_, key: string) => values[key] ?? '');
    if (rendered === source) return;
    scalar.value = rendered;
    if (rendered.includes('\n')) scalar.type = Scalar.BLOCK_LITERAL;
  });
  return stringifyWorkflow(doc);
}

function checkName(name: string): void {
  if (!TEMPLATE_NAME.test(name)) throw invalidInput('invalid_template_name', `template name ${JSON.stringify(name)} is not valid`);
}

/** The names of the available templates (file names without .yml). */
export async function listTemplates(options: TemplateOptions = {}): Promise<string[]> {
  const files = await readdir(options.templatesDir ?? defaultTemplatesDir());
  return files.filter((file) => file.endsWith('.yml')).map((file) => file.slice(0, -'.yml'.length)).sort();
}

/** Renders `workflows-templates/<name>.yml`. Throws invalid_input on an unknown template or placeholder. */
export async function renderTemplate(name: string, values: Readonly<Record<string, string>>, options: TemplateOptions = {}): Promise<string> {
  checkName(name);
  const dir = options.templatesDir ?? defaultTemplatesDir();
  let text: string;
  try {
    text = await readFile(join(dir, `${name}.yml`), 'utf8');
  } catch {
    throw invalidInput('unknown_template', `there is no workflow template ${name} (have: ${(await listTemplates({ templatesDir: dir })).join(', ')})`);
  }
  return renderTemplateText(text, values, name);
}
