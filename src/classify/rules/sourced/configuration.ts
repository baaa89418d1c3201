import { sourced } from './sourced.js';

/** Workflow, action and tool configuration: credentials, paths, manifests, scripts; each message as its tool's source (or documentation) words it, which the comment names. */
export const SOURCED_CONFIGURATION_RULES = [
  // setup-node: actions/setup-node:src/cache-restore.ts; actions/setup-go:src/cache-restore.ts ('Dependencies file is not found in ... Supported file pattern: go.sum')
  sourced('setup-cache-lockfile-missing', 'Configuration Error', "setup-node", /Dependencies (?:lock )?file is not found in \S+\. Supported file patterns?: /, "Error: Dependencies lock file is not found in /home/runner/work/app/app. Supported file patterns: package-lock.json,npm-shrinkwrap.json,yarn.lock"),
  // download-artifact: actions/download-artifact:src/download-artifact.ts (setFailed('Unable to download artifact(s): ' + message), "Artifact '${name}' not found"); older toolkit 'Artifact not found for name: '
  sourced('download-artifact-not-found', 'Configuration Error', "download-artifact", /Unable to download artifact\(s\): (?:Artifact not found for name: |Artifact '[^']+' not found)/, "Error: Unable to download artifact(s): Artifact 'dist' not found"),
  // git: git/git:prompt.c / credential.c ('could not read %s: %s' with 'terminal prompts disabled' when GIT_TERMINAL_PROMPT=0, or
  // strerror(ENXIO) when there is no terminal to ask on)
  sourced('git-credentials-missing', 'Configuration Error', "git", /fatal: could not read (?:Username|Password) for '[^']+': (?:terminal prompts disabled|No such device or address)/, "fatal: could not read Username for 'https://github.com': terminal prompts disabled"),
  // git: git/git:remote-curl.c ('repository '%s' not found'); 'remote: Repository not found.' is GitHub's server message relayed by git
  sourced('git-repository-not-found', 'Configuration Error', "git", /^remote: Repository not found\.$|^fatal: repository '[^']+' not found$/, "fatal: repository 'https://github.com/acme/private-lib.git/' not found"),
  // docker: docker/login-action:src/docker.ts (loginStandard: 'Username and password required'); docker/cli:cli/command/registry/login.go ('Cannot perform an interactive login from a non TTY device')
  sourced('docker-login-credentials-missing', 'Configuration Error', "docker", /^(?:##\[error\]|Error: )?Username and password required$|Cannot perform an interactive login from a non TTY device/, "Error: Cannot perform an interactive login from a non TTY device"),
  // runner: actions/runner:src/Runner.Worker/ActionCommandManager.cs (SetEnvCommandExtension / AddPathCommandExtension: 'The `set-env` command is disabled...')
  sourced('actions-command-disabled', 'Configuration Error', "runner", /The `(?:set-env|add-path)` command is disabled\./, "Error: The `set-env` command is disabled. Please upgrade to using Environment Files or opt into unsecure command execution by setting the `ACTIONS_ALLOW_UNSECURE_COMMANDS` environment variable to `true`."),
  // gh: cli/cli:pkg/cmd/root/help.go / pkg/cmd/factory (authHelp: 'To use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable.')
  sourced('gh-token-missing', 'Configuration Error', "gh", /^gh: To use GitHub CLI in a (?:GitHub Actions workflow|non-interactive context|automation environment), set the GH_TOKEN environment variable/, "gh: To use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable. Example:"),
  // prettier: prettier/prettier:src/cli/expand-patterns.js ('No files matching the pattern were found: "${pattern}".', 'No matching files. Patterns: ')
  sourced('prettier-no-matching-files', 'Configuration Error', "prettier", /^\[error\] No (?:files matching the pattern were found|matching files\. Patterns?): /, "[error] No files matching the pattern were found: \"src/**/*.ts\"."),
  // jest: jestjs/jest:packages/jest-core/src/getNoTestFound.ts ('No tests found, exiting with code 1'); vitest-dev/vitest:packages/vitest/src/node/core.ts ('No test files found, exiting with code 1')
  sourced('test-runner-no-tests-found', 'Configuration Error', "jest", /^No tests found, exiting with code 1\.?$|^No test files found, exiting with code 1\.?$/, "No test files found, exiting with code 1"),
  // go: golang/go:src/cmd/go/internal/modload/init.go (ErrNoModRoot: 'go.mod file not found in current directory or any parent directory')
  sourced('go-mod-not-found', 'Configuration Error', "go", /^go: go\.mod file not found in current directory or any parent directory|^go: cannot find main module/, "go: go.mod file not found in current directory or any parent directory; see 'go help modules'"),
  // cargo: rust-lang/cargo:src/cargo/util/important_paths.rs (find_root_manifest_for_wd)
  sourced('cargo-manifest-not-found', 'Configuration Error', "cargo", /^error: could not find `Cargo\.toml` in `[^`]+` or any parent directory/, "error: could not find `Cargo.toml` in `/home/runner/work/app/app` or any parent directory"),
  // maven: apache/maven:maven-core/src/main/java/org/apache/maven/project/DefaultProjectBuilder.java / MissingProjectException
  sourced('maven-no-pom', 'Configuration Error', "maven", /The goal you specified requires a project to execute but there is no POM in this directory/, "[ERROR] The goal you specified requires a project to execute but there is no POM in this directory (/home/runner/work/app/app). Please verify you invoked Maven from the correct directory. -> [Help 1]"),
  // gradle: gradle/gradle:subprojects/core/src/main/java/org/gradle/execution/TaskSelector.java ('Task '%s' not found in %s.'), BuildLayoutValidator ('Directory '%s' does not contain a Gradle build.')
  sourced('gradle-task-or-build-missing', 'Configuration Error', "gradle", /\b[Tt]ask (?:with path )?'[^']+' not found in (?:root )?project '[^']+'|Directory '[^']+' does not contain a Gradle build\./, "Task 'integrationTest' not found in root project 'app'."),
  // make: mirror/make:src/remake.c ('No rule to make target '%s'%s') and src/main.c ('No targets specified and no makefile found')
  sourced('make-no-rule-or-makefile', 'Configuration Error', "make", /^g?make(?:\[\d+\])?: \*\*\* No (?:rule to make target '[^']+'|targets specified and no makefile found)\.\s+Stop\.$/, "make: *** No rule to make target 'lint'.  Stop."),
  // npm: npm/cli:lib/commands/run-script.js ('Missing script: "${event}"'); pnpm/pnpm:exec/plugin-commands-script-runners/src/run.ts (ERR_PNPM_NO_SCRIPT); yarnpkg/yarn:src/reporters/lang/en.js (commandNotSpecified/'Command $0 not found.')
  sourced('script-missing', 'Configuration Error', "npm", /^npm (?:ERR!|error) Missing script: \"[^\"]+\"|^npm ERR! missing script: \S+$|ERR_PNPM_NO_SCRIPT\b|^error Command \"[^\"]+\" not found\.$/, "npm error Missing script: \"lint\""),
  // runner: actions/runner:src/Runner.Worker/ActionManager.cs ('An action could not be found at the URI ')
  sourced('action-download-not-found', 'Configuration Error', "runner", /An action could not be found at the URI '/, "##[error]An action could not be found at the URI 'https://api.github.com/repos/acme/deploy-action/tarball/v9'"),
  // runner: actions/runner:src/Sdk/DTObjectTemplating/ObjectTemplating/TemplateReader.cs & TemplateValidationErrors ('(Line: {0}, Col: {1}): {2}', 'Unexpected value '{0}'')
  sourced('workflow-template-error', 'Configuration Error', "runner", /\(Line: \d+, Col: \d+\): (?:Unexpected value '|Unrecognized named-value: |Required property is missing: |Unexpected symbol: |Unexpected type of value )/, "(Line: 12, Col: 5): Unexpected value 'foo'"),
  // toml: toml-rs/toml:crates/toml_edit/src/error.rs (Display: 'TOML parse error at line {}, column {}')
  sourced('toml-parse-error', 'Configuration Error', "toml", /^\s*(?:Caused by: )?TOML parse error at line \d+, column \d+/, "TOML parse error at line 3, column 5"),
  // js-yaml: nodeca/js-yaml:lib/exception.js (name 'YAMLException', message + ' (' + (line+1) + ':' + (column+1) + ')')
  sourced('js-yaml-exception', 'Configuration Error', "js-yaml", /^YAMLException: .+ \(\d+:\d+\)$/, "YAMLException: bad indentation of a mapping entry (3:5)"),
  // npm: npm/cli:lib/utils/error-message.js (case 'EJSONPARSE'); npm/json-parse-even-better-errors
  sourced('npm-package-json-invalid', 'Configuration Error', "npm", /^npm (?:ERR!|error) code EJSONPARSE$|^npm (?:ERR!|error) JSON\.parse /, "npm error code EJSONPARSE"),
  // mkdocs: mkdocs/mkdocs:mkdocs/config/base.py (load_config: 'Aborted with {n} Configuration Errors!'), mkdocs/config/base.py _open_config_file ('Config file '{f}' does not exist.'); sphinx-doc/sphinx:sphinx/application.py ("config directory doesn't contain a conf.py file (%s)")
  sourced('mkdocs-config-errors', 'Configuration Error', "mkdocs", /^Aborted with \d+ Configuration Errors!$|^Aborted with \d+ Configuration Warnings in 'strict' mode!$|^Error: Config file '[^']+' does not exist\.$|config directory doesn't contain a conf\.py file/, "Aborted with 1 Configuration Errors!"),
  // ssh: openssh/openssh-portable:sshconnect.c ('Host key verification failed.'), sshconnect2.c ('%s@%s: Permission denied (%s).')
  sourced('ssh-auth-or-host-key', 'Configuration Error', "ssh", /^Host key verification failed\.$|^[^\s@]+@\S+: Permission denied \(publickey(?:,[\w-]+)*\)\.$/, "git@github.com: Permission denied (publickey)."),
  // git: git/git:transport-helper.c / fetch-pack.c ("couldn't find remote ref %s"), builtin/push.c / remote.c ('src refspec %s does not match any')
  sourced('git-ref-not-found', 'Configuration Error', "git", /^fatal: couldn't find remote ref \S+$|^error: src refspec \S+ does not match any/, "fatal: couldn't find remote ref refs/heads/feature-x"),
  // buildkit: moby/buildkit:frontend/dockerfile/dockerfile2llb/convert.go ('failed to resolve source metadata for %s'); containerd remotes 'not found'
  sourced('docker-base-image-not-found', 'Configuration Error', "buildkit", /failed to resolve source metadata for \S+: \S+: not found/, "ERROR: failed to solve: node:99-alpine: failed to resolve source metadata for docker.io/library/node:99-alpine: docker.io/library/node:99-alpine: not found"),
  // gcp: google-github-actions/auth:src/main.ts (input validation error)
  sourced('gcp-auth-inputs-missing', 'Configuration Error', "gcp", /must specify exactly one of \"workload_identity_provider\" or \"credentials_json\"/, "Error: google-github-actions/auth failed with: the GitHub Action workflow must specify exactly one of \"workload_identity_provider\" or \"credentials_json\"! If you are specifying input values via GitHub secrets, ensure the secret is being injected into the environment. By default, secrets are not passed to workflows triggered from forks, including Dependabot."),
  // d8/r8: android/platform/tools/base (D8 DexFileOverflow: 'Cannot fit requested classes in a single dex file'), multidex not configured
  sourced('android-dex-overflow', 'Configuration Error', "d8", /Cannot fit requested classes in a single dex file/, "ERROR:D8: Cannot fit requested classes in a single dex file (# methods: 74322 > 65536)"),
];
