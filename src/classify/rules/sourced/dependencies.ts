import { sourced } from './sourced.js';

/** Resolvers and lockfiles: versions that cannot be satisfied, lockfiles out of date; each message as its tool's source (or documentation) words it, which the comment names. */
export const SOURCED_DEPENDENCY_RULES = [
  // uv: astral-sh/uv:crates/uv/src/commands/project/mod.rs
  sourced('uv-lockfile-locked', 'Dependency Issues', "uv", /The lockfile at `uv\.lock` needs to be updated, but `--(?:locked|frozen|check)`/, "error: The lockfile at `uv.lock` needs to be updated, but `--locked` was provided. To update the lockfile, run `uv lock`."),
  // uv: astral-sh/uv:crates/uv-resolver/src/pubgrub/report.rs
  sourced('uv-requirements-unsatisfiable', 'Dependency Issues', "uv", /we can conclude that (?:your requirements|your project\'s requirements|the requirements) are unsatisfiable/, "  ╰─▶ Because there is no version of foo==9.9 and you require foo==9.9, we can conclude that your requirements are unsatisfiable."),
  // pnpm: pnpm/pnpm:pnpm11/resolving/npm-resolver/src/index.ts
  sourced('pnpm-workspace-pkg-not-found', 'Dependency Issues', "pnpm", /ERR_PNPM_WORKSPACE_PKG_NOT_FOUND|is in the dependencies but no package named "[^"]+" is present in the workspace/, " ERR_PNPM_WORKSPACE_PKG_NOT_FOUND  In packages/app: \"foo@workspace:*\" is in the dependencies but no package named \"foo\" is present in the workspace"),
  // go: golang/go:src/cmd/go/internal/modfetch/fetch.go ('verifying %s: checksum mismatch', 'SECURITY ERROR'): a module that does not match go.sum is a resolution failure, as the corpus's reader types it
  sourced('go-checksum-mismatch', 'Dependency Issues', "go", /^verifying [^\s@]+@\S+: checksum mismatch$|^SECURITY ERROR$/, "verifying github.com/foo/bar@v1.0.0: checksum mismatch"),
  // cargo: rust-lang/cargo:src/ops/lockfile.rs (older cargo: "the lock file {} needs to be updated but --locked was passed to prevent this")
  sourced('cargo-lockfile-locked', 'Dependency Issues', "cargo", /^error: (?:cannot (?:update|create) the lock file \S+ because|the lock file (?:\S+ )?needs to be updated but) --(?:locked|frozen)/, "error: cannot update the lock file /home/runner/work/app/app/Cargo.lock because --locked was passed to prevent this"),
  // yarn: yarnpkg/yarn:src/reporters/lang/en.js (incompatibleEngine: 'The engine $0 is incompatible with this module. Expected version $1. Got $2'); typed as the corpus's readers type it (two tuning logs), a package's
  // engine constraint the runner's Node.js does not meet
  sourced('yarn-engine-incompatible', 'Dependency Issues', "yarn", /The engine "node" is incompatible with this module\. Expected version "[^"]*"\. Got "[^"]*"/, "error eslint@9.0.0: The engine \"node\" is incompatible with this module. Expected version \"^18.18.0 || ^20.9.0 || >=21.1.0\". Got \"16.20.2\""),
  // cargo: rust-lang/cargo:src/ops/cargo_compile/mod.rs
  sourced('cargo-rustc-too-old', 'Dependency Issues', "cargo", /^\s*(?:error: )?(?:package `[^`]+` cannot be built because it requires rustc \S+ or newer|rustc \S+ is not supported by the following packages?:)/, "error: rustc 1.75.0 is not supported by the following package:"),
  // bundler: rubygems/rubygems:bundler/lib/bundler/definition.rb (lockfile_changes_summary / ensure_equivalent_gemfile_and_lockfile; older bundler: "You are trying to install in deployment mode after changing your Gemfile")
  sourced('bundler-frozen-lockfile', 'Dependency Issues', "bundler", /can't be updated because frozen mode is set|^You are trying to install in (?:deployment|frozen) mode after changing|^Run `bundle install` elsewhere and add the updated \S+ to version control/, "The gemspecs for path gems changed, but the lockfile can't be updated because frozen mode is set"),
  // bundler: rubygems/rubygems:bundler/lib/bundler/definition.rb
  sourced('bundler-platform-missing', 'Dependency Issues', "bundler", /^Your bundle only supports platforms \[.*\] but your local platform is /, "Your bundle only supports platforms [\"x86_64-darwin-21\"] but your local platform is x86_64-linux. Add the current platform to the lockfile with `bundle lock --add-platform x86_64-linux` and try again."),
  // bundler: rubygems/rubygems:bundler/lib/bundler/definition.rb
  sourced('bundler-ruby-version-mismatch', 'Dependency Issues', "bundler", /^Your (?:Ruby|\w+) (?:version|engine|patchlevel) is \S+, but your Gemfile specified /, "Your Ruby version is 3.0.6, but your Gemfile specified ~> 3.2"),
  // bundler: rubygems/rubygems:bundler/lib/bundler/definition.rb ("Could not find #{missing_specs_list}"), bundler/lib/bundler/source/rubygems.rb (to_s)
  sourced('bundler-gem-not-found-locally', 'Dependency Issues', "bundler", /^Could not find [\w.-]{1,100}?-\d[\w.-]{0,100}(?:, \S{1,200}){0,50} in (?:locally installed gems|any of the sources|rubygems repository |cached gems)/, "Could not find nokogiri-1.15.0-x86_64-linux, racc-1.7.1 in locally installed gems"),
  // rubygems: rubygems/rubygems:lib/rubygems.rb (bin_path)
  sourced('rubygems-gem-not-found-exec', 'Dependency Issues', "rubygems", /can't find gem \S+ \([^)]*\) with executable \S+ \(Gem::GemNotFoundException\)/, "can't find gem bundler (= 2.4.10) with executable bundle (Gem::GemNotFoundException)"),
  // composer: composer/composer:src/Composer/Package/Locker.php
  sourced('composer-lock-missing-package', 'Dependency Issues', "composer", /^\s*- Required (?:\(in require-dev\) )?package "[^"]+" (?:is not present in the lock file|is in the lock file as )/, "- Required package \"monolog/monolog\" is not present in the lock file."),
  // composer: composer/composer:src/Composer/Autoload/AutoloadGenerator.php (generated vendor/composer/platform_check.php)
  sourced('composer-platform-check', 'Dependency Issues', "composer", /Composer detected issues in your platform:/, "Composer detected issues in your platform: Your Composer dependencies require a PHP version \">= 8.2.0\". You are running 8.1.2."),
  // mamba: mamba-org/mamba:libmamba/src/api/utils.cpp
  sourced('mamba-could-not-solve', 'Dependency Issues', "mamba", /^(?:error|critical)\s+libmamba Could not solve for environment specs/, "error    libmamba Could not solve for environment specs"),
  // pipenv: pypa/pipenv:pipenv/routines/install.py, pipenv/exceptions.py (DeployException)
  sourced('pipenv-lock-out-of-date', 'Dependency Issues', "pipenv", /Your Pipfile\.lock \(\w+\) is out of date\. Expected: \(\w+\)|^\s*ERROR:* Aborting deploy/, "Your Pipfile.lock (a1b2c3) is out of date. Expected: (d4e5f6)."),
  // pipenv: pypa/pipenv:pipenv/exceptions.py (ResolutionFailure)
  sourced('pipenv-resolution-failure', 'Dependency Issues', "pipenv", /Your dependencies could not be resolved\. You likely have a mismatch in your sub-dependencies/, "Your dependencies could not be resolved. You likely have a mismatch in your sub-dependencies."),
  // nuget: NuGet/NuGet.Client:src/NuGet.Core/NuGet.Commands/Strings.resx (NU1107 Version conflict detected, NU1202 not compatible, NU1605 downgrade, NU1100 Unable to resolve, NU1004 lock file inconsistent)
  sourced('nuget-resolution-conflict', 'Dependency Issues', "nuget", /\berror NU(?:1107|1202|1605|1608|1100|1004): /, "/home/runner/work/app/src/App/App.csproj : error NU1107: Version conflict detected for Microsoft.Extensions.Logging. Install/reference Microsoft.Extensions.Logging 8.0.0 directly to project App to resolve this issue. [/home/runner/work/app/App.sln]"),
  // homebrew: Homebrew/brew:Library/Homebrew/exceptions.rb (FormulaConflictError)
  sourced('brew-conflicting-formulae', 'Dependency Issues', "homebrew", /^Error: Cannot install \S+ because conflicting formulae are installed\./, "Error: Cannot install foo because conflicting formulae are installed."),
  // cocoapods: CocoaPods/CocoaPods:spec/unit/resolver_spec.rb (expected output of lib/cocoapods/resolver.rb)
  sourced('pod-incompatible-versions', 'Dependency Issues', "cocoapods", /^\[!\] CocoaPods could not find compatible versions for pod "/, "[!] CocoaPods could not find compatible versions for pod \"Firebase/Core\":"),
  // cocoapods: CocoaPods/CocoaPods: [CP] Check Pods Manifest.lock build phase (examples/*.xcodeproj/project.pbxproj)
  sourced('pod-sandbox-out-of-sync', 'Dependency Issues', "cocoapods", /The sandbox is not in sync with the Podfile\.lock/, "error: The sandbox is not in sync with the Podfile.lock. Run 'pod install' or update your CocoaPods installation."),
  // pub: dart-lang/pub:lib/src/entrypoint.dart
  sourced('pub-enforce-lockfile', 'Dependency Issues', "pub", /^Unable to satisfy `[^`]*pubspec\.yaml` using `[^`]*pubspec\.lock`/, "Unable to satisfy `pubspec.yaml` using `pubspec.lock`."),
  // mix: elixir-lang/elixir:lib/mix/lib/mix/tasks/deps.loadpaths.ex; hexpm/hex:lib/hex/remote_converger.ex
  sourced('mix-deps-errors', 'Dependency Issues', "mix", /^\*\* \(Mix\) (?:Can't continue due to errors on dependencies|Hex dependency resolution failed|Unknown package (?:version )?\S+ (?:\S+ )?in lockfile)/, "** (Mix) Can't continue due to errors on dependencies"),
  // vcpkg: microsoft/vcpkg-tool:locales/messages.json (VersionGitEntryMissing)
  sourced('vcpkg-version-missing', 'Dependency Issues', "vcpkg", /^error: no version database entry for \S+ at /, "error: no version database entry for fmt at 11.0.0."),
  // yarn-berry: yarnpkg/berry:packages/yarnpkg-core/sources/LockfileResolver.ts (MISSING_LOCKFILE_ENTRY)
  sourced('yarn-berry-missing-lockfile-entry', 'Dependency Issues', "yarn-berry", /This package doesn't seem to be present in your lockfile; run \"yarn install\" to update the lockfile/, "Internal Error: app@workspace:.: This package doesn't seem to be present in your lockfile; run \"yarn install\" to update the lockfile"),
  // go: golang/go:src/cmd/go/internal/modload/init.go (errGoModDirty)
  sourced('go-mod-updates-needed', 'Dependency Issues', "go", /^go: updates to go\.(?:mod|sum) needed/, "go: updates to go.mod needed; to update it:"),
  // go: golang/go:src/cmd/go/internal/modload/vendor.go
  sourced('go-inconsistent-vendoring', 'Dependency Issues', "go", /^go: inconsistent vendoring in /, "go: inconsistent vendoring in /home/runner/work/app/app:"),
  // go: golang/go:src/cmd/go/internal/modload/modfile.go
  sourced('go-module-path-mismatch', 'Dependency Issues', "go", /^\s*module declares its path as: \S+$/, "\tmodule declares its path as: github.com/newowner/bar"),
  // go: golang/go:src/cmd/go/internal/modload/import.go (ImportMissingError)
  sourced('go-package-not-in-std', 'Dependency Issues', "go", /^(?:\S+: )?package \S+ is not in (?:std|GOROOT) \(/, "main.go:5:2: package slices is not in GOROOT (/opt/hostedtoolcache/go/1.20.14/x64/src/slices)"),
  // maven: apache/maven:maven-core/src/main/java/org/apache/maven/plugin/PluginResolutionException.java; maven-model-builder (Non-resolvable import POM)
  sourced('maven-plugin-unresolved', 'Dependency Issues', "maven", /^(?!\[(?:WARNING|WARN|DEBUG|INFO)\]).*(?:Plugin \S+ or one of its dependencies could not be resolved|Non-resolvable import POM: )/, "[ERROR] Plugin org.springframework.boot:spring-boot-maven-plugin:3.2.0 or one of its dependencies could not be resolved: Failed to read artifact descriptor for org.springframework.boot:spring-boot-maven-plugin:jar:3.2.0"),
  // gradle: gradle/gradle: ModuleVersionResolveException ("Could not resolve %s."), NoMatchingGraphVariantsException
  sourced('gradle-could-not-resolve-module', 'Dependency Issues', "gradle", /^\s*> Could not resolve (?:[\w.-]+:){2}[\w.+-]+\.$|^\s*> No matching variant of \S+ was found\./, "   > Could not resolve com.squareup.okhttp3:okhttp:4.12.0."),
  // opam: ocaml/opam:src/client/opamClient.ml, src/state/opamSwitchState.ml
  sourced('opam-package-conflict', 'Dependency Issues', "opam", /^\[ERROR\] (?:Package conflict!|No package named \S+ found\.?)$/, "[ERROR] Package conflict!"),
  // swiftpm: swiftlang/swift-package-manager:Sources/PackageGraph/ModulesGraph.swift
  sourced('swiftpm-product-not-found', 'Dependency Issues', "swiftpm", /product '[^']+' required by package '[^']+' target '[^']+' not found/, "error: product 'Foo' required by package 'bar' target 'Bar' not found in package 'foo'."),
  // r: wch/r-source:src/library/tools/R/install.R
  sourced('r-dependencies-not-available', 'Dependency Issues', "r", /^ERROR: dependenc(?:y|ies) .+ (?:is|are) not available for package /, "ERROR: dependencies ‘httr’, ‘RCurl’ are not available for package ‘swirl’"),
  // r: wch/r-source:src/library/base/R/library.R (packageNotFoundError)
  sourced('r-no-package-called', 'Dependency Issues', "r", /^(?:Error: )?Error in .* :\s*there is no package called [‘\'"]|^Error: package or namespace load failed for /, "Error in library(foo) : there is no package called ‘foo’"),
  // apt: Debian/apt:apt-pkg/algorithms.cc, apt-private/private-output.cc
  sourced('apt-unmet-dependencies', 'Dependency Issues', "apt", /^E: Unable to correct problems, you have held broken packages\.|^The following packages have unmet dependencies:$/, "E: Unable to correct problems, you have held broken packages."),
  // conan: conan-io/conan:conans/client/graph/graph_error.py
  sourced('conan-version-conflict', 'Dependency Issues', "conan", /^ERROR: Version conflict: Conflict between \S+ and \S+ in the graph/, "ERROR: Version conflict: Conflict between zlib/1.2.11 and zlib/1.2.13 in the graph."),
  // bun: oven-sh/bun:src/install/*.zig (message asserted in bun install tests: expect(stderr).toContain("lockfile had changes, but lockfile is frozen"))
  sourced('bun-frozen-lockfile', 'Dependency Issues', "bun", /^error: lockfile had changes, but lockfile is frozen/, "error: lockfile had changes, but lockfile is frozen"),
  // dart: dart-lang/sdk:pkg/front_end/messages.yaml (PackageNotFound: "Couldn't resolve the package '#name' in '#uri'.")
  sourced('dart-package-not-resolved', 'Dependency Issues', "dart", /Error: Couldn't resolve the package '[^']+' in 'package:/, "Error: Couldn't resolve the package 'flutter_localizations' in 'package:flutter_localizations/flutter_localizations.dart'."),
  // gradle: gradle/gradle: dependency-management integration tests (failure.assertHasErrorOutput("> Could not resolve all artifacts for configuration ':classpath'."))
  sourced('gradle-resolve-all-artifacts', 'Dependency Issues', "gradle", /Could not resolve all artifacts for configuration /, "> Could not resolve all artifacts for configuration ':app:debugRuntimeClasspath'."),
];
