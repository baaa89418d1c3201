import { describe, expect, it } from 'vitest';
import { classifyJob } from '../../../src/classify/index.js';
import { stripTaskPrefixes } from '../../../src/classify/task-prefix.js';
import { tailTypes } from './tail-types.js';

/**
 * Rules from the tenth pass's tuning-half misses (issue 16), as benchmark-style tails, and the lines that must not
 * label.
 */

describe('tenth pass: rules from real logs', () => {
  it.each([
    ['conda: a package missing from the target environment (indented, as setup-miniconda prints it)', ['  PackagesNotFoundError: The following packages are missing from the target environment:', '    - defaults/linux-64::conda==22.11.1=py310h06a4308_4'], ['Package Installation Error']],
    ["bash's parse error of a step script, quoted indented", ['    e08742c6-7c79-42f1-8745-7acba0104a6e.sh: line 8: syntax error: unexpected end of file'], ['Syntax Error']],
    ["curl's no-response code from a health check", ['⚠️ Health check attempt 5/5 failed (HTTP 000000)', '❌ Health check failed after 5 attempts'], ['Environment Error']],
    ['sshpass with a password the host rejects', ["Warning: Permanently added '[203.0.113.7]:65002' (ED25519) to the list of known hosts.", 'Permission denied, please try again.'], ['Configuration Error']],
    ['a signing certificate with the wrong password', ['security: SecKeychainItemImport: The user name or passphrase you entered is not correct.'], ['Configuration Error']],
    ["App Store Connect's API refusing the key", ['STATUS: 401', '\t\t"code": "NOT_AUTHORIZED",', '\t\t"title": "Authentication credentials are missing or invalid.",'], ['Configuration Error']],
    ['an App Store upload whose build number was not raised', ['[Application Loader Error Output]: The provided entity includes an attribute with a value that has already been used (-19232) The bundle version must be higher than the previously uploaded version.'], ['Configuration Error']],
    ['`pub get` where Flutter is needed', ["Because openfoodfacts depends on flutter_test any from sdk which doesn't exist (the Flutter SDK is not available), version solving failed.", 'Flutter users should run `flutter pub get` instead of `pub get`.'], ['Configuration Error', 'Dependency Issues']],
    ["neon's missing connection string", ['Error: No database connection string was provided to `neon()`. Perhaps an environment variable has not been set?'], ['Configuration Error']],
    ["Supabase's missing URL and key", ["Error: @supabase/ssr: Your project's URL and API key are required to create a Supabase client!"], ['Configuration Error']],
    ['secrets a script finds invalid', ['   This means the DVC_GDRIVE_CREDENTIALS or DVC_GDRIVE_TOKEN secrets provided to the environment are invalid or incomplete.'], ['Configuration Error']],
  ] as const)('%s', async (_what, lines, types) => {
    expect(await tailTypes([...lines])).toEqual([...types]);
  });

  it("npm publish's 404 is the registry refusing the upload, not a package that could not be installed", async () => {
    const publish = ['npm notice total files:   7', 'npm notice ', 'npm ERR! code E404', 'npm ERR! 404 Not Found - PUT https://registry.npmjs.org/test-automated-publish-packge - Not found', "npm ERR! 404  'test-automated-publish-packge@1.0.2' is not in the npm registry."];
    expect(await tailTypes(publish)).toEqual(['Configuration Error']);
    // The same code from an install is still an installation error.
    expect(await tailTypes(['npm ERR! code E404', "npm ERR! 404 Not Found - GET https://registry.npmjs.org/left-padd - Not found"])).toEqual(['Package Installation Error']);
  });

  it("swiftc's errors as xcbeautify renders them for GitHub Actions, behind fastlane's prefix", async () => {
    const log = [
      '[08:38:44]: ▸ [ReadFileTool] Copy arm64-apple-macos.swiftmodule -> ReadFileTool.swiftmodule',
      "[08:38:44]: ▸ ::error file=/Users/runner/work/cmd/cmd/app/Sources/ChatTabViewModel.swift,line=344,col=68::missing argument for parameter 'projectRoot' in call",
      '[08:38:44]: ▸         messages.append(.init(content: [], role: .user))',
      '[08:38:45]: Error building the application - see the log above',
    ];
    const result = await classifyJob({ log: [...log, 'Process completed with exit code 1.'].join('\n'), jobConclusion: 'failure', learnedFallback: false });
    expect(result.labels.map((label) => label.type)).toEqual(['Type Checking']);
    expect(result.labels[0]?.findings[0]).toMatchObject({ path: '/Users/runner/work/cmd/cmd/app/Sources/ChatTabViewModel.swift', line: 344, column: 68 });
    // Once is a tool's own bracketed time, not fastlane's prefix.
    expect(stripTaskPrefixes([{ line: 1, text: '[08:38:44]: ▸ x' }]).map((l) => l.text)).toEqual(['[08:38:44]: ▸ x']);
  });

  it('HTTP codes with zeros in them are not a missing response', async () => {
    expect(await tailTypes(['Response: HTTP 200', 'HTTP 404 after 1000 ms', 'Error: assertion failed'])).toEqual([]);
    expect(await tailTypes(['Deployment check failed with HTTP 000.'])).toEqual(['Environment Error']);
  });
});
