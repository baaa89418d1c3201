import { execFileSync } from 'node:child_process';
import type { GithubSim } from './github-sim/index.js';

/** A JavaScript action (node20) with pre/post stages, inputs with a default, outputs, state and workflow commands. */
export const JS_ACTION: Record<string, string> = {
  'action.yml': `name: Greeter
description: says hello
inputs:
  who:
    description: whom to greet
    required: true
  greeting:
    description: the word
    default: Hello
outputs:
  message:
    description: the greeting
runs:
  using: node20
  pre: pre.js
  main: dist/index.js
  post: post.js
  post-if: always()
`,
  'pre.js': `const fs = require('fs');
fs.appendFileSync(process.env.GITHUB_STATE, 'pre=ran\\n');
console.log('pre stage of ' + process.env.GITHUB_ACTION_REPOSITORY);
`,
  'dist/index.js': `const fs = require('fs');
const who = process.env.INPUT_WHO;
const greeting = process.env.INPUT_GREETING;
console.log(greeting + ', ' + who + '!');
fs.appendFileSync(process.env.GITHUB_OUTPUT, 'message=' + greeting + ' ' + who + '\\n');
fs.appendFileSync(process.env.GITHUB_STATE, 'cleanup=' + who + '\\n');
fs.appendFileSync(process.env.GITHUB_ENV, 'GREETED=' + who + '\\n');
console.log('::add-mask::s3cr3t-value');
console.log('the secret is s3cr3t-value');
console.log('::set-output name=legacy::old-style');
console.log('::save-state name=legacy_state::kept');
console.log('::warning file=src/a.py,line=3::careful here');
console.log('action path ' + (fs.existsSync(process.env.GITHUB_ACTION_PATH + '/action.yml') ? 'ok' : 'missing'));
console.log('pre state in main: ' + (process.env.STATE_pre || ''));
`,
  'post.js': `console.log('post cleanup=' + process.env.STATE_cleanup + ' pre=' + process.env.STATE_pre + ' legacy=' + process.env.STATE_legacy_state);
`,
};

/** A composite action (in a subfolder) that calls the JavaScript action, with inputs and outputs mapped. */
export const COMPOSITE_ACTION: Record<string, string> = {
  'greet/action.yml': `name: Composite greeter
inputs:
  who:
    default: world
outputs:
  combined:
    value: \${{ steps.inner.outputs.message }}|\${{ steps.shout.outputs.upper }}
runs:
  using: composite
  steps:
    - id: shout
      shell: bash
      run: |
        echo "upper=$(echo '\${{ inputs.who }}' | tr a-z A-Z)" >> "$GITHUB_OUTPUT"
        echo "COMPOSITE_ENV=set-by-composite" >> "$GITHUB_ENV"
        test -f "$GITHUB_ACTION_PATH/action.yml" && echo "composite action path ok"
    - id: inner
      uses: acme/js-action@v1
      with:
        who: \${{ inputs.who }}
        greeting: Hi
    - shell: bash
      run: echo "inner said \${{ steps.inner.outputs.message }} env=$COMPOSITE_ENV"
    - if: failure()
      shell: bash
      run: echo "never printed"
`,
};

/** A Docker container action built from its Dockerfile (FROM `base`: no registry is reachable in tests). */
export const dockerAction = (base: string): Record<string, string> => ({
  'action.yml': `name: Docker greeter
inputs:
  who:
    default: container
outputs:
  greeting:
    description: what it said
runs:
  using: docker
  image: Dockerfile
  env:
    FROM_ACTION_YML: set
  args:
    - \${{ inputs.who }}
`,
  Dockerfile: `FROM ${base}\nCOPY entrypoint.sh /entrypoint.sh\nENTRYPOINT ["/entrypoint.sh"]\n`,
  'entrypoint.sh': '#!/bin/sh\necho "hello from docker $1 input=$INPUT_WHO env=$FROM_ACTION_YML"\necho "greeting=hi-$1" >> "$GITHUB_OUTPUT"\n',
});

/** A Docker container action built from its Dockerfile (FROM scratch: for the host-mode setup failure). */
export const DOCKER_ACTION: Record<string, string> = {
  'action.yml': `name: Docker greeter
inputs:
  who:
    default: container
runs:
  using: docker
  image: Dockerfile
  args:
    - \${{ inputs.who }}
`,
  Dockerfile: 'FROM scratch\nCOPY entrypoint.sh /entrypoint.sh\nENTRYPOINT ["/entrypoint.sh"]\n',
  'entrypoint.sh': '#!/bin/sh\necho "hello from docker $1"\n',
};

const git = (gitDir: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: gitDir, encoding: 'utf8', env: { PATH: '/usr/bin:/bin', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } }).trim();

/** Moves (or creates) a tag in a simulator repository; returns the commit it now points at. */
export function tagRepo(sim: GithubSim, fullName: string, tag: string, ref = 'refs/heads/main'): string {
  const repo = sim.state.repos.get(fullName.toLowerCase()) ?? [...sim.state.repos.values()].find((r) => r.fullName === fullName);
  if (repo === undefined) throw new Error(`no simulator repository ${fullName}`);
  const sha = git(repo.gitDir, 'rev-parse', ref);
  git(repo.gitDir, 'update-ref', `refs/tags/${tag}`, sha);
  return sha;
}

/** Creates the fixture action repositories in the simulator (public, tagged v1): acme/js-action, acme/composite, acme/docker-action. */
export async function createActionRepos(sim: GithubSim): Promise<{ jsSha: string; compositeSha: string; dockerSha: string }> {
  await sim.createRepo({ owner: 'acme', name: 'js-action', files: JS_ACTION });
  await sim.createRepo({ owner: 'acme', name: 'composite', files: COMPOSITE_ACTION });
  await sim.createRepo({ owner: 'acme', name: 'docker-action', files: DOCKER_ACTION });
  return {
    jsSha: tagRepo(sim, 'acme/js-action', 'v1'),
    compositeSha: tagRepo(sim, 'acme/composite', 'v1'),
    dockerSha: tagRepo(sim, 'acme/docker-action', 'v1'),
  };
}
