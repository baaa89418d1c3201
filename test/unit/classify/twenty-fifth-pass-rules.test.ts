import { describe, it } from 'vitest';
import { readsAs } from './tail-types.js';

/**
 * Rules from the twenty-fifth pass's tuning misses (issue 16); the lines are shaped after them
 * (tuning: beyond-immersion--bannou-service--1 and --2, Jeroen-G--Explorer--1).
 */
describe('twenty-fifth pass: rules from real logs', () => {
  it.each([
    ["a container's entrypoint that may not chmod its mounted config", ["filebeat-1       | chmod: changing permissions of '/usr/share/filebeat/filebeat.yml': Operation not permitted"], ['Environment Error']],
    ["PHP's allocator out of memory (phpstan)", ['mmap() failed: [12] Cannot allocate memory', 'Fatal error: Out of memory (allocated 8638173184 bytes) (tried to allocate 17179869192 bytes) in phar:///w/vendor/phpstan/phpstan/phpstan.phar/vendor/nette/di/src/DI/DependencyChecker.php on line 47'], ['Environment Error']],
    ['chown refused', ["chown: changing ownership of '/var/lib/postgresql/data': Operation not permitted"], ['Environment Error']],
  ] as const)('%s', readsAs);

  it.each([
    [
      "Docker Compose's warning for a variable it interpolates as blank",
      ['time="2025-09-16T05:33:20Z" level=warning msg="The \\"SERVICE_DOMAIN\\" variable is not set. Defaulting to a blank string."'],
      [],
    ],
    ['a variable that is required and missing still is', ['Error: environment variable DATABASE_URL is not set'], ['Configuration Error']],
  ] as const)('only the right types: %s', readsAs);
});
