import { sourced } from './sourced.js';

/** Installers that cannot download, build or install a package; each message as its tool's source (or documentation) words it, which the comment names. */
export const SOURCED_PACKAGE_RULES = [
  // pip: pypa/pip:src/pip/_internal/exceptions/hashes.py
  sourced('pip-hashes-required', 'Package Installation Error', "pip", /^ERROR: (?:Hashes are required in --require-hashes mode|In --require-hashes mode, all requirements must have their versions pinned)/, "ERROR: Hashes are required in --require-hashes mode, but they are missing from some requirements. Here is a list of those requirements along with the hashes their downloaded archives actually had. Add lines like these to your requirements files to prevent tampering. (If you did not enable --require-hashes manually, note that it turns on automatically when any package has a hash.)"),
  // pip: pypa/pip:src/pip/_internal/exceptions/__init__.py (MetadataInconsistent.__str__)
  sourced('pip-metadata-inconsistent', 'Package Installation Error', "pip", /^ERROR: Requested \S+ .*has inconsistent (?:version|name): expected /, "ERROR: Requested triton==0.4.1 from https://files.pythonhosted.org/packages/triton-0.4.1.tar.gz has inconsistent version: expected '0.4.1', but metadata has '0.4.0'"),
  // pip: pypa/pip:src/pip/_internal/network/download.py (logger.critical "HTTP error %s while getting %s")
  sourced('pip-http-error-getting', 'Package Installation Error', "pip", /^ERROR: HTTP error \d{3} while getting /, "ERROR: HTTP error 404 while getting https://download.pytorch.org/whl/cu118/torch-2.0.0%2Bcu118-cp310-cp310-linux_x86_64.whl"),
  // pip: pypa/pip:src/pip/_internal/commands/install.py (create_os_error_message)
  sourced('pip-oserror-install', 'Package Installation Error', "pip", /^ERROR: Could not install packages due to an (?:OSError|EnvironmentError)(?!: \[Errno 28\])/, "ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '/usr/local/lib/python3.10/dist-packages/foo'"),
  // poetry: python-poetry/poetry:src/poetry/utils/isolated_build.py
  sourced('poetry-pep517-build-failed', 'Package Installation Error', "poetry", /This error originates from the build backend, and is likely not a problem with poetry|^\s*PEP517 build of a dependency failed$/, "Note: This error originates from the build backend, and is likely not a problem with poetry but with psycopg2 (2.9.9) not supporting PEP 517 builds. You can verify this by running 'pip wheel --no-cache-dir --use-pep517 \"psycopg2 (==2.9.9)\"'."),
  // poetry: python-poetry/poetry:src/poetry/installation/chooser.py
  sourced('poetry-no-installation-candidates', 'Package Installation Error', "poetry", /Unable to find installation candidates for \S+ \(/, "Unable to find installation candidates for torch (2.5.1+cu121)"),
  // poetry: python-poetry/poetry:src/poetry/repositories/repository_pool.py
  sourced('poetry-package-not-found', 'Package Installation Error', "poetry", /^\s*(?:PackageNotFoundError\s*)?Package \S+ \([^)]+\) not found\.$/, "Package foo (9.9.9) not found."),
  // uv: astral-sh/uv:crates/uv-distribution-types/src/dist_error.rs (DistErrorKind Display)
  sourced('uv-failed-download', 'Package Installation Error', "uv", /^\s*(?:error: |× |\u00d7 )?Failed to download(?: and build)? `[^`]+`/, "  × Failed to download and build `pyaudio==0.2.14`"),
  // uv: astral-sh/uv:crates/uv-resolver/src/lock/mod.rs
  sourced('uv-no-wheel-for-platform', 'Package Installation Error', "uv", /can't be installed because it doesn't have a source distribution or wheel for the current platform/, "error: Distribution `torch==2.5.0 @ registry+https://download.pytorch.org/whl/cpu` can't be installed because it doesn't have a source distribution or wheel for the current platform"),
  // npm: npm/cli:lib/utils/error-message.js (case E401)
  sourced('npm-registry-auth', 'Package Installation Error', "npm", /^npm (?:ERR!|error) (?:code E401$|40[13] (?:Unauthorized|Forbidden) - GET )/, "npm error code E401"),
  // npm: npm/cli:lib/utils/error-message.js (EBADPLATFORM)
  sourced('npm-unsupported-platform', 'Package Installation Error', "npm", /^npm (?:ERR!|error) (?:code EBADPLATFORM$|notsup Unsupported platform for )/, "npm error notsup Unsupported platform for fsevents@2.3.3: wanted {\"os\":\"darwin\"} (current: {\"os\":\"linux\"})"),
  // node-gyp: nodejs/node-gyp:bin/node-gyp.js and lib/build.js
  sourced('node-gyp-failed', 'Package Installation Error', "node-gyp", /^(?:npm (?:ERR!|error) |.*│\s+)gyp ERR! (?:(?:build|configure|rebuild|install) error$|not ok$|stack Error: `(?:make|gyp|msbuild)\S*` failed with exit code)/, "npm error gyp ERR! stack Error: `make` failed with exit code: 2"),
  // android-gradle: Android Gradle Plugin (com.android.builder.sdk.LicenceNotAcceptedException: 'Failed to install the following Android SDK packages as some licences have not been accepted.'); the corpus's readers type it as an install that failed (three logs)
  sourced('android-sdk-licences', 'Package Installation Error', "android-gradle", /Failed to install the following Android SDK packages as some licences have not been accepted/, "> Failed to install the following Android SDK packages as some licences have not been accepted."),
  // pnpm: pnpm/pnpm:pnpm11/cli/default-reporter/src/reportError.ts (ERR_PNPM_FETCH_401/403), pnpm11/resolving/npm-resolver/src/fetch.ts (META_FETCH_FAIL)
  sourced('pnpm-fetch-auth', 'Package Installation Error', "pnpm", /ERR_PNPM_(?:FETCH_40[13]|META_FETCH_FAIL)\b/, " ERR_PNPM_FETCH_401  GET https://npm.pkg.github.com/@org%2Fpkg: Unauthorized - 401"),
  // cargo: rust-lang/cargo:src/resolver/dep_cache.rs, src/workspace/registry.rs, src/resolver/resolve.rs
  sourced('cargo-dependency-fetch', 'Package Installation Error', "cargo", /^error: (?:failed to get `[^`]+` as a dependency of |failed to load source for dependency `|checksum for `[^`]+` changed between lock files)/, "error: failed to get `foo` as a dependency of package `bar v0.1.0 (/home/runner/work/bar/bar)`"),
  // bundler: rubygems/rubygems:bundler/lib/bundler/installer/gem_installer.rb
  sourced('bundler-gem-install-failed', 'Package Installation Error', "bundler", /^An error occurred while installing \S+ \([^)]+\), and Bundler cannot continue/, "An error occurred while installing nokogiri (1.15.0), and Bundler cannot continue."),
  // composer: composer/composer:src/Composer/Command/PackageDiscoveryTrait.php
  sourced('composer-no-matching-version', 'Package Installation Error', "composer", /^\s*Could not find a matching version of package \S+\. Check the package spelling/, "Could not find a matching version of package foo/bar. Check the package spelling, your version constraint and that the package is available in a stability which matches your minimum-stability (stable)."),
  // composer: composer/composer:src/Composer/Command/RequireCommand.php
  sourced('composer-require-reverted', 'Package Installation Error', "composer", /^Installation failed, reverting \.\/composer\.json (?:and \.\/composer\.lock )?to (?:its|their) original content/, "Installation failed, reverting ./composer.json and ./composer.lock to their original content."),
  // conda: conda/conda:conda/exceptions.py (PackagesNotFoundError)
  sourced('conda-packages-not-found', 'Package Installation Error', "conda", /^\s*(?:PackagesNotFoundError|PackagesNotFoundInChannelsError|ResolvePackageNotFound):|The following packages are (?:not available from current channels|missing from the target environment):/, "PackagesNotFoundError: The following packages are not available from current channels:"),
  // conda: conda/conda:conda/exceptions.py (CondaHTTPError)
  sourced('conda-http-error', 'Package Installation Error', "conda", /^CondaHTTPError: HTTP (?:40[0-9]|410) /, "CondaHTTPError: HTTP 404 NOT FOUND for url <https://conda.anaconda.org/foo/noarch/repodata.json>"),
  // conda: conda/conda:conda/env/pip_util.py
  sourced('conda-env-pip-failed', 'Package Installation Error', "conda", /^CondaEnvException: Pip failed$|^Pip subprocess error:$/, "CondaEnvException: Pip failed"),
  // mamba: mamba-org/mamba:libmamba/src/solver/problems_graph.cpp
  sourced('mamba-package-does-not-exist', 'Package Installation Error', "mamba", /does not exist \(perhaps (?:a typo or )?a missing channel\)/, "    └─ foo =1.0 does not exist (perhaps a typo or a missing channel)."),
  // pipenv: pypa/pipenv:pipenv/exceptions.py (InstallError)
  sourced('pipenv-couldnt-install', 'Package Installation Error', "pipenv", /Couldn't install package\(?s?\)?: /, "Couldn't install package(s): psycopg2==2.9.9"),
  // nuget: NuGet/NuGet.Client:src/NuGet.Core/NuGet.Protocol/Strings.resx
  sourced('nuget-service-index', 'Package Installation Error', "nuget", /\berror NU1301: /, "/home/runner/work/app/App.csproj : error NU1301: Unable to load the service index for source https://nuget.pkg.github.com/org/index.json."),
  // homebrew: Homebrew/brew:Library/Homebrew/exceptions.rb (FormulaUnavailableError)
  sourced('brew-no-formula', 'Package Installation Error', "homebrew", /^Error: No (?:available formula|available formula or cask|formulae or casks found) with the name "[^"]+"/, "Error: No available formula with the name \"foo\". Did you mean foo2?"),
  // homebrew: Homebrew/brew:Library/Homebrew/cask/cask_loader.rb (CaskUnavailableError)
  sourced('brew-cask-unavailable', 'Package Installation Error', "homebrew", /^Error: Cask '[^']+' is unavailable: /, "Error: Cask 'foo' is unavailable: No Cask with this name exists."),
  // cocoapods: CocoaPods/Molinillo:lib/molinillo/errors.rb (NoSuchDependencyError), CocoaPods/CocoaPods:lib/cocoapods/external_sources/path_source.rb
  sourced('pod-spec-not-found', 'Package Installation Error', "cocoapods", /^\[!\] (?:Unable to find a specification for [`\']|No podspec found for `)/, "[!] Unable to find a specification for `Foo` depended upon by `Bar`"),
  // pub: dart-lang/pub:lib/src/source/hosted.dart (PackageNotFoundException)
  sourced('pub-package-not-found', 'Package Installation Error', "pub", /Could not find package \S+ at https?:\/\//, "Could not find package foo at https://pub.dev."),
  // cpanm: miyagawa/cpanminus:Menlo-Legacy/lib/Menlo/CLI/Compat.pm (diag_fail)
  sourced('cpanm-install-failed', 'Package Installation Error', "cpanm", /^! (?:Installing|Configuring|Building|Testing) \S+ failed\. See \S+ for details\./, "! Installing Foo::Bar failed. See /home/runner/.cpanm/work/1700000000.1234/build.log for details. Retry with --force to force install it."),
  // cpanm: miyagawa/cpanminus:Menlo-Legacy/lib/Menlo/CLI/Compat.pm
  sourced('cpanm-module-not-found', 'Package Installation Error', "cpanm", /^! Couldn't find module or a distribution \S+/, "! Couldn't find module or a distribution Foo::Bar"),
  // mix: hexpm/hex:lib/hex/remote_converger.ex
  sourced('hex-no-package', 'Package Installation Error', "mix", /^\*\* \(Mix\) No package with name \S+ \(from: \S+\) in registry/, "** (Mix) No package with name foo (from: mix.exs) in registry"),
  // vcpkg: microsoft/vcpkg-tool:locales/messages.json (BuildingPackageFailed, BuildResultBuildFailed)
  sourced('vcpkg-build-failed', 'Package Installation Error', "vcpkg", /^(?:error: building|Error: Building package) [^\s:]+:\S+ failed with: (?:BUILD_FAILED|POST_BUILD_CHECKS_FAILED|FILE_CONFLICTS|CASCADED_DUE_TO_MISSING_DEPENDENCIES|DOWNLOADED_SOURCES)/, "error: building zlib:x64-linux failed with: BUILD_FAILED"),
  // vcpkg: microsoft/vcpkg:scripts/buildsystems/vcpkg.cmake
  sourced('vcpkg-cmake-install-failed', 'Package Installation Error', "vcpkg", /vcpkg install failed\.\s+See logs for more information|^-- Running vcpkg install - failed$/, "  vcpkg install failed.  See logs for more information: /home/runner/work/app/build/vcpkg-manifest-install.log"),
  // yarn: yarnpkg/yarn:src/reporters/lang/en.js (fetchBadHashWithPath)
  sourced('yarn-integrity-check-failed', 'Package Installation Error', "yarn", /Integrity check failed for "?[^"\s]+"? \(computed integrity doesn\'t match our records/, "error https://registry.yarnpkg.com/foo/-/foo-1.0.0.tgz: Integrity check failed for \"foo\" (computed integrity doesn't match our records, got \"sha512-abc=\")"),
  // yarn-berry: yarnpkg/berry:packages/yarnpkg-core/sources/Project.ts (buildMessage)
  sourced('yarn-berry-build-failed', 'Package Installation Error', "yarn-berry", /\bYN0009: .*couldn't be built successfully \(exit code/, "➤ YN0009: │ sharp@npm:0.32.6 couldn't be built successfully (exit code 1, logs can be found here: /tmp/xfs-1b2c3d4e/build.log)"),
  // yarn-berry: yarnpkg/berry:packages/yarnpkg-core/sources/Cache.ts (CACHE_CHECKSUM_MISMATCH)
  sourced('yarn-berry-checksum-mismatch', 'Package Installation Error', "yarn-berry", /\bYN0018: .*The remote archive doesn't match the expected checksum/, "➤ YN0018: │ typescript@npm:5.3.3: The remote archive doesn't match the expected checksum"),
  // go: golang/go:src/cmd/go/internal/modfetch (codehost/git.go "unknown revision", proxy.go "reading %s")
  sourced('go-module-fetch-failed', 'Package Installation Error', "go", /^go: [^\s@]+@\S+: (?:invalid version: unknown revision |reading https?:\/\/\S+: (?:404 Not Found|410 Gone))/, "go: github.com/foo/bar@v1.2.3: invalid version: unknown revision v1.2.3"),
  // maven: apache/maven-resolver (ArtifactTransferException "Could not transfer artifact %s from/to %s"), apache/maven-resolver:maven-resolver-impl/.../DefaultRepositoryConnectorProvider.java ("Blocked mirror for repositories: ")
  sourced('maven-transfer-failed', 'Package Installation Error', "maven", /Could not transfer artifact \S+ from\/to \S+ \([^)]*\): (?:status code: \d{3}|(?:Authentication|Authorization) failed|Access denied|Not authorized|Blocked mirror)|Blocked mirror for repositories: \[/, "[ERROR] Plugin org.foo:foo-maven-plugin:1.0: Could not transfer artifact io.cucumber:messages:pom:19.1.4-SNAPSHOT from/to maven-default-http-blocker (http://0.0.0.0/): Blocked mirror for repositories: [nexus (http://mirrors.example.com/nexus/repository/maven-public/, default, releases+snapshots)]"),
  // maven: apache/maven-resolver:maven-resolver-impl/src/main/java/org/eclipse/aether/internal/impl/DefaultUpdateCheckManager.java
  sourced('maven-cached-failure', 'Package Installation Error', "maven", /^(?!\[(?:WARNING|WARN|DEBUG|INFO)\]).*was cached in the local repository, resolution will not be reattempted until the update interval of \S+ has elapsed/, "Failure to find com.foo:bar:jar:1.0 in https://repo.maven.apache.org/maven2 was cached in the local repository, resolution will not be reattempted until the update interval of central has elapsed or updates are forced"),
  // gradle: gradle/gradle:platforms/core-runtime/resources-http/.../HttpErrorStatusCodeException.java
  // The status says which: 404/410, no such artifact (an install that failed); 401, no or wrong credentials (the
  // build's repository configuration). A 403 is left to other rules: the tuning half's readers typed Maven Central's
  // 403 to a runner (its IP refused) as the environment's, not as an install or a configuration (two logs).
  sourced('gradle-http-status', 'Package Installation Error', "gradle", /Could not (?:GET|HEAD) '[^']+'\. Received status code (?:404|410) from server/, "      > Could not GET 'https://repo.example.org/maven2/com/foo/bar/1.0/bar-1.0.pom'. Received status code 404 from server: Not Found"),
  sourced('gradle-http-unauthorized', 'Configuration Error', "gradle", /Could not (?:GET|HEAD) '[^']+'\. Received status code 401 from server/, "      > Could not GET 'https://maven.pkg.github.com/org/repo/com/foo/bar/1.0/bar-1.0.pom'. Received status code 401 from server: Unauthorized"),
  // chocolatey: chocolatey/choco:src/chocolatey/infrastructure.app/services/ChocolateyPackageService.cs
  sourced('choco-packages-failed', 'Package Installation Error', "chocolatey", /^Chocolatey (?:installed|upgraded) \d+\/\d+ packages\. [1-9]\d* packages failed\.|^The (?:install|upgrade) of \S+ was NOT successful\./, "Chocolatey installed 0/1 packages. 1 packages failed."),
  // chocolatey: chocolatey/choco:src/chocolatey/infrastructure.app/services/NugetService.cs
  sourced('choco-package-not-found', 'Package Installation Error', "chocolatey", /not installed\. The package was not found with the source\(s\) listed/, "foo not installed. The package was not found with the source(s) listed."),
  // opam: ocaml/opam:src/client/opamAction.ml
  sourced('opam-build-failed', 'Package Installation Error', "opam", /^\[ERROR\] The (?:compilation|installation) of \S+ failed at /, "[ERROR] The compilation of conf-gmp.4 failed at \"sh -exc cc -c $CFLAGS -I/usr/local/include test.c\"."),
  // r: wch/r-source:src/library/tools/R/install.R
  sourced('r-package-build-failed', 'Package Installation Error', "r", /^ERROR: (?:compilation|configuration|lazy loading) failed for package /, "ERROR: compilation failed for package ‘nanonext’"),
  // apt: Debian/apt:apt-pkg/deb/dpkgpm.cc; dpkg:src/main/errors.c ("error processing package %s (%s):")
  sourced('apt-dpkg-failed', 'Package Installation Error', "apt", /^E: Sub-process \/usr\/bin\/dpkg returned an error code \(\d+\)|^dpkg: error processing (?:package|archive) \S+ \(/, "E: Sub-process /usr/bin/dpkg returned an error code (1)"),
  // apt: Debian/apt:apt-pkg/acquire-item.cc
  sourced('apt-repository-invalid', 'Package Installation Error', "apt", /^E: The repository '[^']+' (?:does not have a Release file|is not signed)\./, "E: The repository 'http://ppa.launchpad.net/foo/ppa/ubuntu noble Release' does not have a Release file."),
  // apt: Debian/apt:apt-pkg/cacheset.cc
  sourced('apt-version-not-found', 'Package Installation Error', "apt", /^E: (?:Version '[^']+' for '[^']+' was not found|Couldn't find any package by (?:glob|regex) ')/, "E: Version '1.2.3-1' for 'libfoo-dev' was not found"),
  // conan: conan-io/conan:conans/client/graph/install_graph.py (_raise_missing)
  sourced('conan-missing-binary', 'Package Installation Error', "conan", /^ERROR: Missing binary: \S+|Can't find a '[^']+' package binary '[^']+' for the configuration/, "ERROR: Missing binary: zlib/1.3:6f6e0e6a9b1e1b0b7a4f7e4a0d8a5b7f0b5c7f1e"),
  // conan: conan-io/conan:conans/client/graph/graph_error.py, conans/client/graph/proxy.py
  sourced('conan-recipe-not-found', 'Package Installation Error', "conan", /^ERROR: Package '[^']+' not resolved: /, "ERROR: Package 'foo/1.0' not resolved: Unable to find 'foo/1.0' in remotes."),
  // bun: oven-sh/bun:src/install/*.zig ("No version matching \"{s}\" found for specifier \"{s}\"")
  sourced('bun-no-version-matching', 'Package Installation Error', "bun", /^error: No version matching "[^"]+" found for specifier "[^"]+"/, "error: No version matching \"^9.0.0\" found for specifier \"foo\" (but package exists)"),
  // poetry: python-poetry/poetry:src/poetry/utils/env/python/exceptions.py (NoCompatiblePythonVersionFoundError, InvalidCurrentPythonVersionError; older poetry: "The currently activated Python version {} is not supported by the project ({})")
  sourced('poetry-python-unsupported', 'Package Installation Error', "poetry", /^(?:The (?:specified|currently activated) Python version \(?\S+?\)? is not supported by the project|Current Python version \(\S+\) is not allowed by the project) \(/, "The currently activated Python version 3.8.10 is not supported by the project (^3.10)."),
];
