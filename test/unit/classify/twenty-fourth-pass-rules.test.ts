import { describe, it } from 'vitest';
import { readsAs } from './tail-types.js';

/**
 * The twenty-fourth pass (issue 16) wrote no new rule: it re-typed one whose labels the tuning half's readers never
 * agreed with (`src-gradle-http-status`: 0 right, 6 wrong on tuning logs and tails). Gradle's HTTP status says which
 * type: 404/410 no such artifact, 401 no credentials; a 403 is not this rule's to type.
 */
describe('twenty-fourth pass: Gradle HTTP statuses', () => {
  it.each([
    ['an artifact that is not there', ["      > Could not GET 'https://repo.maven.apache.org/maven2/com/foo/bar/1.0/bar-1.0.pom'. Received status code 404 from server: Not Found"], ['Package Installation Error']],
    ['a registry that wants credentials', ["   > Could not GET 'https://maven.pkg.github.com/acme/lib/com/acme/lib/2.1/lib-2.1.pom'. Received status code 401 from server: Unauthorized"], ['Configuration Error']],
  ] as const)('%s', readsAs);

  it.each([
    ["Maven Central refusing the runner (tuning: LFDT-Lineth--lineth-monorepo--1)", ["Could not GET 'https://repo.maven.apache.org/maven2/de/undercouch/gradle-download-task/5.6.0/gradle-download-task-5.6.0.jar'. Received status code 403 from server: Forbidden"], []],
  ] as const)('not an install: %s', readsAs);
});
