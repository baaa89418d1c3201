import type { Rule } from './rule.js';

/**
 * Lockfiles, resolvers and installers beyond pip: npm, pnpm, yarn, pub, composer, gems, CMake packages, apt,
 * downloads. Resolution and lockfile problems are Dependency Issues; a package or file that cannot be fetched or
 * built is a Package Installation Error.
 */
export const PACKAGE_MANAGER_RULES: Rule[] = [
  {
    id: 'lockfile-out-of-sync',
    type: 'Dependency Issues',
    tool: 'package-manager',
    linePattern: /`npm ci` can only install packages when your package\.json and package-lock\.json|The `npm ci` command can only install with an existing package-lock\.json|RR_PNPM_(?:OUTDATED_LOCKFILE|NO_LOCKFILE|LOCKFILE_\w+|FROZEN_LOCKFILE\w*)|Your lockfile needs to be updated|The lockfile would have been modified by this install|lock file (?:is not up to date|does not contain a compatible set of packages)|pnpm-lock\.yaml is not up to date|poetry\.lock was last generated|uv\.lock needs to be updated|^npm (?:ERR!|error) Missing: \S+ from lock file|^npm (?:ERR!|error) Run "npm help ci" for more info/,
    context: { after: 2 },
    example: { command: 'npm ci', lines: ['npm error `npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync.'] },
  },
  {
    id: 'js-resolver-conflict',
    type: 'Dependency Issues',
    tool: 'npm',
    linePattern: /^npm (?:ERR!|error) code EOVERRIDE\b|^npm (?:ERR!|error) Override for \S+ conflicts with direct dependency|RR_PNPM_PEER_DEP_ISSUES|Couldn't find any versions for "|^error Couldn't find package "/,
    context: { after: 3 },
    example: { command: 'npm install', lines: ['npm error code EOVERRIDE'] },
  },
  {
    id: 'other-resolvers',
    type: 'Dependency Issues',
    tool: 'resolver',
    linePattern: /::\s+UNRESOLVED DEPENDENCIES\s+::|Your requirements could not be resolved to an installable set of packages|^(?:Error: )?cabal(?:-[\d.]+)?(?:\.exe)?: Could not resolve dependencies:|^(?:Error: )?\[Cabal-7107\]|Bundler could not find compatible versions|Could not find gem '[^']+' in|error: Dependencies could not be resolved|Because \S+ depends on .* version solving failed|Conflicting dependencies|incompatible dependency versions?/,
    context: { after: 3 },
    example: { command: 'composer install', lines: ['Your requirements could not be resolved to an installable set of packages.'] },
  },
  {
    id: 'module-not-resolved',
    type: 'Dependency Issues',
    tool: 'bundler',
    linePattern: /Module not found: (?:Error: )?Can't resolve '|Could not resolve "[^"]+"|Failed to resolve import "|Rollup failed to resolve import "|Could not find module '[^']+', which is required|Cannot find package '[^']+'|error TS2307: Cannot find module '/,
    example: { command: 'npm run build', lines: ["Module not found: Can't resolve 'stripe'"] },
  },
  {
    // CMake's `-- Could NOT find X` is an optional package's status line (a fallback below); a required one's is an
    // error's message.
    id: 'native-package-missing',
    type: 'Dependency Issues',
    tool: 'cmake',
    linePattern: /^(?!-- ).*?Could NOT find \w+|Could not find a package configuration file provided by "|By not providing "Find\w+\.cmake"|Package '[^']+',? required by '[^']*', not found|No package '[^']+' found/,
    context: { after: 1 },
    example: { command: 'cmake -B build', lines: ['  Could NOT find Vulkan (missing: glslc) (found version "1.3.275")'] },
  },
  {
    id: 'jvm-dependency-missing',
    type: 'Dependency Issues',
    tool: 'gradle',
    linePattern: /Plugin \[id: '[^']+'(?:, version '[^']+')?\] was not found in any of the following sources|error: package \S+ does not exist|Could not find (?:com|org|io|net)\.[\w.-]+:[\w.-]+|^(?:\[ERROR\]|Error:)\s+Cannot resolve (?:project dependencies:|dependencies of project )/,
    example: { command: './gradlew build', lines: ["Plugin [id: 'com.android.application'] was not found in any of the following sources:"] },
  },
  {
    id: 'rust-crate-unresolved',
    type: 'Dependency Issues',
    tool: 'cargo',
    linePattern: /^error\[E0432\]: unresolved import|unlinked crate `|^error: no matching package named|failed to select a version for|^error: failed to resolve patches for `/,
    example: { command: 'cargo build', lines: ['error[E0432]: unresolved import `aws_sdk_s3::Region`'] },
  },
  {
    // rustc's closing line names the error code; in a log cut short it is all that is left of the diagnostic.
    id: 'rust-explain-unresolved',
    type: 'Dependency Issues',
    tool: 'rustc',
    linePattern: /^For more information about this error, try `rustc --explain E04(?:32|33|63)`/,
    example: { command: 'cargo build', lines: ['For more information about this error, try `rustc --explain E0432`.'] },
  },
  {
    id: 'tool-version-requirement',
    type: 'Dependency Issues',
    tool: 'package-manager',
    linePattern: /\bv\d{1,4}(?:\.\d{1,6}){0,3} or greater is required|\bERROR Next\.js version \S+ is not supported|Could not find '[^']+' \([^)]*\) among \d+ total gem|The [\w-]+ theme could not be found|requires (?:a )?(?:newer|higher) version of|is incompatible with (?:this|the current) version/,
    example: { command: 'hugo --minify', lines: ['ERROR => hugo v0.146.0 or greater is required for hugo-PaperMod to build'] },
  },
  {
    id: 'vulnerability-scan',
    type: 'Dependency Issues',
    tool: 'trivy',
    linePattern: /^Total: \d{1,7} \((?:UNKNOWN: \d+, )?(?:LOW: \d+, )?(?:MEDIUM: \d+, )?HIGH: \d+, CRITICAL: \d+\)$/,
    example: { command: 'aquasecurity/trivy-action@0.28.0', lines: ['Total: 1 (HIGH: 0, CRITICAL: 1)'] },
  },
  {
    id: 'vulnerability-audit',
    type: 'Dependency Issues',
    tool: 'audit',
    // npm install prints the same summary without failing: only an audit step fails on it.
    commandPattern: /\b(?:npm|pnpm|yarn|bun) audit\b|\baudit-ci\b|\bpip-audit\b|\bcargo audit\b|\bsnyk\b|\bgrype\b/,
    linePattern: /^\d{1,7} (?:high|critical|moderate) severity vulnerabilit|found \d{1,7} vulnerabilit(?:y|ies) \(.*(?:high|critical)/,
    example: { command: 'npm audit --audit-level=high', lines: ['2 high severity vulnerabilities'] },
  },
  {
    id: 'package-fetch-failed',
    type: 'Package Installation Error',
    tool: 'package-manager',
    linePattern: /^npm (?:ERR!|error) (?:code 128|An unknown git error occurred)|error NU110[123]: Unable to find (?:a stable )?package |patch-package finished with \d+ error|E: (?:Package '[^']+' has no installation candidate|Unable to locate package )|^N: Unable to locate package |hash mismatch in fixed-output derivation|HTTP Error 404: Not Found|ERROR 404: Not Found|The requested URL returned error: 404|Command failed: .*sdkmanager|The process '[^']*sdkmanager(?:\.bat)?' failed with exit code \d+|RR_PNPM_(?:FETCH_404|TARBALL_INTEGRITY|NO_MATCHING_VERSION)|Couldn't find package "[^"]+" on the "npm" registry|^ERROR:\s+Error installing \S+|^error: failed to download from `|^Gem::(?:\w+::)*\w+Error: |^(?:::+\s+)?error: failed to compile `[^`]+ v\d[^`]*`|^Error when bootstrapping CMake:|^Error: The `brew link` step did not complete successfully|^Poetry installation failed\.$|^\s*! Failed to build source package \S+\.$|cabal(?:\.exe|-[\d.]+)?: Failed to build (?:exe:)?\S+ (?:from \S+ )?\(which is required|^npm (?:ERR!|error) Cannot read propert(?:y '|ies of )|Error: (?:\S+: )?Failed to download resource "|^\s*ChefBuildError$|Backend subprocess exited when trying to invoke build_wheel|Failed to execute '.*node-(?:pre-)?gyp(?:\.js)? |^Error: Command "(?:npm|yarn|pnpm) (?:install|ci)" exited with \d+|^npm (?:ERR!|error) network This is a problem related to network connectivity|^E: Failed to fetch \S+\s+404\s+Not Found|^error \S+\/node_modules\/\S+: Command failed\.$|^ERROR: unable to select packages:$|^error: component '[^']+' for target '[^']+' is unavailable for download/,
    context: { after: 2 },
    example: { command: 'sudo apt-get install -y libgl1-mesa-glx', lines: ["E: Package 'libgl1-mesa-glx' has no installation candidate"] },
  },
  {
    // What the code needs is not installed: `python -m build`'s missing build requirements, an mkdocs plugin, the
    // bundler version a Gemfile.lock asks for.
    id: 'dependency-not-installed',
    type: 'Dependency Issues',
    tool: 'package-manager',
    linePattern: /^ERROR Missing dependencies:$|Config value '?plugins'?: The "[^"]+" plugin is not installed|Could not find '[^']+' \([^)]+\) - did find: \[/,
    context: { after: 1 },
    example: { command: 'python -m build --no-isolation', lines: ['ERROR Missing dependencies:', '\tsetuptools_scm[toml]>=6.2'] },
  },
  {
    // A module a tool's own import needs, printed bare (poetry's installer on a Python without distutils); Sphinx's
    // autodoc prints the same line as the reason a documented module did not import (a docs failure).
    id: 'bare-module-not-found',
    type: 'Dependency Issues',
    tool: 'python',
    linePattern: /^No module named '[^']+'$/,
    // A library that names an optional import it skipped prints the same line: only when nothing else explains the step.
    fallback: true,
    disarmPattern: /autodoc: failed to import /,
    example: { command: 'curl -sSL https://install.python-poetry.org | python3 -', lines: ["No module named 'distutils'"] },
  },
  {
    // npm 7+ names the dependency whose install script failed by its folder (`npm error path …/node_modules/node-sass`)
    // right before `command failed`; a failed `npm run` script's folder is the project's own.
    id: 'npm-install-script-failed',
    type: 'Package Installation Error',
    tool: 'npm',
    previousPattern: /^npm (?:ERR!|error) path \S*[/\\]node_modules[/\\]\S+$/,
    linePattern: /^npm (?:ERR!|error) command failed$/,
    context: { before: 1, after: 1 },
    example: { command: 'npm ci', lines: ['npm error code 1', 'npm error path /home/runner/work/app/app/node_modules/node-sass', 'npm error command failed', 'npm error command sh -c node scripts/build.js'] },
  },
  {
    // libsolv's report as dnf and rpm-ostree print it: the packages asked for cannot be installed together.
    id: 'rpm-depsolve',
    type: 'Dependency Issues',
    also: 'Package Installation Error',
    tool: 'dnf',
    linePattern: /Could not depsolve transaction|^\s*Problem(?: \d+)?: (?:conflicting requests$|package \S+ requires .+, but none of the providers can be installed)|^\s*- cannot install the best candidate for the job$/,
    context: { after: 2 },
    example: { command: 'sudo dnf install -y grub2-pc', lines: ['Error: ', ' Problem: conflicting requests', '  - nothing provides libfuse3.so.3()(64bit) needed by grub2-tools-minimal-1:2.12-38.fc43.x86_64'] },
  },
  {
    id: 'python-build-backend',
    type: 'Package Installation Error',
    tool: 'uv',
    linePattern: /The build backend returned an error|Call to `[\w.]+\.build_\w+` failed|Failed to build `[^`]+`|Failed to prepare metadata|Preparing metadata \(pyproject\.toml\): finished with status 'error'|hint: This usually indicates a problem with the package or the build\b/,
    context: { after: 3 },
    example: { command: 'uv sync --frozen', lines: ['  ├─▶ The build backend returned an error'] },
  },
];
