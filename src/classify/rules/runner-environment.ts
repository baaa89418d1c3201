import { ERROR_TYPES, type ErrorType } from '../../domain/error-types.js';
import { NETWORK_YIELDS } from './environment.js';
import type { Rule } from './rule.js';

/** Every type but Environment Error: a shell exit code says less than any diagnostic of the same step. */
const EXPLAINED_BY_ANY_OTHER: ErrorType[] = ERROR_TYPES.filter((type) => type !== 'Environment Error');

/** The runner cannot do the job: tools missing from PATH, permissions, the Docker socket, GPUs, time limits. */
export const RUNNER_ENVIRONMENT_RULES: Rule[] = [
  {
    id: 'tool-not-on-path',
    type: 'Environment Error',
    tool: 'runner',
    linePattern: /executable file not found in \$PATH|vswhere\.exe not found|Browser was not found at the configured executablePath|Flutter SDK not found|Unable to locate executable file: |is not recognized as an internal or external command|The term '[^']+' is not recognized as (?:a|the) name of a cmdlet, function, script file, or (?:executable|operable) program|^Command not found: \S+$|The (\S+) command could not be found\.|\bspawn (?!\S+ EACCES)\S+ ENOENT\b|Could not find (?:a )?(?:Java|JDK|Android SDK|Xcode) (?:installation|home)|browserType\.launch: Executable doesn't exist at |The program '[^']+' is required but it could not be(?: found)?$/,
    example: { command: 'task build', lines: ['task: [build] "go": executable file not found in $PATH'] },
  },
  {
    id: 'runner-permissions',
    type: 'Environment Error',
    tool: 'runner',
    linePattern: /^(?:\S+: )?(?:line \d+: )?(?:sh: \d+: )?\S+: Permission denied$|permission denied while trying to connect to the Docker daemon socket|Got permission denied while trying to connect to the Docker daemon|EACCES: permission denied|^PermissionError: \[Errno 13\] Permission denied: |^fatal: could not create (?:work tree dir|leading directories of) '[^']+': Permission denied$|unable to append to '[^']+': Permission denied$|\b(?:chmod|chown|chgrp): changing (?:permissions|ownership|group) of '[^']+': Operation not permitted$/,
    example: { command: 'npm run tauri build', lines: ['sh: 1: tauri: Permission denied'] },
  },
  {
    id: 'runner-gpu-missing',
    type: 'Environment Error',
    tool: 'runner',
    linePattern: /no CUDA-capable device is detected|Found no NVIDIA driver on your system|NVIDIA-SMI has failed|CUDA driver version is insufficient|A WebGL context could not be created|Error creating WebGL context/,
    example: { command: 'python train.py', lines: ['RuntimeError: Found no NVIDIA driver on your system.'] },
  },
  {
    id: 'runner-time-limit',
    type: 'Environment Error',
    tool: 'runner',
    linePattern: /^(?:##\[error\])?Timeout of \d+ms hit|^(?:##\[error\])?The action '[^']*' has timed out after \d+ minutes|has exceeded the maximum execution time of \d+ minutes|ran longer than the maximum time of \d+ minutes|^Error: The runner has received a shutdown signal/,
    example: { command: 'docker/build-push-action@v6', lines: ['##[error]Timeout of 3600000ms hit'] },
  },
  {
    id: 'remote-service-error',
    type: 'Environment Error',
    tool: 'network',
    linePattern: /\b50[0234] (?:Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out)\b|returned error ?: ?50[0234]\b|Received status code 50[0234] from server|Response status code does not indicate success: (?:429|50[0234])\b|^Failed to resolve action download info\. Error: (?:Service Unavailable|Internal Server Error|Bad Gateway|Gateway Time-?out)|Unknown internal error occurred|toomanyrequests: |HTTP Error 429|Rate limit exceeded/,
    yieldsTo: NETWORK_YIELDS,
    example: { command: 'yarn install --frozen-lockfile', lines: ['error Error: https://registry.yarnpkg.com/arg/-/arg-4.1.3.tgz: Request failed "500 Internal Server Error"'] },
  },
  {
    // The shell's own code for a command it could not find; whatever else the step printed explains it better.
    id: 'exit-127-command-not-found',
    type: 'Environment Error',
    tool: 'shell',
    linePattern: /^(?:##\[error\])?Process completed with exit code 127\.|^make(?:\[\d+\])?: \*\*\* \[[^\]]+\] Error 127$/,
    yieldsTo: EXPLAINED_BY_ANY_OTHER,
    example: { command: './scripts/build.sh', lines: ['##[error]Process completed with exit code 127.'] },
  },
  {
    // 126: the shell found the command but could not run it (not executable, permission denied, wrong format).
    id: 'exit-126-cannot-execute',
    type: 'Environment Error',
    tool: 'shell',
    linePattern: /^(?:##\[error\])?Process completed with exit code 126\.|^make(?:\[\d+\])?: \*\*\* \[[^\]]+\] Error 126$/,
    yieldsTo: EXPLAINED_BY_ANY_OTHER,
    example: { command: './gradlew build', lines: ['/home/runner/work/_temp/1b2c.sh: line 1: ./gradlew: Permission denied', '##[error]Process completed with exit code 126.'] },
  },
  {
    // actions/cache with `fail-on-cache-miss`: the entry a previous job saved could not be restored.
    id: 'cache-miss-required',
    type: 'Environment Error',
    tool: 'actions/cache',
    linePattern: /Failed to restore cache entry\. Exiting as fail-on-cache-miss is set\./,
    example: { command: 'actions/cache@v5', lines: ['##[error]Failed to restore cache entry. Exiting as fail-on-cache-miss is set. Input key: build-22.12.0-a4e610e5'] },
  },
  {
    // Other CI services' limits (CircleCI's no-output time-out, Azure Pipelines without a hosted agent), a service's
    // rate limiter.
    id: 'ci-service-limits',
    type: 'Environment Error',
    tool: 'runner',
    linePattern: /^Too long with no output \(exceeded [\dhms.]+\)|No hosted parallelism has been purchased or granted|\brate-limiter failed the request\b/,
    example: { command: 'go test -v -race ./...', lines: ['Too long with no output (exceeded 10m0s): context deadline exceeded'] },
  },
  {
    // Maven's own line when its JVM ran out of heap (`[ERROR] Java heap space -> [Help 1]`): the runner's memory.
    id: 'maven-jvm-heap',
    type: 'Environment Error',
    tool: 'maven',
    linePattern: /^(?:\[ERROR\]|Error:) +Java heap space\b/,
    example: { command: 'mvn -B verify', lines: ['Error:  Java heap space -> [Help 1]'] },
  },
];
