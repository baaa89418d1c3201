/**
 * Commands a GitHub-hosted Ubuntu runner image has on PATH before any step runs (actions/runner-images,
 * images/ubuntu/Ubuntu2204-Readme.md and Ubuntu2404-Readme.md: tools, languages, package managers, databases,
 * browsers). A step that stops at `<tool>: command not found` for one of these failed because the machine
 * replaying it lacks what GitHub provides: the replay's fault, not the repository's.
 *
 * Tools a repository installs itself (pytest, flake8, black, tox, poetry, nox, ruff, mypy, …) are deliberately
 * absent: a workflow that calls them without installing them is broken on GitHub too.
 */
export const RUNNER_TOOLS: ReadonlySet<string> = new Set([
  // shells and core utilities
  'bash', 'sh', 'sudo', 'tar', 'gzip', 'zip', 'unzip', 'xz', 'zstd', 'rsync', 'ssh', 'scp', 'file', 'time', 'parallel',
  // package managers of the image
  'apt', 'apt-get', 'dpkg', 'snap', 'brew', 'pipx',
  // network clients
  'curl', 'wget', 'git', 'git-lfs', 'gh', 'az', 'aws', 'gcloud', 'kubectl', 'helm', 'kind', 'minikube',
  // containers
  'docker', 'docker-compose', 'podman', 'buildah', 'skopeo',
  // JSON/YAML
  'jq', 'yq',
  // languages and their package managers
  'python', 'python3', 'pip', 'pip3', 'node', 'npm', 'npx', 'yarn', 'java', 'javac', 'mvn', 'gradle', 'ant', 'sbt', 'kotlin',
  'go', 'gofmt', 'cargo', 'rustc', 'rustup', 'rustfmt', 'ruby', 'gem', 'bundle', 'bundler', 'php', 'composer', 'perl', 'dotnet', 'pwsh',
  'swift', 'julia', 'R', 'Rscript',
  // build tools and compilers
  'make', 'cmake', 'ninja', 'gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'clang-format', 'clang-tidy', 'gfortran', 'ld', 'pkg-config',
  'autoconf', 'automake', 'libtool', 'm4', 'bazel', 'bazelisk', 'swig', 'shellcheck', 'upx',
  // display and browsers
  'xvfb-run', 'Xvfb', 'google-chrome', 'chromium', 'chromedriver', 'firefox', 'geckodriver', 'ffmpeg',
  // databases
  'psql', 'pg_ctl', 'pg_isready', 'createdb', 'mysql', 'mysqladmin', 'sqlite3', 'mongosh',
  // misc
  'openssl', 'gpg', 'lsb_release', 'systemctl', 'service', 'ip', 'nc', 'netstat', 'dig', 'nslookup', 'sed', 'awk', 'grep', 'find', 'xargs',
]);

/** Whether a missing command is something the hosted runner image provides. */
export const isRunnerTool = (command: string): boolean => RUNNER_TOOLS.has(command.replace(/^.*\//, ''));
