import { describe, expect, it } from 'vitest';
import { parseActionRef, parseManifest } from '../../../src/executor/actions/index.js';
import { inputVariable } from '../../../src/executor/actions/inputs.js';

describe('parseActionRef', () => {
  it('splits owner/repo[/path]@ref and recognises docker:// and ./ actions', () => {
    expect(parseActionRef('astral-sh/setup-uv@v6')).toEqual({ kind: 'remote', uses: 'astral-sh/setup-uv@v6', owner: 'astral-sh', repo: 'setup-uv', path: '', ref: 'v6' });
    expect(parseActionRef('github/codeql-action/init@v3')).toMatchObject({ owner: 'github', repo: 'codeql-action', path: 'init', ref: 'v3' });
    expect(parseActionRef('re-actors/alls-green@release/v1')).toMatchObject({ repo: 'alls-green', path: '', ref: 'release/v1' });
    expect(parseActionRef('docker://alpine:3.20')).toEqual({ kind: 'docker', uses: 'docker://alpine:3.20', image: 'alpine:3.20' });
    expect(parseActionRef('./.github/actions/setup')).toMatchObject({ kind: 'local' });
  });

  it('refuses malformed references', () => {
    for (const bad of ['actions/checkout', 'checkout@v4', 'a/b@', 'a/../b@v1', 'a/b/../c@v1', 'a/b@-x', 'a b/c@v1']) {
      expect(() => parseActionRef(bad), bad).toThrow(/Expected format \{org\}\/\{repo\}\[\/path\]@ref/);
    }
  });
});

describe('parseManifest', () => {
  it('reads a JavaScript action with inputs, outputs, pre/post and their conditions', () => {
    const manifest = parseManifest(
      {
        name: 'Setup uv',
        inputs: { version: { default: 'latest' }, 'github-token': { required: true, default: '${{ github.token }}' }, enable: { required: 'false' } },
        outputs: { 'uv-version': { description: 'v' } },
        runs: { using: 'node24', main: 'dist/setup/index.cjs', post: 'dist/save-cache/index.cjs', 'post-if': 'success()' },
      },
      'astral-sh/setup-uv',
    );
    expect(manifest.inputs).toEqual({ version: { required: false, default: 'latest' }, 'github-token': { required: true, default: '${{ github.token }}' }, enable: { required: false } });
    expect(manifest.outputs).toEqual({ 'uv-version': '' });
    expect(manifest.runs).toEqual({ using: 'node', version: 'node24', main: 'dist/setup/index.cjs', post: 'dist/save-cache/index.cjs', postIf: 'success()' });
  });

  it('reads composite and Docker actions and requires a shell on composite run steps', () => {
    const composite = parseManifest({ runs: { using: 'composite', steps: [{ run: 'echo hi', shell: 'bash', id: 'a' }, { uses: 'o/r@v1', with: { x: 1 } }] }, outputs: { o: { value: '${{ steps.a.outputs.o }}' } } }, 'o/c');
    expect(composite.runs).toMatchObject({ using: 'composite', steps: [{ run: 'echo hi', shell: 'bash', id: 'a' }, { uses: 'o/r@v1', with: { x: 1 } }] });
    expect(composite.outputs).toEqual({ o: '${{ steps.a.outputs.o }}' });
    expect(() => parseManifest({ runs: { using: 'composite', steps: [{ run: 'echo hi' }] } }, 'o/c')).toThrow(/'shell' is required/);
    const docker = parseManifest({ runs: { using: 'docker', image: 'Dockerfile', args: ['${{ inputs.who }}'], entrypoint: '/e.sh', env: { A: 1 } } }, 'o/d');
    expect(docker.runs).toEqual({ using: 'docker', image: 'Dockerfile', args: ['${{ inputs.who }}'], entrypoint: '/e.sh', env: { A: '1' } });
    expect(() => parseManifest({ runs: { using: 'node8', main: 'x.js' } }, 'o/old')).toThrow(/runs.using 'node8' is not supported/);
    expect(() => parseManifest({ runs: { using: 'node20' } }, 'o/nomain')).toThrow(/runs.main is required/);
  });

  it("names input variables as GitHub does", () => {
    expect(inputVariable('github-token')).toBe('INPUT_GITHUB-TOKEN');
    expect(inputVariable('my input')).toBe('INPUT_MY_INPUT');
  });
});
