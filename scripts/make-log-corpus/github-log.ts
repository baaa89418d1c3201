/** Writes job output in GitHub's raw log format, with deterministic timestamps. */
export interface LogStep {
  name: string;
  /** `Run <first line>` group body: the script, or `with:` lines for an action. */
  header: string[];
  output: string[];
  /** `##[error]` lines the runner writes when the step ends (exit code, timeout, cancellation). */
  errors: string[];
}

export class GithubLogWriter {
  private readonly lines: string[] = [];
  private ms: number;

  constructor(start = Date.UTC(2025, 3, 7, 12, 57, 33)) {
    this.ms = start;
  }

  private stamp(): string {
    this.ms += 7;
    const iso = new Date(this.ms).toISOString(); // 2025-04-07T12:57:33.123Z
    return `${iso.slice(0, 23)}${String(this.ms % 10).repeat(1)}000Z`;
  }

  line(text: string): void {
    this.lines.push(`${this.stamp()} ${text}`);
  }

  pause(seconds: number): void {
    this.ms += seconds * 1000;
  }

  setUpJob(jobName: string): void {
    for (const text of [
      "Current runner version: '2.323.0'",
      '##[group]Operating System',
      'Ubuntu',
      '24.04.2',
      'LTS',
      '##[endgroup]',
      '##[group]Runner Image',
      'Image: ubuntu-24.04',
      'Version: 20250330.1.0',
      '##[endgroup]',
      '##[group]GITHUB_TOKEN Permissions',
      'Contents: read',
      'Metadata: read',
      '##[endgroup]',
      'Secret source: Actions',
      'Prepare workflow directory',
      'Prepare all required actions',
      'Getting action download info',
      "Download action repository 'actions/checkout@v4' (SHA:11bd71901bbe5b1630ceea73d27597364c9af683)",
      "Download action repository 'actions/setup-python@v5' (SHA:8d9ed9ac5c53483de85588cdf95a591a75ab9f55)",
      `Complete job name: ${jobName}`,
    ]) {
      this.line(text);
    }
  }

  checkout(): void {
    this.pause(1);
    for (const text of [
      '##[group]Run actions/checkout@v4',
      'with:',
      '  repository: ci-replay/demo',
      '  token: ***',
      '  fetch-depth: 1',
      '##[endgroup]',
      'Syncing repository: ci-replay/demo',
      '##[group]Getting Git version info',
      'Working directory is \'/home/runner/work/demo/demo\'',
      '[command]/usr/bin/git version',
      'git version 2.49.0',
      '##[endgroup]',
      '##[group]Fetching the repository',
      '[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +0123456789abcdef0123456789abcdef01234567:refs/remotes/origin/main',
      'remote: Enumerating objects: 42, done.        ',
      'remote: Counting objects: 100% (42/42), done.        ',
      'From https://github.com/ci-replay/demo',
      ' * [new ref]         0123456789abcdef0123456789abcdef01234567 -> origin/main',
      '##[endgroup]',
    ]) {
      this.line(text);
    }
  }

  setupPython(): void {
    this.pause(1);
    for (const text of [
      '##[group]Run actions/setup-python@v5',
      'with:',
      '  python-version: 3.11',
      '  check-latest: false',
      '##[endgroup]',
      '##[group]Installed versions',
      'Successfully set up CPython (3.11.2)',
      '##[endgroup]',
    ]) {
      this.line(text);
    }
  }

  step(step: LogStep): void {
    this.pause(1);
    this.line(`##[group]Run ${step.header[0] ?? step.name}`);
    for (const text of step.header) this.line(text);
    this.line('shell: /usr/bin/bash -e {0}');
    this.line('env:');
    this.line('  pythonLocation: /opt/hostedtoolcache/Python/3.11.2/x64');
    this.line('##[endgroup]');
    for (const text of step.output) this.line(text);
    for (const text of step.errors) this.line(`##[error]${text}`);
  }

  postAndComplete(): void {
    this.pause(1);
    for (const text of [
      'Post job cleanup.',
      '[command]/usr/bin/git version',
      'git version 2.49.0',
      "Temporarily overriding HOME='/home/runner/work/_temp/4b1e' before making global git config changes",
      '[command]/usr/bin/git config --local --name-only --get-regexp core\\.sshCommand',
      'Cleaning up orphan processes',
    ]) {
      this.line(text);
    }
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}
