import { fileLineFinding, type Rule } from './rule.js';

/**
 * Build toolchains and what they need from the runner (issue 16, eighth pass, from tuning-half logs): parse errors
 * of javac and kotlinc, pyrefly's diagnostics, native libraries and classes a build cannot find, installers that
 * fail on their platform, and tools the runner has in the wrong version. Tried before the
 * ecosystem rules, so javac's parse errors are not read as its type errors.
 */
export const TOOLCHAIN_RULES: Rule[] = [
  {
    id: 'javac-syntax',
    type: 'Syntax Error',
    tool: 'javac',
    linePattern: /^(?:\[ERROR\] )?(\S+\.java):(?:\[(\d+),\d+\]|(\d+):) (?:error: )?('[^']+' expected|<identifier> expected|class, interface, enum, or record expected|class, interface, or enum expected|reached end of file while parsing|illegal start of (?:expression|type|statement)|not a statement|unclosed (?:string|character|text block) literal|unclosed comment|illegal character: .*)/,
    findingParser: (m) => {
      const path = m[1];
      const line = Number(m[2] ?? m[3]);
      return path === undefined || !Number.isFinite(line) ? undefined : { path, line, message: m[4] ?? '' };
    },
    example: { command: './mvnw package', lines: ['[ERROR] /w/app/src/main/java/com/acme/QuestBoardResource.java:[32,1] illegal start of type'] },
  },
  {
    id: 'kotlin-parse-error',
    type: 'Syntax Error',
    tool: 'kotlinc',
    linePattern: /^e: (?:file:\/\/)?(\S+\.kts?):(\d+):(\d+) (Syntax error\b.*|Qualified name must be a '\.'-separated identifier list.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: './gradlew assembleRelease', lines: ["e: file:///w/app/src/main/java/com/acme/MainActivity.kt:12:12 Qualified name must be a '.'-separated identifier list"] },
  },
  {
    // pyrefly: `ERROR path:line:col-col: message [error-kind]`.
    id: 'pyrefly-error',
    type: 'Type Checking',
    tool: 'pyrefly',
    linePattern: /^ERROR (\S+\.pyi?):(\d+):(\d+)(?:-\d+)?: (.+) \[[a-z]+(?:-[a-z]+)*\]$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'pyrefly check', lines: ['ERROR /w/libp2p/kad_dht/utils.py:104:12-60: Object of class `Multihash` has no attribute `digest` [missing-attribute]'] },
  },
  {
    // A native library the linker cannot find, Java classes R8 finds missing, an AAR that wants a newer SDK.
    id: 'native-or-class-dependency-missing',
    type: 'Dependency Issues',
    tool: 'linker',
    linePattern: /\bld(?:\.\w+)?: (?:cannot find -l\S+|library not found for -l\S+)|Missing classes detected while running R8\b|issues? (?:was|were) found when checking AAR metadata|^\s*(?:> )?The minCompileSdk \(\d+\) specified in a\b/,
    example: { command: 'pnpm tauri build --target aarch64-unknown-linux-gnu', lines: ['          /usr/bin/ld: cannot find -lwebkit2gtk-4.1: No such file or directory', '          collect2: error: ld returned 1 exit status'] },
  },
  {
    // Homebrew (it prints this as a warning annotation, and the step fails on it), pip before 20.3.
    id: 'installer-refused',
    type: 'Package Installation Error',
    tool: 'package-manager',
    linePattern: /^(?:##\[warning\])?No available formula with the name "[^"]+"|^ERROR: Command errored out with exit status \d+|: finished with status 'error'$/,
    example: { command: 'brew install gtk4 gio-2.0', lines: ['##[warning]No available formula with the name "gio-2.0".', 'No formulae or casks found for gio-2.0.'] },
  },
  {
    // pip refusing the runner's system Python (PEP 668, Ubuntu 24.04 images): the install fails because of the image.
    id: 'pip-externally-managed',
    type: 'Package Installation Error',
    also: 'Environment Error',
    tool: 'pip',
    linePattern: /^error: externally-managed-environment$|^× This environment is externally managed$/,
    example: { command: 'python3 -m pip install -r requirements.txt', lines: ['error: externally-managed-environment', '', '× This environment is externally managed'] },
  },
  {
    // A tool the runner has in a version the project refuses; a database service the tests expect that is not running.
    id: 'runner-tool-version-or-service',
    type: 'Environment Error',
    tool: 'runner',
    linePattern: /^Node\.js v[\d.]+ is not supported by \S+|Connection to [\w.-]+:\d+ refused\. Check that the hostname and port are correct/,
    example: { command: 'npx astro build', lines: ['Node.js v20.20.2 is not supported by Astro!'] },
  },
  {
    // The workflow's JDK is older than the release the build targets.
    id: 'jdk-release-unsupported',
    type: 'Configuration Error',
    tool: 'javac',
    linePattern: /error: invalid (?:source|target) release: \S+|error: release version \S+ not supported/,
    example: { command: './gradlew assembleDebug', lines: ['Java compilation initialization error: error: invalid source release: 21'] },
  },
];
