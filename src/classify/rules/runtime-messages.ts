import { EXCEPTION_YIELDS } from './environment.js';
import type { Rule } from './rule.js';

/**
 * Runtime failures printed without the usual exception header: glibc's heap checks abort a native program, an
 * action's `##[error]` that is a JavaScript TypeError's message without its name, an exception's closing line right
 * before the runner's exit-code line (a traceback cut off above it), Ruby's uncaught exceptions, Node's hint under
 * an uncaught throw, and a Java program that Maven's exec plugin ran throwing.
 */
export const RUNTIME_MESSAGE_RULES: Rule[] = [
  {
    id: 'glibc-heap-abort',
    type: 'Runtime Error',
    tool: 'glibc',
    linePattern: /^(?:free\(\): (?:invalid (?:pointer|size|next size \(\w+\))|double free detected in tcache 2)|double free or corruption \([!\w]+\)|munmap_chunk\(\): invalid pointer|malloc\(\): (?:corrupted top size|memory corruption|unaligned tcache chunk detected)|corrupted size vs\. prev_size|\*\*\* stack smashing detected \*\*\*: (?:\S+ )?terminated)$/,
    example: { command: './run-tests.sh', lines: ['free(): invalid pointer'] },
  },
  {
    id: 'js-property-of-undefined',
    type: 'Runtime Error',
    tool: 'node',
    linePattern: /^Cannot read propert(?:y '[^']+'|ies) of (?:undefined|null)/,
    example: { command: 'pavi2410/html-preview-action@v1', lines: ["##[error]Cannot read property 'number' of undefined"] },
  },
  {
    // The last thing the step printed was an exception's closing line (Python's, or JavaScript's where no `Node.js vN`
    // line follows it), then it exited. Not melos's `ScriptException` (a script's exit status), not a failed
    // assertion, a parse error or a connection, time-out or TLS error (other rules' types).
    id: 'exception-before-exit',
    type: 'Runtime Error',
    tool: 'runtime',
    yieldsTo: EXCEPTION_YIELDS,
    previousPattern: /^(?!(?:\w+\.)*(?:AssertionError|SyntaxError|\w*(?:Connection|Timeout|SSL)Error)\b|ScriptException: The script )(?:\w+\.)*\w+(?:Error|Exception)(?:: .*)?$/,
    linePattern: /^Process completed with exit code [1-9]\d*\.?$/,
    context: { before: 1 },
    example: { command: 'python send.py', lines: ["KeyError: 'data'", '##[error]Process completed with exit code 1.'] },
  },
  {
    // `path.rb:12:in 'method': message (NameError)`: the first line of Ruby's report of an uncaught exception.
    id: 'ruby-uncaught',
    type: 'Runtime Error',
    tool: 'ruby',
    yieldsTo: EXCEPTION_YIELDS,
    linePattern: /^\S+\.rb:\d+:in [`'][^']*': .+ \((?!Gem::|Bundler::)(?:\w+::)*\w+(?:Error|Exception)\)$/,
    context: { after: 2 },
    example: { command: 'ruby app.rb', lines: ["app.rb:3:in `<main>': undefined local variable or method `x' for main:Object (NameError)"] },
  },
  {
    // `NoMethodError: undefined method …` over Ruby backtrace frames (`\t/path/x.rb:82:in 'block in run'`).
    id: 'ruby-exception-backtrace',
    type: 'Runtime Error',
    tool: 'ruby',
    yieldsTo: EXCEPTION_YIELDS,
    previousPattern: /^(?:\w+::)*\w+(?:Error|Exception): /,
    linePattern: /^\s+\S+\.rb:\d+:in [`']/,
    context: { before: 1 },
    example: { command: 'bundle exec rake', lines: ["NoMethodError: undefined method `[]' for nil", "\t/action/judges/events.rb:82:in `block in fetch'"] },
  },
  {
    id: 'node-trace-uncaught-hint',
    type: 'Runtime Error',
    tool: 'node',
    yieldsTo: EXCEPTION_YIELDS,
    linePattern: /^\(Use `?node --trace-uncaught \.\.\.`? to show where the exception was thrown\)$/,
    context: { before: 3 },
    example: { command: 'npm run build', lines: ['throw err;', '^', 'Search string not found: "for (const x of y) {"', '(Use `node --trace-uncaught ...` to show where the exception was thrown)'] },
  },
  {
    id: 'maven-exec-java-exception',
    type: 'Runtime Error',
    tool: 'mvn',
    linePattern: /Failed to execute goal org\.codehaus\.mojo:exec-maven-plugin:\S+:java \([^)]*\) on project \S+: An exception occur+ed while executing the Java class/,
    example: { command: 'mvn exec:java', lines: ['Error:  Failed to execute goal org.codehaus.mojo:exec-maven-plugin:3.0.0:java (default-cli) on project app: An exception occured while executing the Java class. null: NullPointerException -> [Help 1]'] },
  },
];
