import type { Rule } from './rule.js';

/** The workflow and the project's build settings are wrong: Actions permissions and inputs, signing, manifests. */
export const ACTIONS_CONFIG_RULES: Rule[] = [
  {
    id: 'actions-token-permission',
    type: 'Configuration Error',
    tool: 'actions',
    // actions-rs/clippy-check on a fork reports that it could not write its annotations and prints the results instead
    // (its verdict is clippy's); a token refused anywhere else, and clippy-check's own rethrow, are the workflow's.
    linePattern: /^(?!(?:Error: )?Unable to create clippy annotations! ).*?Resource not accessible by integration|missing or insufficient OIDC token permissions|Permission to \S+ denied to github-actions\[bot\]|GitHub Actions is not permitted to create or approve pull requests|refusing to allow a GitHub App to create or update workflow|remote: Write access to repository not granted|Parameter token or opts\.auth is required|^fatal: unable to access 'https:\/\/github\.com\/[^']*': The requested URL returned error: 403$/,
    context: { before: 1, after: 1 },
    example: { command: 'gh release create v1.0.0', lines: ['##[error]Resource not accessible by integration'] },
  },
  {
    id: 'actions-workflow-setup',
    type: 'Configuration Error',
    tool: 'actions',
    linePattern: /Failed to create deployment \(status: 404\)|^Error: Unable to process file command '\w+' successfully|^(?:##\[error\])?(?:Unable to resolve action `|Unable to process file command '\w+' successfully|Invalid format '|Get Pages site failed|Path does not exist: |jarsigner: unable to open jar file: )|This request has been automatically failed because it uses a deprecated version of|\$GITHUB_STEP_SUMMARY upload aborted|No file in \S+ matched to \[|failed with status: 403\b|^\s*(?:Error: )?We were unable to automatically build your code/,
    example: { command: 'echo "name=value" >> "$GITHUB_OUTPUT"', lines: ["##[error]Unable to process file command 'output' successfully."] },
  },
  {
    // aws-actions/configure-aws-credentials when no provider gives it keys: the secret or role input is empty, or the
    // job may not request an OIDC token (`id-token: write`); the workflow's configuration either way.
    id: 'aws-credentials-not-loaded',
    type: 'Configuration Error',
    tool: 'configure-aws-credentials',
    linePattern: /^(?:##\[error\]|Error: )?Credentials could not be loaded, please check your action inputs/,
    example: { command: 'aws-actions/configure-aws-credentials@v4', lines: ['##[error]Credentials could not be loaded, please check your action inputs: Could not load credentials from any providers'] },
  },
  {
    // upload-artifact prints the same sentence as a warning (`if-no-files-found: warn`) and as the step's failure;
    // in a log without workflow-command markers it is usually the always() upload after the real failure. The step's
    // echoed inputs (`if-no-files-found: warn`, kept in logs cut without their group markers) say which one it is.
    id: 'actions-artifact-path',
    type: 'Configuration Error',
    tool: 'actions',
    yieldsTo: ['Code Formatting', 'Code Linting', 'Syntax Error', 'Type Checking', 'Test Failure', 'Assertion Error', 'Runtime Error', 'Dependency Issues', 'Package Installation Error', 'Environment Error', 'Doc/Docstring'],
    linePattern: /^(?:##\[error\]|Error: )?No files were found with the provided path: /,
    disarmPattern: /^\s*if-no-files-found: (?:warn|ignore)$/,
    example: { command: 'actions/upload-artifact@v4', lines: ['##[error]No files were found with the provided path: dist/**. No artifacts will be uploaded.'] },
  },
  {
    id: 'git-workspace-state',
    type: 'Configuration Error',
    tool: 'git',
    linePattern: /^(?:failed to run git: )?fatal: not a git repository|cannot pull with rebase: You have unstaged changes|error: pathspec '[^']*' did not match any file\(s\) known to git|^error: failed to push some refs to|^fatal: You are not currently on a branch\.$/,
    example: { command: 'git pull --rebase && git push', lines: ['error: cannot pull with rebase: You have unstaged changes.'] },
  },
  {
    // A Gradle build script that does not compile is the build's configuration, unless its compiler said it does
    // not parse (kotlin-syntax, tried later, reads those lines; what a parse error leaves behind yields to it).
    id: 'gradle-script-compilation',
    type: 'Configuration Error',
    tool: 'gradle',
    linePattern: /Script compilation errors?:|^e: (?:file:\/\/)?\S+\.gradle\.kts:(?!\d+:\d+:? (?:Syntax error: )?(?:Expecting |Unexpected tokens|Unclosed comment|Missing '))/,
    yieldsTo: ['Syntax Error'],
    context: { after: 3 },
    example: { command: './gradlew assembleDebug', lines: ['* What went wrong:', 'Script compilation error:', '', "  Line 12: android { compileSdk = libs.versions.sdk }", '                                      ^ Unresolved reference: libs'] },
  },
  {
    // SwiftPM run where the workflow has no Package.swift (no checkout, wrong working directory).
    id: 'swiftpm-no-manifest',
    type: 'Configuration Error',
    tool: 'swift',
    linePattern: /^error: (?:root manifest not found|Could not find Package\.swift in this directory or any of its parent directories)/,
    example: { command: 'swift build -v', lines: ['error: root manifest not found'] },
  },
  {
    // chart-testing could not diff the branch against the target (a shallow checkout): the workflow's setup.
    id: 'chart-testing-git',
    type: 'Configuration Error',
    tool: 'chart-testing',
    linePattern: /Error identifying charts to process: Error running process: exit status \d+/,
    example: { command: 'ct lint --target-branch main', lines: ['Error: Error linting charts: Error identifying charts to process: Error running process: exit status 128'] },
  },
  {
    id: 'android-build-config',
    type: 'Configuration Error',
    tool: 'gradle',
    linePattern: /Manifest merger failed|Android resource (?:linking|compilation) failed|AAPT: error: |Could not get unknown property '|Inconsistent JVM-target compatibility|contains AndroidX dependencies, but the `android\.useAndroidX` property is not enabled|KeytoolException|^keytool error: |Keystore file '[^']*' not found|Could not create an instance of type com\.android|Could not find or load main class "-/,
    context: { after: 1 },
    example: { command: './gradlew assembleDebug', lines: ["Execution failed for task ':app:processDebugMainManifest'.", '> Manifest merger failed with multiple errors, see logs'] },
  },
  {
    id: 'apple-signing',
    type: 'Configuration Error',
    tool: 'xcodebuild',
    linePattern: /Signing certificate is invalid|No profiles for '[^']*' were found|No signing certificate "[^"]*" found|has conflicting provisioning settings|requires a provisioning profile|SecKeychainItemImport: (?:MAC verification failed|The user name or passphrase you entered is not correct)/,
    example: { command: 'xcodebuild -exportArchive', lines: ['error: exportArchive Signing certificate is invalid.'] },
  },
  {
    id: 'docker-build-config',
    type: 'Configuration Error',
    tool: 'docker',
    linePattern: /failed to read dockerfile: |failed to compute cache key: |docker exporter does not currently support exporting manifest lists|(?:Multiple platforms|[Cc]ache export) feature is currently not supported for docker driver|COPY failed: (?:file not found|stat )|invalid reference format|unable to prepare context: /,
    example: { command: 'docker build -t app .', lines: ['ERROR: failed to solve: failed to read dockerfile: open Dockerfile: no such file or directory'] },
  },
  {
    id: 'tool-option-invalid',
    type: 'Configuration Error',
    tool: 'cli',
    linePattern: /unknown or unexpected option: |Could not find an option named "|^error: unknown option '|^error: unexpected argument '|^Error: Unknown option '|is not a valid value for \w+/,
    example: { command: 'npx expo prebuild --no-interactive', lines: ['unknown or unexpected option: --no-interactive'] },
  },
  {
    id: 'project-config-invalid',
    type: 'Configuration Error',
    tool: 'config',
    linePattern: /The Compose file '[^']*' is invalid|cannot use the edge runtime|should have a default export|^Error: Failed to collect (?:configuration|page data) for|no such target '|no such package '|can't load config: |no west\.yml found|\bInvalid (?:SHIELD|BOARD)\b|error: undefined variable '|Could not find suitable icon|defined in desktop file but not found|^Error: No configuration file found|config(?:uration)? file \S* ?not found|\bconfig\.json not found|password authentication failed for user/,
    context: { after: 1 },
    example: { command: 'docker compose -f docker-compose.yml up -d', lines: ["The Compose file './docker-compose.yml' is invalid because:"] },
  },
  {
    id: 'missing-secret-or-variable',
    type: 'Configuration Error',
    tool: 'config',
    linePattern: /(?:environment variable|env var|secret|variable) \S+ (?:is not set|is missing|is required|not set)(?!\. Defaulting to a blank string)|\b(?:Error|ERROR|error)\b.{0,40}\b[A-Z][A-Z0-9_]{3,60} (?:is not set|is required|is missing)\b|Required secrets are missing|No \w+ credentials found|Missing required (?:environment variables?|secrets?)|No valid credential sources found|Perhaps an environment variable has not been set\?|Your project's URL and (?:API )?[Kk]ey are required|\bsecrets? provided to the environment (?:are|is) (?:invalid|incomplete|missing)/,
    // Not Docker Compose's warning for an unset variable it interpolates (`The "X" variable is not set. Defaulting to a
    // blank string.`): compose goes on with a blank value.
    example: { command: 'node scripts/deploy.mjs', lines: ['Error: environment variable DATABASE_URL is not set'] },
  },
  {
    // Deploy targets and registries that refuse the configured project or identity (or find none: Vercel, Firebase,
    // wrangler), artifact names that collide, tool set-ups that contradict the repository (a command or option the
    // installed Poetry does not have, `pub get` where Flutter's is needed), config files a schema rejects, builds
    // pointed at a missing tree, an App Store upload whose build number was not raised.
    id: 'deploy-and-tool-setup',
    type: 'Configuration Error',
    tool: 'config',
    linePattern: /^Error[!:] (?:Project not found|The specified token is not valid|No existing credentials found)|denied: Permission ["']?[\w.]+["']? denied on resource|an artifact with this name already exists on the workflow run|Multiple versions of pnpm specified|^Flutter users should run `flutter pub get` instead of `pub get`|^go: download go\S+ for \S+: toolchain not available$|Multiple artifacts named "[^"]+" were unexpectedly found for this workflow run|\bld(?:\.lld|\.gold|\.bfd)?: error: \S+ is incompatible with [\w-]+$|^\s*ERROR\s+packages field missing or empty$|The bundle version must be higher than the previously uploaded version|Additional properties are not allowed \(|^Unrecognized VM option '|Could not find or load main class org\.gradle\.wrapper\.GradleWrapperMain|^\s+does not contain a CMakeLists\.txt file\.$|Could not locate Gemfile|^Error: Could not retrieve Project Settings\b|Failed to authenticate, have you run firebase login\?|In a non-interactive environment, it's necessary to set an? [A-Z][A-Z0-9_]+ environment variable|^\s*The (?:requested command \S+|option "--[\w-]+") does not exist\.?$|Playwright Test did not expect test\(\) to be called here/,
    example: { command: 'npx vercel pull --yes --environment=production', lines: ['Error: Project not found ({"VERCEL_PROJECT_ID":"***","VERCEL_ORG_ID":"***"})'] },
  },
  {
    // A publish or deploy whose credentials are missing or lack a permission: npm without a token, a cloud role
    // the workflow assumes that may not do what it is asked (AWS's AccessDenied wording), a registry refusing the
    // upload (npm's `404 Not Found - PUT`: no such package to publish to, or no right to), App Store Connect's API
    // refusing the key, an ssh password (sshpass) the host rejects.
    id: 'publish-deploy-credentials',
    type: 'Configuration Error',
    tool: 'config',
    linePattern: /^npm (?:ERR!|error) code ENEEDAUTH$|^npm (?:ERR!|error) need auth This command requires you to be logged in|is not authorized to perform: [\w-]+:\w+|You are not authorized to perform this operation\.|^npm (?:ERR!|error) 40[34] (?:40[34] )?(?:Not Found|Forbidden)[^-]*- PUT https?:\/\/|Authentication credentials are missing or invalid\.|failed to push \S+: .{0,400}\b(?:401 Unauthorized|403 Forbidden|denied: installation not allowed to Write organization package|denied: permission_denied: write_package)|^Permission denied, please try again\.$/,
    example: { command: 'npm publish', lines: ['npm error code ENEEDAUTH', 'npm error need auth This command requires you to be logged in to https://registry.npmjs.org/'] },
  },
  {
    // Paths the workflow names that the build did not produce: a test assembly (vstest), a Pages artifact's folder.
    id: 'configured-path-missing',
    type: 'Configuration Error',
    tool: 'config',
    linePattern: /^The test source file "[^"]+" provided was not found\.|^tar: [^:]+: Cannot open: No such file or directory$/,
    example: { command: 'tar --dereference --hard-dereference --directory out -cvf artifact.tar .', lines: ['tar: out: Cannot open: No such file or directory', 'tar: Error is not recoverable: exiting now'] },
  },
];
