import { XMLParser } from 'fast-xml-parser';
import type { CiBackend, RunRef } from '../backends/ci-backend.js';
import type { CiRecordRepository } from '../db/index.js';

/** One test outcome read from a JUnit report. */
export interface ParsedTestResult {
  testId: string;
  /** passed, failed, error, skipped or xfailed (pytest's `pytest.xfail` skips). */
  outcome: string;
  durationMs: number | null;
  message: string | null;
}

const MAX_XML_BYTES = 64 * 1024 * 1024;
const MAX_MESSAGE = 2000;

const parser = (): XMLParser =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    parseTagValue: false,
    processEntities: true,
    isArray: (name) => ['testsuite', 'testcase', 'failure', 'error', 'skipped'].includes(name),
  });

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const nodes = (value: unknown): Node[] => (Array.isArray(value) ? value.filter(isNode) : isNode(value) ? [value] : []);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

/**
 * A pytest-style node id: `file::Class::name` when the testcase names its file; otherwise the classname's
 * module part (up to the last segment named test_* or *_test) becomes a path, the rest classes. Falls back to
 * `classname::name`.
 */
export function testIdOf(testcase: { classname?: string | null; name: string; file?: string | null }): string {
  const classname = testcase.classname ?? '';
  const segments = classname === '' ? [] : classname.split('.');
  let moduleEnd = -1;
  segments.forEach((segment, index) => {
    if (/^test_|_test$|^tests?$/.test(segment) && !/^Test[A-Z]?/.test(segment)) moduleEnd = index;
  });
  if (testcase.file != null && testcase.file !== '') {
    const classes = moduleEnd >= 0 ? segments.slice(moduleEnd + 1) : segments.filter((segment) => /^[A-Z]/.test(segment));
    return [testcase.file, ...classes, testcase.name].join('::');
  }
  if (moduleEnd >= 0 && /^test_|_test$/.test(segments[moduleEnd] ?? '')) {
    return [`${segments.slice(0, moduleEnd + 1).join('/')}.py`, ...segments.slice(moduleEnd + 1), testcase.name].join('::');
  }
  return classname === '' ? testcase.name : `${classname}::${testcase.name}`;
}

const RANK: Record<string, number> = { passed: 0, xfailed: 1, skipped: 2, failed: 3, error: 4 };

function outcomeOf(testcase: Node): { outcome: string; message: string | null } {
  const first = (key: string): Node | undefined => nodes(testcase[key])[0];
  const error = first('error');
  if (error !== undefined) return { outcome: 'error', message: str(error.message) ?? str(error['#text']) };
  const failure = first('failure');
  if (failure !== undefined) return { outcome: 'failed', message: str(failure.message) ?? str(failure['#text']) };
  const skipped = first('skipped');
  if (skipped !== undefined) return { outcome: str(skipped.type) === 'pytest.xfail' ? 'xfailed' : 'skipped', message: str(skipped.message) };
  return { outcome: 'passed', message: null };
}

function collectCases(suite: Node, into: ParsedTestResult[]): void {
  for (const testcase of nodes(suite.testcase)) {
    const name = str(testcase.name);
    if (name === null) continue;
    const { outcome, message } = outcomeOf(testcase);
    const seconds = Number(str(testcase.time) ?? Number.NaN);
    into.push({
      testId: testIdOf({ classname: str(testcase.classname), name, file: str(testcase.file) }),
      outcome,
      durationMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : null,
      message: message === null ? null : message.slice(0, MAX_MESSAGE),
    });
  }
  for (const child of nodes(suite.testsuite)) collectCases(child, into);
}

/** Parses a JUnit XML document (pytest, unittest-xml, nose, …); a document that is not JUnit gives []. */
export function parseJunitXml(xml: string): ParsedTestResult[] {
  let document: unknown;
  try {
    document = parser().parse(xml);
  } catch {
    return [];
  }
  if (!isNode(document)) return [];
  const results: ParsedTestResult[] = [];
  for (const root of [...nodes(document.testsuites), ...nodes(document.testsuite).map((suite) => ({ testsuite: [suite] }))]) {
    collectCases(root, results);
  }
  return results;
}

/**
 * Merges repeated records of a test (pytest reports a teardown error next to a passed call): the worst
 * outcome wins, so a test passes only if every record of it passed.
 */
export function mergeResults(results: readonly ParsedTestResult[]): ParsedTestResult[] {
  const merged = new Map<string, ParsedTestResult>();
  for (const result of results) {
    const current = merged.get(result.testId);
    if (current === undefined || (RANK[result.outcome] ?? 2) > (RANK[current.outcome] ?? 2)) merged.set(result.testId, result);
  }
  return [...merged.values()];
}

/**
 * Reads every *.xml file of the run's artifacts as JUnit and stores the per-test outcomes of the submission
 * (idempotent: a test already stored keeps its row). Returns how many tests were read.
 */
export async function collectTestResults(
  deps: { backend: Pick<CiBackend, 'listArtifacts'>; repos: { ci: Pick<CiRecordRepository, 'saveTestResults'> } },
  submissionId: string,
  runRef: RunRef,
): Promise<number> {
  const parsed: ParsedTestResult[] = [];
  for (const artifact of await deps.backend.listArtifacts(runRef)) {
    for (const file of await artifact.files()) {
      if (!file.path.toLowerCase().endsWith('.xml')) continue;
      const content = await file.read();
      if (content.length > MAX_XML_BYTES) continue;
      parsed.push(...parseJunitXml(content.toString('utf8')));
    }
  }
  const results = mergeResults(parsed);
  await deps.repos.ci.saveTestResults(submissionId, results);
  return results.length;
}
