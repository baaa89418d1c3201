import { NETWORK_YIELDS } from '../environment.js';
import type { Rule } from '../rule.js';
import { sourced } from './sourced.js';

/**
 * A setup action that cannot install the version the workflow asks for: the tuning half's readers label it a Package
 * Installation Error of a wrong configuration (7 and 6 of the 11 such logs, setup-python's among them; 2 say
 * Environment Error). setup-python's message is environment.ts's `python-version-unavailable`, typed the same.
 */
const missingVersion = (id: string, tool: string, linePattern: RegExp, example: string): Rule => ({
  ...sourced(id, 'Package Installation Error', tool, linePattern, example),
  also: 'Configuration Error',
});

/** The runner and its tools: daemons, memory, network, missing or mismatched toolchains; each message as its tool's source (or documentation) words it, which the comment names. */
export const SOURCED_ENVIRONMENT_RULES = [
  // docker: docker/cli:vendor/github.com/docker/docker/client/errors.go (errConnectionFailed / ErrorConnectionFailed)
  sourced('docker-daemon-unreachable', 'Environment Error', "docker", /Cannot connect to the Docker daemon at \S+\. Is the docker daemon running\?|dial unix \/var\/run\/docker\.sock: connect: no such file or directory/, "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?"),
  // docker: moby/moby:daemon/devices.go (errConflictCountDeviceIDs / 'could not select device driver %q with capabilities: %v')
  sourced('docker-gpu-driver-missing', 'Environment Error', "docker", /could not select device driver "[^"]*" with capabilities: \[\[?gpu\]\]?/, "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]]."),
  // go: golang/go:src/runtime/malloc.go (throw("runtime: out of memory"), printed as 'fatal error: ...')
  sourced('go-runtime-out-of-memory', 'Environment Error', "go", /^fatal error: runtime: out of memory$/, "fatal error: runtime: out of memory"),
  // jvm: openjdk/jdk:src/hotspot/share/memory/universe.cpp (out-of-memory messages 'Java heap space', 'Metaspace', 'GC overhead limit exceeded')
  sourced('jvm-out-of-memory', 'Environment Error', "jvm", /java\.lang\.OutOfMemoryError: (?:Java heap space|GC overhead limit exceeded|Metaspace|unable to create native thread|Compressed class space)/, "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space"),
  // gradle: gradle/gradle:platforms/core-runtime/launcher/src/main/java/org/gradle/launcher/daemon/client/DaemonDisappearedException.java
  sourced('gradle-daemon-disappeared', 'Environment Error', "gradle", /Gradle build daemon disappeared unexpectedly/, "Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)"),
  // gcc: gcc-mirror/gcc:gcc/gcc.cc (fatal_error '%s signal terminated program %s'; comment: 'the user or OOM killer nuked it')
  sourced('gcc-killed-by-signal', 'Environment Error', "gcc", /fatal error: Killed signal terminated program \S+/, "c++: fatal error: Killed signal terminated program cc1plus"),
  // cargo: rust-lang/cargo:crates/cargo-util/src/process_error.rs (exit_status_to_string: 'signal: {}, {}' with 'SIGKILL: kill')
  sourced('cargo-process-sigkill', 'Environment Error', "cargo", /\(signal: 9, SIGKILL: kill\)/, "error: could not compile `tokio` (lib); process didn't exit successfully: `rustc --crate-name tokio --edition=2021 src/lib.rs` (signal: 9, SIGKILL: kill)"),
  // pytorch: pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp ('CUDA out of memory. Tried to allocate ')
  sourced('cuda-out-of-memory', 'Environment Error', "pytorch", /CUDA out of memory\. Tried to allocate /, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 14.75 GiB of which 3.06 MiB is free."),
  // os: python/cpython:Python/errors.c (PyErr_SetFromErrno formats '[Errno %d] %s' with strerror(ENOMEM)); bash: execute_cmd.c/jobs.c 'fork: %s';
  // php: php/php-src:Zend/zend_alloc.c ('\nmmap() failed: [%d] %s\n'; zend_mm_safe_error 'Out of memory (allocated %zu bytes) (tried to allocate %zu bytes)')
  sourced('errno-enomem', 'Environment Error', "os", /\[Errno 12\] Cannot allocate memory|\bfork: Cannot allocate memory$|\bENOMEM: not enough memory|^mmap\(\) failed: \[12\] Cannot allocate memory$|^(?:PHP )?Fatal error: +Out of memory \(allocated \d+ bytes\) \(tried to allocate \d+ bytes\)/, "OSError: [Errno 12] Cannot allocate memory"),
  // git: git/git:remote-curl.c ('RPC failed; %s'), pkt-line.c ('the remote end hung up unexpectedly'), builtin/index-pack.c ('early EOF')
  sourced('git-transport-failure', 'Environment Error', "git", /^error: RPC failed; (?:curl \d+|HTTP \d+)|^fatal: the remote end hung up unexpectedly$|^fatal: early EOF$/, "error: RPC failed; curl 56 GnuTLS recv error (-54): Error in the pull function.", NETWORK_YIELDS),
  // node: nodejs/node:lib/_http_client.js (connResetException('socket hang up'))
  sourced('node-socket-hang-up', 'Environment Error', "node", /\bsocket hang up\b/, "Error: socket hang up", NETWORK_YIELDS),
  // python-requests: urllib3/urllib3:src/urllib3/connectionpool.py (_raise_timeout: 'Read timed out. (read timeout=%s)')
  sourced('urllib3-read-timeout', 'Environment Error', "python-requests", /Read timed out\. \(read timeout=[\d.]+\)/, "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='api.github.com', port=443): Read timed out. (read timeout=10)", NETWORK_YIELDS),
  // curl: curl/curl:lib/strerror.c (CURLE_HTTP2 16, CURLE_PARTIAL_FILE 18, CURLE_PEER_FAILED_VERIFICATION 60, CURLE_HTTP2_STREAM 92) with src/tool_operate.c 'curl: (%d) %s'
  sourced('curl-tls-transfer-error', 'Environment Error', "curl", /^curl: \((?:16|18|60|92)\) /, "curl: (92) HTTP/2 stream 1 was not closed cleanly: INTERNAL_ERROR (err 2)"),
  // go: golang/go:src/net/http/transport.go ('net/http: TLS handshake timeout', 'net/http: request canceled while waiting for connection'), src/net/dnsclient_unix.go ('server misbehaving'), src/net/net.go ('i/o timeout')
  sourced('go-net-timeout', 'Environment Error', "go", /net\/http: TLS handshake timeout|net\/http: request canceled while waiting for connection|dial tcp \S+: i\/o timeout|lookup \S+ on \S+: server misbehaving/, "Error response from daemon: Get \"https://registry-1.docker.io/v2/\": net/http: TLS handshake timeout", NETWORK_YIELDS),
  // coreutils: coreutils/coreutils:src/env.c (error ... 'cannot run' → '%s: No such file or directory' via quote())
  sourced('env-interpreter-missing', 'Environment Error', "coreutils", /^\/usr\/bin\/env: ['‘]\S+['’]: No such file or directory$/, "/usr/bin/env: 'python': No such file or directory"),
  // rustup: rust-lang/rustup:src/errors.rs (RustupError::ToolchainNotSelected)
  sourced('rustup-no-default-toolchain', 'Environment Error', "rustup", /rustup could not choose a version of \S+ to run, because one wasn't specified explicitly, and no default is configured/, "error: rustup could not choose a version of cargo to run, because one wasn't specified explicitly, and no default is configured."),
  // pnpm: pnpm/pnpm:pnpm/bin/pnpm.cjs ('This version of pnpm requires at least Node.js v'), packages/package-is-installable (ERR_PNPM_UNSUPPORTED_ENGINE 'Unsupported environment (bad pnpm and/or Node.js version)')
  sourced('pnpm-unsupported-node', 'Environment Error', "pnpm", /ERR_PNPM_UNSUPPORTED_ENGINE|This version of pnpm requires at least Node\.js v\d/, "ERROR: This version of pnpm requires at least Node.js v18.12"),
  // setup-node: actions/setup-node:src/distributions/base-distribution.ts; actions/setup-go:src/installer.ts; actions/setup-java:src/distributions/*\/installer.ts ('Could not find satisfied version for SemVer')
  missingVersion('setup-version-not-found', "setup-node", /Unable to find (?:Node|Go) version '[^']+' for platform \S+ and architecture \S+\.|Could not find satisfied version for SemVer '?[^'\s]+'?/, "##[error]Unable to find Node version '14.17.0' for platform darwin and architecture arm64."),
  // runner: actions/runner:src/Runner.Worker/Handlers/ContainerActionHandler.cs / src/Runner.Worker/ContainerOperationProvider.cs
  sourced('container-action-linux-only', 'Environment Error', "runner", /(?:Container action is|Container operations are) only supported on Linux/, "##[error]Container action is only supported on Linux"),
  // jvm: openjdk/jdk:src/hotspot/share/classfile/classFileParser.cpp ('has been compiled by a more recent version of the Java Runtime (class file version %u.%u)'); ASM/Groovy ClassReader 'Unsupported class file major version'
  sourced('class-file-version-too-new', 'Environment Error', "jvm", /has been compiled by a more recent version of the Java Runtime \(class file version [\d.]+\)|Unsupported class file major version \d+/, "java.lang.UnsupportedClassVersionError: com/example/Main has been compiled by a more recent version of the Java Runtime (class file version 65.0), this version of the Java Runtime only recognizes class file versions up to 61.0"),
  // go: golang/go:src/cmd/go/internal/gover/toolchain.go (TooNewError: '%v requires go >= %v (running go %v; GOTOOLCHAIN=%v)')
  sourced('go-toolchain-too-old', 'Environment Error', "go", /^go: \S+ requires go >= \S+ \(running go \S+; GOTOOLCHAIN=\w+\)/, "go: go.mod requires go >= 1.22 (running go 1.21.0; GOTOOLCHAIN=local)"),
  // xcode: apple xcrun/xcode-select (messages of the Command Line Tools shims)
  sourced('xcode-tool-missing', 'Environment Error', "xcode", /xcrun: error: unable to find utility \"[^\"]+\", not a developer tool or in PATH|xcode-select: error: tool '[^']+' requires Xcode, but active developer directory/, "xcrun: error: unable to find utility \"simctl\", not a developer tool or in PATH"),
  // rustc: rust-lang/rust:compiler/rustc_codegen_ssa/messages.ftl (codegen_ssa_linker_not_found 'linker `{$linker_path}` not found')
  sourced('rust-linker-not-found', 'Environment Error', "rustc", /^error: linker `[^`]+` not found$/, "error: linker `cc` not found"),
  // android-gradle: Android Gradle Plugin (com.android.build.gradle.internal.SdkLocator: 'SDK location not found. Define a valid SDK location with an ANDROID_HOME environment variable...')
  sourced('android-sdk-missing', 'Environment Error', "android-gradle", /SDK location not found\. Define a valid SDK location with an ANDROID_HOME environment variable/, "SDK location not found. Define a valid SDK location with an ANDROID_HOME environment variable or by setting the sdk.dir path in your project's local properties file at '/w/local.properties'."),
  // tls: python/cpython:Modules/_ssl.c (SSLCertVerificationError '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed'); nodejs/node:src/crypto/crypto_common.cc (UNABLE_TO_GET_ISSUER_CERT_LOCALLY, SELF_SIGNED_CERT_IN_CHAIN)
  sourced('tls-certificate-verify-failed', 'Environment Error', "tls", /\[SSL: CERTIFICATE_VERIFY_FAILED\] certificate verify failed|\bUNABLE_TO_GET_ISSUER_CERT_LOCALLY\b|\bSELF_SIGNED_CERT_IN_CHAIN\b/, "requests.exceptions.SSLError: HTTPSConnectionPool(host='x.org', port=443): Max retries exceeded with url: / (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)')))", NETWORK_YIELDS),
  // os: torvalds/linux ENOEXEC strerror 'Exec format error' as reported by runc ('exec %s: exec format error'); macOS 'Bad CPU type in executable'
  sourced('exec-format-error', 'Environment Error', "os", /\bexec format error$|^\S+: Bad CPU type in executable$/, "exec /usr/local/bin/docker-entrypoint.sh: exec format error"),
  // dyld: apple-oss-distributions/dyld (dyld[pid]: 'Symbol not found: …' / 'Library not loaded: …', 'Referenced from:', 'Expected in:'): a binary built for another macOS than the runner's
  sourced('dyld-symbol-missing', 'Environment Error', "dyld", /^dyld(?:\[\d+\])?: (?:Symbol not found: |Library not loaded: )/, "dyld[7460]: Symbol not found: (_$s10Foundation11JSONDecoderC6decode_4fromxxm_AA4DataVtKSeRzlFTj)"),
  // glibc: bminor/glibc:elf/dl-version.c ('version `%s' not found (required by %s)'), elf/dl-load.c / elf/rtld.c ('error while loading shared libraries: %s: cannot open shared object file')
  sourced('shared-library-missing', 'Environment Error', "glibc", /version `GLIBC_[\d.]+' not found \(required by |error while loading shared libraries: \S+: cannot open shared object file/, "./bin/tool: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by ./bin/tool)"),
  // gitlab-runner: gitlab-org/gitlab-runner:executors (fmt.Errorf("execution took longer than %v seconds", timeout)), the job's time limit
  sourced('gitlab-job-timeout', 'Environment Error', "gitlab-runner", /^(?:ERROR: Job failed: )?execution took longer than \S+ seconds$/, "ERROR: Job failed: execution took longer than 1h0m0s seconds"),
  // go: golang/go:src/cmd/go/internal/cfg/cfg.go ('go: cannot find GOROOT directory: %v'): the Go toolchain the job points at is not there
  sourced('go-goroot-missing', 'Environment Error', "go", /^go: cannot find GOROOT directory: /, "go: cannot find GOROOT directory: /usr/local/go"),
  // runner: actions/runner:src/Runner.Worker/ActionManager.cs ('Failed to download archive '{link}' after {n} attempts.'), src/Runner.Worker/ContainerOperationProvider.cs ('Docker pull failed with exit code {0}'; the retry warning ends in ', back off ...' and is not matched)
  sourced('runner-action-download-failed', 'Environment Error', "runner", /^(?:##\[error\])?Failed to download archive '[^']+' after \d+ attempts?\.|^(?:##\[error\]|Error: )?Docker pull failed with exit code \d+$/, "##[error]Failed to download archive 'https://codeload.github.com/actions/setup-java/tar.gz/c1e323688fd81a25caa38c78aa6df2d33d3e20d9' after 1 attempts."),
  // setup-java: actions/setup-java:src/distributions/base-installer.ts
  missingVersion('setup-java-version-not-found', "setup-java", /^(?:##\[error\]|Error: )?No matching version found for SemVer '[^']+'/, "##[error]No matching version found for SemVer '99'."),
  // setup-ruby: ruby/setup-ruby:index.js
  missingVersion('setup-ruby-unknown-version', "setup-ruby", /^(?:##\[error\]|Error: )?Unknown version \S+ for \S+ on \S+/, "##[error]Unknown version 3.9 for ruby on ubuntu-22.04"),
];
