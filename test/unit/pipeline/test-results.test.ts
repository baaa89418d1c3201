import { describe, expect, it } from 'vitest';
import { mergeResults, parseJunitXml, testIdOf } from '../../../src/pipeline/test-results.js';
import { passingTestIds } from '../../../src/scoring/index.js';

const PYTEST = `<?xml version="1.0" encoding="utf-8"?>
<testsuites name="pytest tests"><testsuite name="pytest" errors="1" failures="1" skipped="2" tests="6" time="0.5">
<testcase classname="tests.test_core" name="test_ok" time="0.012"/>
<testcase classname="tests.test_core.TestParse" name="test_case[a-b]" time="0.1"><failure message="AssertionError: assert 1 == 2">trace</failure></testcase>
<testcase classname="tests.test_core" name="test_skip" time="0"><skipped type="pytest.skip" message="no db">skip</skipped></testcase>
<testcase classname="tests.test_core" name="test_xfail" time="0"><skipped type="pytest.xfail" message="known"/></testcase>
<testcase classname="tests.test_core" name="test_teardown" time="0.2"/>
<testcase classname="tests.test_core" name="test_teardown" time="0.01"><error message="failed on teardown">boom</error></testcase>
</testsuite></testsuites>`;

describe('JUnit test results', () => {
  it('reads pytest reports with pytest node ids and outcomes', () => {
    const results = parseJunitXml(PYTEST);
    expect(results.map((result) => [result.testId, result.outcome])).toEqual([
      ['tests/test_core.py::test_ok', 'passed'],
      ['tests/test_core.py::TestParse::test_case[a-b]', 'failed'],
      ['tests/test_core.py::test_skip', 'skipped'],
      ['tests/test_core.py::test_xfail', 'xfailed'],
      ['tests/test_core.py::test_teardown', 'passed'],
      ['tests/test_core.py::test_teardown', 'error'],
    ]);
    expect(results[0]?.durationMs).toBe(12);
    expect(results[1]?.message).toBe('AssertionError: assert 1 == 2');
  });

  it('merges repeated records so a test passes only if every record passed', () => {
    const merged = mergeResults(parseJunitXml(PYTEST));
    expect(merged).toHaveLength(5);
    expect(merged.find((result) => result.testId.endsWith('test_teardown'))?.outcome).toBe('error');
    expect([...passingTestIds(merged)]).toEqual(['tests/test_core.py::test_ok']);
  });

  it('reads a bare testsuite root, nested suites and the file attribute', () => {
    const xml = `<testsuite name="outer"><testsuite name="inner"><testcase classname="pkg.tests.test_x.TestA" file="pkg/tests/test_x.py" name="test_1"/></testsuite><testcase classname="Suite" name="plain"/></testsuite>`;
    expect(parseJunitXml(xml).map((result) => result.testId)).toEqual(['Suite::plain', 'pkg/tests/test_x.py::TestA::test_1']);
  });

  it('ignores documents that are not JUnit', () => {
    expect(parseJunitXml('<coverage line-rate="0.9"/>')).toEqual([]);
    expect(parseJunitXml('not xml at all <<<')).toEqual([]);
  });

  it('builds node ids from classnames', () => {
    expect(testIdOf({ classname: 'tests.unit.test_a.TestB', name: 'test_c' })).toBe('tests/unit/test_a.py::TestB::test_c');
    expect(testIdOf({ classname: 'src.core_test', name: 'test_d' })).toBe('src/core_test.py::test_d');
    expect(testIdOf({ classname: 'MySuite', name: 'works' })).toBe('MySuite::works');
    expect(testIdOf({ classname: null, name: 'alone' })).toBe('alone');
  });
});
