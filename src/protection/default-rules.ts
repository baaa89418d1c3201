/**
 * The default rules of the `ground-truth` policy: the files that judge a patch (CI configuration, tests, test
 * runner and coverage configuration). A candidate's edit to one of them is kept only where the ground truth
 * edits the same file (the same section, for setup.cfg and pyproject.toml).
 */
import picomatch from 'picomatch';

/** A whole-file rule: its globs and how the report names it. */
interface FileRule {
  name: string;
  globs: readonly string[];
}

const FILE_RULES: readonly FileRule[] = [
  { name: 'CI configuration (.github/**)', globs: ['.github/**'] },
  { name: 'a test folder (tests/**, test/**, testing/**)', globs: ['tests/**', 'test/**', '**/tests/**', '**/test/**', 'testing/**'] },
  { name: 'a test file (test_*.py, *_test.py, *_tests.py)', globs: ['**/test_*.py', '**/*_test.py', '**/*_tests.py'] },
  { name: 'pytest configuration (conftest.py)', globs: ['**/conftest.py'] },
  { name: 'test runner configuration (pytest.ini, tox.ini, noxfile.py, .coveragerc)', globs: ['**/pytest.ini', '**/tox.ini', '**/noxfile.py', '**/.coveragerc'] },
];

const MATCHERS = FILE_RULES.map((rule) => ({ rule, match: picomatch([...rule.globs], { dot: true }) }));

/** Files whose test-runner sections are protected section by section; the rest of the file is the candidate's. */
export type SectionFormat = 'ini' | 'toml';

/** The default rule a path falls under, if any. */
export type DefaultRule = { kind: 'file'; name: string } | { kind: 'sections'; format: SectionFormat; name: string };

export function defaultRuleOf(path: string): DefaultRule | null {
  for (const { rule, match } of MATCHERS) if (match(path)) return { kind: 'file', name: rule.name };
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === 'setup.cfg') return { kind: 'sections', format: 'ini', name: 'test configuration sections of setup.cfg ([tool:pytest], [coverage:*], [tox:tox], [testenv*])' };
  if (base === 'pyproject.toml') {
    return { kind: 'sections', format: 'toml', name: 'test configuration tables of pyproject.toml ([tool.pytest*], [tool.tox*], [tool.coverage*], pytest11 entry points)' };
  }
  return null;
}

/** Whether an INI section name (setup.cfg) configures pytest, coverage or tox. */
export function isProtectedIniSection(name: string): boolean {
  const section = name.trim();
  return section === 'tool:pytest' || section.startsWith('coverage:') || section === 'tox:tox' || section === 'testenv' || section.startsWith('testenv:');
}

const PROTECTED_TOML_PREFIXES: readonly (readonly string[])[] = [
  ['tool', 'pytest'],
  ['tool', 'tox'],
  ['tool', 'coverage'],
  ['project', 'entry-points', 'pytest11'],
  ['tool', 'poetry', 'plugins', 'pytest11'],
];

/** Whether a TOML key path (a table header or a dotted key, parts unquoted) configures pytest, coverage or tox. */
export function isProtectedTomlPath(path: readonly string[]): boolean {
  return PROTECTED_TOML_PREFIXES.some((prefix) => prefix.every((part, index) => path[index] === part));
}

/**
 * Whether a path is under a directory or name that a shorter TOML key path could still cover: `[tool]` or
 * `[project.entry-points]` tables can hold protected settings as dotted keys or inline tables.
 */
export function isTomlAncestorOfProtected(path: readonly string[]): boolean {
  return PROTECTED_TOML_PREFIXES.some((prefix) => path.length < prefix.length && path.every((part, index) => prefix[index] === part));
}
