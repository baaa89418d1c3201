import type { Rule } from './rule.js';

/**
 * Test frameworks whose failures the runner rules did not read: ExUnit, MSTest, scalatest/munit, and `go test`'s
 * timeout panic (a Go panic, but one only the test binary prints).
 */
export const TEST_FRAMEWORK_RULES: Rule[] = [
  {
    // ExUnit's numbered failure header: `  1) test name (Module.Test)` (a doctest's is a docs rule).
    id: 'exunit-test-failed',
    type: 'Test Failure',
    tool: 'exunit',
    linePattern: /^\s*\d{1,5}\) test .+ \((?:[A-Z]\w*\.)*[A-Z]\w*\)$/,
    example: { command: 'mix test', lines: ['  1) test handle_cast/2 stops the timer (Rclex.TimerTest)'] },
  },
  {
    // An exception raised inside an ExUnit test, as it prints it under the failure header.
    id: 'exunit-exception',
    type: 'Runtime Error',
    tool: 'exunit',
    // A database or HTTP connection refused is the runner's services, a module not available the dependencies'.
    yieldsTo: ['Environment Error', 'Configuration Error', 'Dependency Issues'],
    linePattern: /^\s*\*\* \((?!ExUnit\.|CompileError|SyntaxError|TokenMissingError|MismatchedDelimiterError|DBConnection\.ConnectionError|Postgrex\.Error|Mint\.TransportError)(?:\w+\.)*\w+(?:Error|Exception)\) /,
    example: { command: 'mix test', lines: ['     ** (RuntimeError) failed to start child with the spec {Rclex.Timer, []}'] },
  },
  {
    id: 'exunit-assertion',
    type: 'Assertion Error',
    tool: 'exunit',
    linePattern: /^\s*(?:Assertion with \S{1,4} failed|Expected truthy, got (?:false|nil)|\*\* \(ExUnit\.AssertionError\))/,
    example: { command: 'mix test', lines: ['     Assertion with == failed'] },
  },
  {
    id: 'mstest-exception',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'mstest',
    linePattern: /^\s*Test method \S+ threw exception: ?$/,
    context: { after: 1 },
    example: { command: 'dotnet test', lines: ['Test method Tests.ClientTest.Sends threw exception: ', 'System.NullReferenceException: Object reference not set to an instance of an object.'] },
  },
  {
    id: 'scala-test-failed-exception',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'scalatest',
    linePattern: /\b(?:org\.scalatest\.exceptions\.|tests\.)?TestFailedException: |\bmunit\.(?:ComparisonFailException|FailException): /,
    example: { command: 'sbt test', lines: ['  tests.TestFailedException: failed assertion at tests/Suite.scala:121'] },
  },
  {
    id: 'go-test-timeout',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'go test',
    linePattern: /^panic: test timed out after \S+$/,
    context: { after: 2 },
    example: { command: 'go test ./...', lines: ['panic: test timed out after 10m0s', 'running tests:', '\tTestGatewayTar (9m52s)'] },
  },
];
