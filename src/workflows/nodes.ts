/** Helpers over the `yaml` package's node API. */
import { isMap, isPair, isScalar, isSeq, Pair, Scalar, type Document, type Node, type YAMLMap } from 'yaml';

export type AnyNode = Node | null | undefined;

export function mapAt(map: YAMLMap | undefined, key: string): YAMLMap | undefined {
  const value = map?.get(key, true);
  return isMap(value) ? value : undefined;
}

export function stringAt(map: YAMLMap | undefined, key: string): string | undefined {
  const value = map?.get(key, true);
  if (!isScalar(value)) return undefined;
  return value.value === null || value.value === undefined ? undefined : String(value.value);
}

export function keyOf(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

export function pairsOf(map: YAMLMap | undefined): Array<Pair<unknown, unknown>> {
  return (map?.items ?? []).filter((item): item is Pair<unknown, unknown> => isPair(item));
}

/** The list of strings of a scalar-or-sequence value (`needs`, `runs-on`). */
export function stringList(node: unknown): string[] {
  if (isScalar(node)) return node.value === null || node.value === undefined ? [] : [String(node.value)];
  if (isSeq(node)) return node.items.flatMap((item) => stringList(item));
  if (isMap(node)) return pairsOf(node).flatMap((pair) => [keyOf(pair), ...stringList(pair.value)]);
  return [];
}

/** Inserts a pair before the first existing key in `before` (or at the end). */
export function insertPair(map: YAMLMap, key: string, value: unknown, before: readonly string[], doc: Document): void {
  const pair = new Pair(new Scalar(key), doc.createNode(value));
  const index = map.items.findIndex((item) => isPair(item) && before.includes(keyOf(item)));
  if (index === -1) map.items.push(pair);
  else map.items.splice(index, 0, pair);
}

/** Inserts a pair right after `after` (or at the end). */
export function insertPairAfter(map: YAMLMap, key: string, value: unknown, after: readonly string[], doc: Document): void {
  const pair = new Pair(new Scalar(key), doc.createNode(value));
  let index = -1;
  map.items.forEach((item, position) => {
    if (isPair(item) && after.includes(keyOf(item))) index = position;
  });
  if (index === -1) map.items.push(pair);
  else map.items.splice(index + 1, 0, pair);
}

export interface ScalarVisit {
  scalar: Scalar;
  path: string;
  /** The key the scalar is the value of (`if`, `run`, ...), when it is a map value. */
  key: string | undefined;
}

/** Calls `visit` for every string scalar value under `node` (map keys excluded). */
export function walkStrings(node: unknown, path: string, visit: (entry: ScalarVisit) => void, key?: string): void {
  if (isScalar(node)) {
    if (typeof node.value === 'string') visit({ scalar: node, path, key });
    return;
  }
  if (isSeq(node)) {
    node.items.forEach((item, index) => walkStrings(item, `${path}[${index}]`, visit));
    return;
  }
  if (isMap(node)) {
    for (const pair of pairsOf(node)) {
      const name = keyOf(pair);
      walkStrings(pair.value, path === '' ? name : `${path}.${name}`, visit, name);
    }
  }
}

export function nodeText(node: unknown): string {
  return JSON.stringify(isMap(node) || isSeq(node) || isScalar(node) ? node.toJSON() : node) ?? '';
}
