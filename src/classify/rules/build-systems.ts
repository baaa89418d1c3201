import type { Rule } from './rule.js';

/** ts-loader's header before a TypeScript diagnostic, naming its file, line and column. */
const TSL_HEADER = /^\[tsl\] ERROR in (\S+)\((\d+),(\d+)\)$/;

/**
 * Build systems, installers and release tools the earlier rules did not know: meson, autoconf's compiler probe, CMake
 * toolchain files, ts-loader, Android SDK installs, R's pak, bun, pacman, setup-ruby's bundle install, Windows
 * installers run by actions, PyPI uploads, gpg signing, Create React App's lint warnings under CI.
 */
export const BUILD_SYSTEM_RULES: Rule[] = [
  {
    // meson's `meson.build:96:8: ERROR: …` for a dependency it cannot find (an optional one is a `found: NO` status line).
    id: 'meson-dependency-missing',
    type: 'Dependency Issues',
    tool: 'meson',
    linePattern: /^(?:\S+[/\\])?meson\.build:\d+:\d+: ERROR: (?:Dependency lookup for \S+ with method '\w+' failed|Dependency "[^"]+" not found|(?:C|C\+\+) (?:shared or static )?library '[^']+' not found)/,
    example: { command: 'meson setup build', lines: ["meson.build:96:8: ERROR: Dependency lookup for freetype2 with method 'pkgconfig' failed: Pkg-config for machine host machine not found. Giving up."] },
  },
  {
    id: 'meson-unknown-options',
    type: 'Configuration Error',
    tool: 'meson',
    linePattern: /^(?:\S+[/\\])?meson\.build:\d+:\d+: ERROR: Unknown options?: |^ERROR: Unknown options?: "/,
    example: { command: 'meson setup build -Dharfbuzz=enabled', lines: ['meson.build:1:0: ERROR: Unknown options: "harfbuzz, libtool"'] },
  },
  {
    // autoconf's and Node.js's configure scripts: the runner has no C compiler where the build looks for one.
    id: 'c-compiler-missing',
    type: 'Environment Error',
    tool: 'configure',
    linePattern: /No acceptable C compiler found!|^configure: error: (?:no acceptable C compiler found in \$PATH|Could not find a C compiler\.)/,
    example: { command: './configure', lines: ['configure: error: no acceptable C compiler found in $PATH'] },
  },
  {
    id: 'cmake-toolchain-missing',
    type: 'Configuration Error',
    tool: 'cmake',
    linePattern: /^\s*Could not find toolchain file:/,
    example: { command: 'cmake -B build -DCMAKE_TOOLCHAIN_FILE=android.toolchain.cmake', lines: ['    Could not find toolchain file:'] },
  },
  {
    // ts-loader puts the TypeScript code on the line after its `[tsl] ERROR in file(line,col)` header: TS1xxx codes are
    // the parser's.
    id: 'ts-loader-syntax',
    type: 'Syntax Error',
    tool: 'ts-loader',
    previousPattern: TSL_HEADER,
    linePattern: /^\s+(TS1\d{3}): (.+)$/,
    findingParser: (m, state) => {
      const p = state.previous;
      const path = p?.[1];
      const line = Number(p?.[2]);
      const column = Number(p?.[3]);
      if (path === undefined || !(line > 0)) return undefined;
      return { path, line, column, message: `${m[1] ?? ''} ${m[2] ?? ''}`.trim() };
    },
    context: { before: 1 },
    example: { command: 'npx webpack', lines: ['[tsl] ERROR in /app/src/index.ts(2,13)', "      TS1005: '=' expected."] },
  },
  {
    id: 'ts-loader-type',
    type: 'Type Checking',
    tool: 'ts-loader',
    previousPattern: TSL_HEADER,
    linePattern: /^\s+TS(?:[2346-9]\d{3}|1(?!8003)\d{4}): /,
    context: { before: 1 },
    example: { command: 'npx webpack', lines: ['[tsl] ERROR in /app/src/index.ts(4,7)', "      TS2322: Type 'string' is not assignable to type 'number'."] },
  },
  {
    // TS5xxx and TS18003 are the compiler's options and inputs, as `tool-config-invalid` reads them from tsc.
    id: 'ts-loader-config',
    type: 'Configuration Error',
    tool: 'ts-loader',
    previousPattern: /^\[tsl\] ERROR(?: in (\S+)\((\d+),(\d+)\))?$/,
    linePattern: /^\s+TS(?:5\d{3}|18003): /,
    context: { before: 1 },
    example: { command: 'npx webpack', lines: ['[tsl] ERROR', '      TS5023: Unknown compiler option \'foo\'.'] },
  },
  {
    id: 'android-sdk-not-writable',
    type: 'Environment Error',
    tool: 'gradle',
    linePattern: /The SDK directory \([^()\n]+\) is not writeable/,
    example: { command: './gradlew assembleRelease', lines: ['  The SDK directory (/home/vagrant/android-sdk) is not writeable,'] },
  },
  {
    id: 'android-sdk-install-failed',
    type: 'Package Installation Error',
    tool: 'gradle',
    linePattern: /^\s*> Failed to install the following SDK components:/,
    example: { command: './gradlew assembleRelease', lines: ['> Failed to install the following SDK components:'] },
  },
  {
    // The test JVM killed by the kernel (137 = SIGKILL, the OOM killer's signal).
    id: 'gradle-test-executor-killed',
    type: 'Environment Error',
    tool: 'gradle',
    linePattern: /Process 'Gradle Test Executor \d+' finished with non-zero exit value 137/,
    example: { command: './gradlew test', lines: ["> Process 'Gradle Test Executor 1' finished with non-zero exit value 137"] },
  },
  {
    // R's pak (r-lib/actions setup-r-dependencies): the install plan failed; its conflicts are the resolver's.
    id: 'pak-install-failed',
    type: 'Package Installation Error',
    tool: 'pak',
    linePattern: /^\s*! error in pak subprocess$|^\s*(?:<simpleError: )?Cannot install packages:$/,
    example: { command: 'Rscript -e "pak::lockfile_install()"', lines: ['  ! error in pak subprocess'] },
  },
  {
    id: 'pak-conflict',
    type: 'Dependency Issues',
    tool: 'pak',
    linePattern: /^\s*\* \S+: (?:Conflicts with \S+|Can't install dependency \S+)$/,
    example: { command: 'Rscript -e "pak::pkg_install()"', lines: ["  * devtools: Can't install dependency sessioninfo"] },
  },
  {
    id: 'bun-resolve-failed',
    type: 'Dependency Issues',
    also: 'Package Installation Error',
    tool: 'bun',
    linePattern: /^error: (?:@[\w.-]+\/)?[^\s@]+@[^\s@]+ failed to resolve$/,
    example: { command: 'bun install', lines: ['error: putout@^32.0.0 failed to resolve'] },
  },
  {
    id: 'pacman-transaction-failed',
    type: 'Package Installation Error',
    tool: 'pacman',
    linePattern: /^error: failed to commit transaction \(|^Errors occurred, no packages were upgraded\.$/,
    example: { command: 'pacman -Syu --noconfirm', lines: ['error: failed to commit transaction (cannot open package file)'] },
  },
  {
    // An action that installs a toolchain: setup-ruby's `bundle install`, an installer executable (CUDA's) it ran.
    id: 'action-installer-failed',
    type: 'Package Installation Error',
    tool: 'actions',
    // The lookaheads keep the scan linear (a path of many `install`s) and leave uninstallers out.
    linePattern: /The process '[^']*[/\\](?=[^'/\\]*install)(?![^'/\\]*uninstall)[^'/\\]*\.exe' failed with exit code \d+/,
    example: { command: 'Jimver/cuda-toolkit@v0.2.21', lines: ["Error: Error: The process 'D:\\a\\w\\cuda_installer-windows-12.8.1.exe' failed with exit code 3772776473"] },
  },
  {
    // setup-ruby's `bundle install` (its stack names the action: other actions run `bundle exec` through the same
    // exec library and print the same line when their own command fails).
    id: 'setup-ruby-bundle-failed',
    type: 'Package Installation Error',
    tool: 'setup-ruby',
    previousPattern: /The process '[^']*[/\\]bundle(?:\.bat)?' failed with exit code \d+/,
    linePattern: /^\s*at \S+ \(\S*[/\\]_actions[/\\]ruby[/\\]setup-ruby[/\\]/,
    context: { before: 1 },
    example: { command: 'ruby/setup-ruby@v1', lines: ["Error: Error: The process '/opt/hostedtoolcache/Ruby/3.0.4/x64/bin/bundle' failed with exit code 16", '    at ExecState._setResult (/home/runner/work/_actions/ruby/setup-ruby/v1/dist/index.js:4945:25)'] },
  },
  {
    // A release that uploads a version PyPI already has.
    id: 'pypi-file-exists',
    type: 'Configuration Error',
    tool: 'twine',
    linePattern: /^\s*File already exists \('[^']+', with|400 Client Error: File already exists\./,
    example: { command: 'python -m twine upload dist/*', lines: ["         File already exists ('pkg-0.1.0-py3-none-any.whl', with     "] },
  },
  {
    // Create React App's build under CI: its ESLint warnings fail the build.
    id: 'cra-warnings-as-errors',
    type: 'Code Linting',
    tool: 'react-scripts',
    linePattern: /^Treating warnings as errors because process\.env\.CI = true\.?$/,
    context: { after: 4 },
    example: { command: 'npm run build', lines: ['Treating warnings as errors because process.env.CI = true.'] },
  },
  {
    id: 'gpg-signing-failed',
    type: 'Configuration Error',
    tool: 'gpg',
    linePattern: /^gpg: signing failed: /,
    example: { command: 'mvn deploy -Prelease', lines: ['gpg: signing failed: Inappropriate ioctl for device'] },
  },
];
