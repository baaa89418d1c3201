import type { LogLine } from '../types.js';
import { TEST_THREAD_PANICKED } from './rust-test-assertions.js';

/**
 * Output that names the tool which printed it, whatever command ran it (`make test`, `tox`, `nox -s lint`,
 * `hatch run`, `poetry run`, `uv run`, `./scripts/ci.sh`, pre-commit, composite actions). Each entry maps to
 * the words the command patterns (`CMD`) look for.
 */
const SIGNATURES: readonly { tools: string; pattern: RegExp }[] = [
  {
    tools: 'pytest',
    pattern: /^=+ (?:test session starts|FAILURES|ERRORS|short test summary info|warnings summary)\b|^collected \d+ items?|^platform \S+ -- Python \S+, pytest-|^(?:FAILED|ERROR) \S+\.py::|^ImportError while loading conftest '|^=+ [^=]{0,300}\b\d{1,7} (?:passed|failed|errors?)\b/,
  },
  { tools: 'python -m unittest', pattern: /^Ran \d+ tests? in [\d.]+s$|^FAILED \((?:failures|errors)=\d+|^(?:FAIL|ERROR): (?:Failure: )?\w+ \([^()\s]+\)$/ },
  {
    tools: 'jest vitest playwright',
    pattern: /^Test Suites: |^Tests:\s+\d+ |^\s*Test Files\s+\d+ (?:failed|passed)|^\s*Tests\s+\d+ (?:failed|passed)|^\s*(?:FAIL|PASS)\s+\S+\.(?:[cm]?[jt]sx?)\b|^Running \d+ tests? using \d+ workers?|^\s*(?:Error: )?expect\(received\)\.|^\s*\d+ (?:passing|failing) \(|^# (?:pass|fail) \d+$|^\s*●\s.+ › /,
  },
  { tools: 'go test', pattern: /^(?:--- FAIL: |=== RUN |ok\s+\S+\s+[\d.]+s|FAIL\s+\S+\s+(?:[\d.]+s|\[build failed\]|\[setup failed\]))/ },
  { tools: 'go vet', pattern: /^vet: / },
  { tools: 'go build', pattern: /^# [\w.-]+(?:\/[\w.-]+)+(?: \[[\w./-]+\.test\])?$/ },
  { tools: 'golangci-lint', pattern: /golangci-lint|^level=(?:error|warning) msg=|^issues found$/ },
  {
    tools: 'cargo',
    // cargo's own lines, and a Rust test thread's panic (rust-test-assertions.ts) however the tests were run
    pattern: new RegExp(
      `${/^\s+(?:Compiling|Checking|Documenting) \S+ v\d|^error\[E\d{4}\]|^test result: (?:ok|FAILED)\.|^\s+Finished `|^error: could not compile `|^test [\w:]+ \.\.\. (?:ok|FAILED|ignored)$|^---- \S+ stdout ----$/.source}|${TEST_THREAD_PANICKED}`,
    ),
  },
  { tools: 'cargo clippy', pattern: /rust-clippy\/master|clippy::/ },
  { tools: 'gradlew mvn', pattern: /^> Task :|^BUILD (?:FAILED|SUCCESSFUL) in|^\[INFO\] (?:BUILD|Building |--- )|^(?:\[ERROR\]|Error:) +(?:Failed to execute goal|BUILD FAILURE$|COMPILATION ERROR :|Tests run: \d+, Failures: )|^FAILURE: Build failed|^\S+ > \S+\(\).* FAILED$|^\s+at (?:app\/\/)?org\.junit\./ },
  { tools: 'eslint', pattern: /^✖ \d+ problems? \(|^\s+\d+:\d+\s+(?:error|warning)\s+\S/ },
  { tools: 'phpstan', pattern: /^\s*Line\s+\S+\.php\s*$|^Note: Using configuration file \S*phpstan/ },
  // A tool's success line is left out: it says the tool ran and passed, and an exit code after it is another tool's.
  { tools: 'mypy', pattern: /^Found \d+ errors? in \d+ files? \((?:checked|errors prevented further checking\))/ },
  { tools: 'pyright', pattern: /^\d+ errors?, \d+ warnings?, \d+ (?:informations|infos|notes)|^\s+\S+:\d+:\d+ - (?:error|warning): / },
  { tools: 'ruff', pattern: /^Found \d+ errors?(?: \(\d+ fixed, \d+ remaining\))?\.$|^\[\*\] \d+ fixable with|^\d+ files? would be reformatted/ },
  { tools: 'black', pattern: /^would reformat |^Oh no! |^All done! / },
  { tools: 'pre-commit', pattern: /\.{4,}(?:Passed|Failed|Skipped)$|^(?:- hook id|hookid): / },
  { tools: 'make', pattern: /^ninja: build stopped|^g?make(?:\[\d+\])?: \*\*\*|^CMake Error|^-- Configuring incomplete/ },
  { tools: 'sphinx-build', pattern: /^Running Sphinx v|^build finished with problems|^Warning, treated as error:/ },
  { tools: 'mkdocs', pattern: /^INFO\s+-\s+Building documentation|^Aborted with \d+ warnings? in strict mode/ },
  { tools: 'pip install', pattern: /^Collecting \S|^Installing collected packages:|^Successfully installed |^ERROR: (?:Could not find a version|No matching distribution|Cannot install|ResolutionImpossible)/ },
];

const JOINED = new RegExp(SIGNATURES.map((s) => `(?:${s.pattern.source})`).join('|'));

/** The tools a step's output shows, as words its command would contain (empty when none is recognised). */
export function detectTools(lines: readonly LogLine[]): string {
  const found = new Set<string>();
  for (const { text } of lines) {
    if (!JOINED.test(text)) continue;
    for (const s of SIGNATURES) if (s.pattern.test(text)) found.add(s.tools);
    if (found.size === SIGNATURES.length) break;
  }
  return [...found].join('\n');
}
