import { describe, expect, it } from 'vitest';
import { normalizeLine } from '../../../src/classify/normalize-line.js';
import { stripTaskPrefixes } from '../../../src/classify/task-prefix.js';
import { tailTypes } from './tail-types.js';

/**
 * Rules from the ninth pass's tuning-half misses (issue 16): CI output quoted in threads and logs saved from other
 * CI systems (Jenkins, Vercel, Netlify, Travis), as benchmark-style tails; and the lines that must not label.
 */

describe('ninth pass: prefixes of other CI systems', () => {
  it('strips Jenkins, Vercel and Netlify timestamps and lerna/concurrently prefixes when they recur', () => {
    const lines = (prefixes: string[], text: string) => prefixes.map((prefix, i) => ({ line: i + 1, text: `${prefix}${text}` }));
    expect(stripTaskPrefixes(lines(['[2022-11-15T05:26:40.684Z] ', '[2022-11-15T05:26:41.001Z] ', '[2022-11-15T05:26:42.5Z] '], 'x')).map((l) => l.text)).toEqual(['x', 'x', 'x']);
    expect(stripTaskPrefixes(lines(['17:27:42.617 | ', '17:27:42.618 | ', '17:27:42.619 |'], 'y')).map((l) => l.text)).toEqual(['y', 'y', 'y']);
    expect(stripTaskPrefixes(lines(['11:17:03 AM: ', '11:17:04 AM: ', '11:17:05 AM: '], 'z')).map((l) => l.text)).toEqual(['z', 'z', 'z']);
    expect(stripTaskPrefixes(lines(['vuetify: [eslint] ', 'vuetify: [eslint] ', 'vuetify: [eslint] '], 'w')).map((l) => l.text)).toEqual(['w', 'w', 'w']);
    // Once is the tool's own text (a Firebase debug line), not a system's prefix.
    expect(stripTaskPrefixes(lines(['[2026-01-13T11:06:17.381Z] '], 'SyntaxError: x')).map((l) => l.text)).toEqual(['[2026-01-13T11:06:17.381Z] SyntaxError: x']);
  });

  it('reads escape sequences in caret notation as escapes', () => {
    expect(normalizeLine('[^[[33mwarn^[[39m] Code style issues found in 2 files. Run Prettier with --write to fix.').text).toBe('[warn] Code style issues found in 2 files. Run Prettier with --write to fix.');
  });

  it('a Jenkins log keeps its javac parse error', async () => {
    const stamp = (i: number) => `[2022-11-15T05:26:4${i}.684Z] `;
    const log = ['[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.8.1:compile (default-compile) on project x: Compilation failure', "[ERROR] /w/src/main/java/a/Consequence.java:[279,109] ';' expected", '[ERROR] -> [Help 1]'];
    expect(await tailTypes(log.map((line, i) => `${stamp(i)}${line}`))).toEqual(['Syntax Error']);
  });
});

describe('ninth pass: rules from real logs', () => {
  it.each([
    ['jest outside a known command', ['Error: expect(received).toBe(expected) // Object.is equality', '', 'Expected: 1000', 'Received: 100'], ['Assertion Error', 'Test Failure']],
    ['webpack loader parse error', ['  Uncaught Error: Module build failed: SyntaxError: Unexpected token (23:58)'], ['Syntax Error']],
    ['Create React App', ['Failed to compile.', '', './src/Containers/App.js', 'Syntax error: Unexpected token (1:13)'], ['Syntax Error']],
    ['a Groovy build file', ["Could not compile build file '/w/build.gradle'.", '> startup failed:', "  build file '/w/build.gradle': 39: expecting '}', found '' @ line 39, column 2."], ['Syntax Error']],
    ['Docusaurus broken links', ['Error: Unable to build website for locale en.', '[cause]: Error: Docusaurus found broken links!'], ['Doc/Docstring']],
    ['ansible-doc', ["[ERROR]: module community.general.npm Missing documentation (or could not parse documentation): module plugin 'community.general.npm' did not contain a DOCUMENTATION attr"], ['Doc/Docstring']],
    ["Next.js's ESLint errors", ['Failed to compile.', '', './components/Carousel.tsx', "11:34  Error: `'` can be escaped with `&apos;`.  react/no-unescaped-entities"], ['Code Linting']],
    ['AVA', ['  test/level.js:42', '  Difference:', "  - 'error'", "  + 'warn'"], ['Assertion Error', 'Test Failure']],
    ["undici's connect time-out", ['⚠️ Unexpected error fetching GitHub release for tag app-v0.1.0: HttpError: Connect Timeout Error'], ['Environment Error']],
    ['vitest collecting a Playwright spec', ['Error: Playwright Test did not expect test() to be called here.'], ['Configuration Error']],
    ['npm 6 after a failed test script', ['npm ERR! Test failed.  See above for more details.'], ['Test Failure']],
  ] as const)('%s', async (_what, lines, types) => {
    expect(await tailTypes([...lines])).toEqual([...types]);
  });

  it("npm's 'Test failed' yields to what the test script printed (a linter run as `npm test`)", async () => {
    expect(await tailTypes(['/w/src/a.js', '  3:1  error  Unexpected var  no-var', '', '✖ 1 problem (1 error, 0 warnings)', 'npm ERR! Test failed.  See above for more details.'])).toEqual(['Code Linting']);
  });

  it('JSON.parse errors are not syntax errors of the code (Node 20 wording)', async () => {
    expect(await tailTypes(['SyntaxError: Unexpected token \'w\', "faweoilgj3o9"... is not valid JSON'])).toEqual([]);
  });
});
