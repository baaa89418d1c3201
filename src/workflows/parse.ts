/** Parses workflow YAML into an editable document, rejecting what is not a workflow. */
import { isMap, isNode, parseDocument, visit, type Document, type YAMLMap } from 'yaml';
import { invalidInput } from '../errors.js';

export interface ParsedWorkflow {
  doc: Document;
  root: YAMLMap;
  jobs: YAMLMap;
}

export function parseWorkflow(text: string, path: string): ParsedWorkflow {
  const doc = parseDocument(text, { keepSourceTokens: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    const where = first?.linePos?.[0] === undefined ? '' : ` at line ${first.linePos[0].line}, column ${first.linePos[0].col}`;
    throw invalidInput('invalid_workflow', `${path} is not valid YAML${where}: ${first?.message.split('\n')[0] ?? 'parse error'}`);
  }
  expandAliases(doc);
  const root = doc.contents;
  if (!isMap(root)) throw invalidInput('invalid_workflow', `${path} is not a workflow: the document is not a mapping`);
  const jobs = root.get('jobs', true);
  if (!isMap(jobs) || jobs.items.length === 0) throw invalidInput('invalid_workflow', `${path} is not a workflow: it has no jobs`);
  if (!root.has('on')) throw invalidInput('invalid_workflow', `${path} is not a workflow: it has no \`on\` triggers`);
  return { doc, root, jobs };
}

/** Serialises a document the way the standardizer writes workflows. */
export function stringifyWorkflow(doc: Document): string {
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false, nullStr: '' });
}

/**
 * Replaces every alias (`*name`) by a copy of its anchored node and drops the anchors, so that removing
 * the job or step that defines an anchor cannot leave another one pointing at nothing.
 */
export function expandAliases(doc: Document): void {
  visit(doc, {
    Alias(_, alias) {
      const copy: unknown = alias.resolve(doc)?.clone();
      return isNode(copy) ? copy : visit.REMOVE;
    },
  });
  visit(doc, {
    Node(_, node) {
      if (node.anchor !== undefined) node.anchor = undefined;
    },
  });
}
