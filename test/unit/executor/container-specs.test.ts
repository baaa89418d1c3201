import { describe, expect, it } from 'vitest';
import { checkOptions, imageTag, parseContainerSpec, parseLabelImages, parseServices, repositoryName, RUNNER_RECIPE, runnerImageFor, servicePorts, splitOptions } from '../../../src/executor/container/index.js';

describe('container specs of the local runtime', () => {
  it('splits options like a shell and keeps only the allowed docker run options', () => {
    expect(splitOptions(`--health-cmd "redis-cli ping" --health-interval=10s -e 'A=b c'`)).toEqual(['--health-cmd', 'redis-cli ping', '--health-interval=10s', '-e', 'A=b c']);
    expect(checkOptions('--health-cmd "pg_isready -U postgres" --health-retries 5 --init')).toEqual({ args: ['--health-cmd', 'pg_isready -U postgres', '--health-retries', '5', '--init'] });
    expect(checkOptions('--privileged')).toEqual({ error: expect.stringContaining("option '--privileged' is not allowed") });
    expect(checkOptions('-v /:/host')).toEqual({ error: expect.stringContaining("option '-v' is not allowed") });
    expect(checkOptions('--network host')).toEqual({ error: expect.stringContaining("'--network'") });
    expect(checkOptions('--health-cmd')).toEqual({ error: "option '--health-cmd' needs a value" });
    expect(checkOptions('--health-cmd "unterminated')).toEqual({ error: 'unterminated " quote in options' });
  });

  it('reads container and services with expressions, ports and credentials', () => {
    const evaluate = (v: string): string => v.replace('${{ matrix.v }}', '7');
    expect(parseContainerSpec('python:3.11', evaluate)).toMatchObject({ image: 'python:3.11', env: {}, credentials: false });
    expect(parseContainerSpec({ image: '', env: {} }, evaluate)).toBeNull();
    const services = parseServices({ redis: { image: 'redis:${{ matrix.v }}', ports: ['6379:6379'], credentials: { username: 'u', password: 'p' }, env: { A: 1 } }, skipped: { image: '' } }, evaluate);
    expect(services).toEqual([{ id: 'redis', image: 'redis:7', env: { A: '1' }, options: '', ports: ['6379:6379'], volumes: [], credentials: true }]);
    expect(servicePorts(['6379:6379', '5432', '8080:80/tcp'])).toEqual({ ports: { '6379': '6379', '5432': '5432', '80': '80' }, unmapped: ['8080:80/tcp'] });
  });

  it('picks the runner image by label, setting, or the built recipe', () => {
    const labels = parseLabelImages('ubuntu-22.04=img:22, ubuntu-latest=img:latest');
    expect(labels).toEqual({ 'ubuntu-22.04': 'img:22', 'ubuntu-latest': 'img:latest' });
    expect(() => parseLabelImages('oops')).toThrow("invalid label image 'oops'");
    expect(runnerImageFor(['ubuntu-22.04'], { runnerImage: '', labelImages: labels })).toBe('img:22');
    expect(runnerImageFor(['self'], { runnerImage: 'mine:1', labelImages: labels })).toBe('mine:1');
    expect(runnerImageFor(['self'], { runnerImage: '', labelImages: {} })).toBe(imageTag(RUNNER_RECIPE));
    expect(imageTag(RUNNER_RECIPE)).toMatch(/^ci-replay\/runner:[0-9a-f]{12}$/);
    expect(repositoryName('docker.io/library/redis:7-alpine')).toBe('redis');
    expect(repositoryName('ghcr.io/o/redis@sha256:abc')).toBe('ghcr.io/o/redis');
  });
});
