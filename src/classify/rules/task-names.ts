import type { ErrorType } from '../../domain/error-types.js';
import type { Rule } from './rule.js';

/**
 * Task runners close a failure with a line that names the task, script or target that failed (Gradle's `Execution
 * failed for task ':app:lintDebug'.`, npm's ``Lifecycle script `typecheck` failed``, turbo's `pkg#test: command …
 * exited (1)`, make, just, go-task, nox, tox, melos, Nx, lerna, bun, npm-run-all, composer). When the tool's own
 * output is gone (a benchmark tail keeps the last 3,000 characters) or is output no other rule knows, the name is
 * what is left: `lint` failed says a linter failed. These rules are fallbacks: they count only when no other rule
 * matched in the step. `NAME` in a runner's pattern stands for the task-name alternatives of one error type.
 * Every pattern is anchored at the line start: a step's prefilter then tries them at one position per line.
 */
const RUNNERS: readonly string[] = [
  // Gradle (also inside `org.gradle.api.tasks.TaskExecutionException: …`): the task path's last part.
  `^(?:org\\.gradle\\.api\\.tasks\\.TaskExecutionException: )?Execution failed for task '(?::[\\w.-]{1,100}){0,20}:NAME'\\.`,
  // npm 7+ and npm 6.
  '^npm (?:ERR!|error) Lifecycle script `NAME` failed',
  '^npm ERR! Failed at the \\S+ NAME script\\.?$',
  // pnpm recursive runs; turbo (`pkg#task: command (dir) … run task exited (1)`, `command finished with error`).
  '^\\s*ERR_PNPM_RECURSIVE_(?:RUN|EXEC)_FIRST_FAIL\\s+\\S+ NAME: `',
  '^\\s*(?:ERROR:? +)?(?:[\\w@./-]+[#:][\\w:.-]+: )?(?:ERROR:? +)?(?:command finished with error: )?command \\([^)]*\\) \\S+ run NAME exited \\(\\d+\\)',
  // Nx, lerna, bun, npm-run-all, poethepoet.
  '^\\s*(?:>\\s+)?NX\\s+Running target NAME for (?:project \\S+|\\d+ projects?)(?: and \\d+ tasks? (?:it|they) depends? on)? failed',
  '^lerna ERR! (?:npm|yarn|pnpm) run NAME exited \\d+',
  '^error: script "NAME" exited with code \\d+',
  '^ERROR: "NAME" exited with \\d+\\.?$',
  "^Error: Sequence aborted after failed subtask 'NAME'",
  // make (`make: *** [Makefile:12: lint] Error 1`, `make[1]: *** [docs] Error 2`), just, go-task.
  '^g?make(?:\\[\\d+\\])?: \\*\\*\\* \\[(?:[^\\]]*:\\d+: )?NAME\\] Error \\d+$',
  '^error: Recipe `NAME` failed (?:on line \\d+ )?with exit code \\d+',
  '^(?:task: Failed to run task "[^"]+": )*task: Failed to run task "NAME": exit status \\d+',
  // nox, tox 4 (`lint: FAIL code 1 (…)`) and tox 3 (`ERROR:   lint: commands failed`), melos, composer.
  '^nox > Session NAME(?:\\([^)]*\\))? (?:failed|raised)',
  '^(?:ERROR:)?\\s*NAME: (?:FAIL code \\d+|commands failed)',
  '^ScriptException: The script NAME failed to execute\\.?$',
  '^Script .+ handling the NAME event returned with error code \\d+',
];

/**
 * Task names per error type, tried in this order (the first type whose names match the line wins it): names that
 * say types or formatting come before the linters', so `lint:types` is type checking and `lint-format` formatting.
 * Names that say nothing of the failure (`build`, `check`, `ci`, `all`, a package or binary name) are in none.
 */
const TASK_NAMES: readonly { type: ErrorType; slug: string; names: string; example: string }[] = [
  {
    type: 'Type Checking',
    slug: 'types',
    names: '(?:[\\w.-]{1,100}[:_-])?(?:type-?check(?:ing)?|type_check|check[:_-]?types|types(?:[:_-]check)?|tsc|mypy|pyright|phpstan|psalm|analy[sz]e)(?:[:_-][\\w.-]{1,100})?|compile\\w{0,100}(?:Kotlin|Java|JavaWithJavac|Scala|Groovy|Swift)|[\\w./-]{1,200}\\.(?:o|obj)',
    example: "Execution failed for task ':app:compileDebugKotlin'.",
  },
  {
    type: 'Code Formatting',
    slug: 'format',
    names: '(?:[\\w.-]{1,100}[:_-])?(?:format|fmt|prettier|black|isort|stylua|spotless\\w{0,100}|ktfmt\\w{0,100}|cs-?fix(?:er)?|php-cs-fixer)(?:[:_-][\\w.-]{1,100})?|(?:check|lint)[:_-]?(?:format|fmt)\\w{0,100}|style',
    example: 'npm error Lifecycle script `format:check` failed with error:',
  },
  {
    type: 'Doc/Docstring',
    slug: 'docs',
    names: '(?:[\\w.-]{1,100}[:_-])?(?:docs?|javadoc|dokka\\w{0,100}|typedoc|sphinx|mkdocs|pydocstyle|docstrings?|doctests?|linkcheck)(?:[:_-][\\w.-]{1,100})?|html|dokka\\w{0,100}|javadoc\\w{0,100}',
    example: 'make: *** [Makefile:20: html] Error 2',
  },
  {
    type: 'Code Linting',
    slug: 'lint',
    names: '(?:[\\w.-]{1,100}[:_-])?(?:lint|eslint|ruff|flake8|pylint|clippy|golangci(?:-lint)?|detekt|checkstyle|pmd|spotbugs|rubocop|shellcheck|stylelint|biome|vet|phpcs|ktlint)(?:[:_-][\\w.-]{1,100})?|lint\\w{0,100}|detekt\\w{0,100}|checkstyle\\w{0,100}|pmd\\w{0,100}|spotbugs\\w{0,100}|ktlint\\w{0,100}',
    example: "Execution failed for task ':app:lintDebug'.",
  },
  {
    type: 'Test Failure',
    slug: 'tests',
    names: '(?:[\\w.-]{1,100}[:_-])?(?:tests?|unit(?:-?tests?)?|unittests?|e2e|integration(?:-?tests?)?|jest|vitest|pytest|mocha|phpunit|rspec)(?:[:_-][\\w.-]{1,100})?|test\\w{0,100}UnitTest|(?:jvm|js|all|desktop|wasmJs)Tests?|py\\d{2,3}(?:-[\\w.-]{1,100})?',
    example: '@app/api#test: command (/w/apps/api) /usr/bin/pnpm run test exited (1)',
  },
];

const runnersFor = (names: string): RegExp =>
  new RegExp(RUNNERS.map((runner) => `(?:${runner.replace('NAME', `(?:${names})`)})`).join('|'));

/** Any task name: the five rules share this pattern in a step's prefilter, which then holds the runners once. */
const ANY_TASK = runnersFor('[^\\s\'"`\\]]+');

export const TASK_NAME_RULES: Rule[] = TASK_NAMES.map(({ type, slug, names, example }) => ({
  id: `task-name-${slug}`,
  type,
  tool: 'task runner',
  linePattern: runnersFor(names),
  prefilterPattern: ANY_TASK,
  fallback: true,
  example: { command: './ci.sh', lines: [example] },
}));
