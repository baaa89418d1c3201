import { describe, expect, it } from 'vitest';
import {
  classifyStep, isInstallOnly, publishWordInName, REMOVED_COMMAND, stripPublishingCommands, unavailableRunner,
} from '../../../src/workflows/classify/index.js';

describe('classifyStep', () => {
  it('classifies actions by name, ignoring the ref and case', () => {
    expect(classifyStep({ uses: 'PyPA/gh-action-pypi-publish@release/v1' }).purpose).toBe('publish');
    expect(classifyStep({ uses: 'github/codeql-action/analyze@v3' }).purpose).toBe('security-upload');
    expect(classifyStep({ uses: 'codecov/codecov-action@v4' }).purpose).toBe('coverage-upload');
    expect(classifyStep({ uses: 'actions/setup-python@v5' }).purpose).toBe('setup');
    expect(classifyStep({ uses: './.github/actions/setup' }).purpose).toBe('setup');
    expect(classifyStep({ uses: './.github/actions/lint' }).purpose).toBe('work');
    expect(classifyStep({ uses: 'pre-commit/action@v3.0.1' }).purpose).toBe('work');
  });

  it('classifies run scripts', () => {
    expect(classifyStep({ run: 'python -m twine upload --skip-existing dist/*' }).purpose).toBe('publish');
    expect(classifyStep({ run: 'docker buildx build -t x --push .' }).purpose).toBe('publish');
    expect(classifyStep({ run: 'maturin publish --skip-existing' }).purpose).toBe('publish');
    expect(classifyStep({ run: 'maturin build --release' }).purpose).toBe('work');
    expect(classifyStep({ run: 'bash <(curl -s https://codecov.io/bash)' }).purpose).toBe('coverage-upload');
    expect(classifyStep({ run: 'pip install coveralls' }).purpose).toBe('setup');
    expect(classifyStep({ run: 'coveralls --service=github' }).purpose).toBe('coverage-upload');
    expect(classifyStep({ run: 'pip install -e . && pytest' }).purpose).toBe('work');
    expect(classifyStep({ run: 'python -m pip install --upgrade pip\npip install -r requirements.txt' }).purpose).toBe('setup');
  });

  it('knows install-only scripts, continuation lines included', () => {
    expect(isInstallOnly('sudo apt-get update\nsudo apt-get install -y \\\n  libxml2-dev')).toBe(true);
    expect(isInstallOnly('uv sync; echo done')).toBe(true);
    expect(isInstallOnly('pip install tox && tox')).toBe(false);
  });
});

describe('stripPublishingCommands', () => {
  it('replaces publishing lines and chain parts, keeping the script valid', () => {
    expect(stripPublishingCommands('poetry build\nif true; then\n  poetry publish\nfi\npoetry build && npm publish')).toEqual({
      run: `poetry build\nif true; then\n  ${REMOVED_COMMAND}\nfi\npoetry build && :`,
      removed: 2,
      commands: ['poetry publish', 'npm publish'],
    });
  });

  it('gives up when only setup would remain', () => {
    expect(stripPublishingCommands('pip install twine\ntwine upload dist/*')).toBeUndefined();
    expect(stripPublishingCommands('twine upload \\\n  dist/*')).toBeUndefined();
  });
});

describe('job names and runners', () => {
  it('finds publish words unless the name also names validation', () => {
    expect(publishWordInName('deploy')).toBe('deploy');
    expect(publishWordInName('publish_to_pypi', 'Publish')).toBe('publish');
    expect(publishWordInName('build-and-publish')).toBeUndefined();
    expect(publishWordInName('tests', 'Release tests')).toBeUndefined();
    expect(publishWordInName('unit')).toBeUndefined();
  });

  it('spots self-hosted and GPU runners', () => {
    expect(unavailableRunner(['self-hosted', 'linux'])).toBe('self-hosted');
    expect(unavailableRunner(['4-core-gpu'])).toBe('4-core-gpu');
    expect(unavailableRunner(['ubuntu-latest'])).toBeUndefined();
  });
});
