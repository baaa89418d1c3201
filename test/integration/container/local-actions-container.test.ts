import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainerRuntime, ContainerSettings } from '../../../src/executor/container/index.js';
import { requireContainerRuntime } from '../../support/container-runtime.js';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

// `uses: ./path` Docker and JavaScript actions of the checked-out repository, in a job container (real docker daemon).
let repo: FixtureRepo;
let runtime: ContainerRuntime;
let settings: ContainerSettings;

beforeAll(async () => {
  let runnerImage: string;
  ({ runtime, settings, runnerImage } = await requireContainerRuntime());
  repo = createFixtureRepo({
    'actions/docker-greet/action.yml': 'name: local docker\ninputs:\n  who:\n    default: container\nruns:\n  using: docker\n  image: Dockerfile\n  args:\n    - ${{ inputs.who }}\n',
    // FROM the runner image: no registry is reachable in tests
    'actions/docker-greet/Dockerfile': `FROM ${runnerImage}\nCOPY entrypoint.sh /entrypoint.sh\nENTRYPOINT ["sh", "/entrypoint.sh"]\n`,
    'actions/docker-greet/entrypoint.sh': 'echo "docker says hi to $1 (input $INPUT_WHO)"\necho "said=hi-$1" >> "$GITHUB_OUTPUT"\n',
    'actions/js/action.yml': 'name: local js\nruns:\n  using: node20\n  main: index.js\n',
    'actions/js/index.js': "console.log(`js in ${require('fs').existsSync('/etc/ci-replay-image') ? 'the runner image' : 'the host'} as uid ${process.getuid()}`);\n",
  });
});

afterAll(() => {
  const images = execFileSync(runtime.bin, ['images', '-q', '--filter', 'reference=ci-replay-action/*'], { encoding: 'utf8' }).split('\n').filter((l) => l !== '');
  if (images.length > 0) execFileSync(runtime.bin, ['rmi', '-f', ...new Set(images)], { stdio: 'ignore' });
  repo?.cleanup();
});

describe('local actions in a job container', () => {
  it('builds and runs a local Docker action and runs a local JavaScript action with the container node', async () => {
    const { result, log } = await runFixtureWorkflow(repo, `
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: d
        uses: ./actions/docker-greet
        with:
          who: Ada
      - uses: ./actions/js
      - run: echo "output=\${{ steps.d.outputs.said }}"
`, { container: settings });
    const text = log('build');
    const lines = logLines(text);
    expect(result.jobs[0]?.conclusion, text).toBe('success');
    expect(text).toMatch(/Build container for action use: '\S+\/actions\/docker-greet\/Dockerfile'/);
    expect(lines).toContain('docker says hi to Ada (input Ada)');
    expect(lines.some((l) => /^js in the runner image as uid 6\d{4}$/.test(l))).toBe(true);
    expect(lines).toContain('output=hi-Ada');
  });
});
