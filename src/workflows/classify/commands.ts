/** What run scripts do: publishing and repository-writing commands, installs, validation commands. */
import type { StepPurpose } from './types.js';

export const RUN_RULES: ReadonlyArray<readonly [StepPurpose, string, RegExp]> = [
  ['publish', 'publishes a package', /\btwine\s+upload\b|\b(?:poetry|flit|hatch|uv|pdm|npm|yarn|pnpm|cargo)\s+publish\b|\bmaturin\s+(?:publish|upload)\b|\banaconda\b[^\n]*\supload\b|\bgem\s+push\b|\bdotnet\s+nuget\s+push\b|\bsnapcraft\s+(?:upload|push)\b|\bdevpi\s+upload\b/],
  ['publish', 'pushes a container image', /\b(?:docker|podman)\s+push\b|\bdocker\s+(?:buildx\s+)?(?:build|bake)\b[^\n]*\s--push\b|\bdocker\s+buildx\s+imagetools\s+create\b|\bdocker\s+manifest\s+push\b|\bdocker[-\s]compose\s+push\b/],
  ['publish', 'uploads to an external service', /\bsmokeshow\s+upload\b|\bcrowdin\s+(?:upload|push)\b|\btx\s+push\b/],
  ['deploy', 'deploys to a cloud service or uploads to an object store', /\bgcloud\s+(?:run\s+deploy|app\s+deploy|functions\s+deploy|builds\s+submit)\b|\bdatasette\s+publish\b|\baws\s+s3\s+(?:cp|sync|mv)\b|\bgsutil\s+(?:-m\s+)?(?:cp|rsync|mv)\b|\baz\s+storage\s+blob\s+upload|\b(?:huggingface-cli|hf)\s+upload\b|\b(?:vercel|netlify|firebase|flyctl)\s+deploy\b/],
  ['release', 'creates a release', /\bgh\s+release\s+(?:create|upload|edit|delete)\b|\bsemantic-release\s+(?:publish|version)\b/],
  ['pages', 'deploys GitHub Pages', /\bmkdocs\s+gh-deploy\b|\bghp-import\b|\bmike\s+deploy\b[^\n]*--push\b/],
  ['notification', 'sends a notification', /hooks\.slack\.com|discord(?:app)?\.com\/api\/webhooks|api\.telegram\.org/],
  ['notification', 'calls a URL held in a secret (a webhook)', /\b(?:curl|http|https|wget)\b[^\n]*\$\{\{\s*secrets\.(?!GITHUB_TOKEN\b)/i],
  ['repo-write', 'pushes to the repository', /\bgit\s+push\b/],
  ['repo-write', 'writes issues or pull requests', /\bgh\s+(?:issue|pr)\s+(?:create|edit|close|comment|merge|review|reopen|lock)\b|\bgh\s+label\s+(?:create|edit|delete)\b|\bgh\s+repo\s+fork\b|\bgh\s+workflow\s+run\b|\bgh\s+api\b[^\n]*(?:-X|--method)\s*(?:POST|PATCH|PUT|DELETE)\b|(?:--|\s)make-pr\b|\btx\s+pull\b/],
];

export const COVERAGE_UPLOAD = /codecov\.io|^\s*(?:\.\/)?codecov(?:\s|$)|^\s*coveralls(?:\s|$)|^\s*python\d?(?:\.\d+)?\s+-m\s+(?:codecov|coveralls)\b|\bcodacy\b[^\n]*\b(?:report|final)\b/m;

const INSTALL_LINE = new RegExp([
  String.raw`^(?:python\d?(?:\.\d+)?\s+(?:-\S+\s+)*-m\s+)?pip3?\s+install\b`,
  String.raw`^uv\s+(?:pip\s+install|sync|venv|python\s+install|tool\s+install|lock)\b`,
  String.raw`^poetry\s+(?:install|config|self|lock)\b`,
  String.raw`^(?:pdm|pipenv|hatch\s+env)\s+(?:install|create|sync)\b`,
  String.raw`^(?:sudo\s+)?apt(?:-get)?\s+(?:-\S+\s+)*(?:update|install|upgrade)\b`,
  String.raw`^(?:npm|yarn|pnpm)\s+(?:ci|install)\b`,
  String.raw`^(?:conda|mamba|micromamba|pipx|brew|choco|pacman)\s+(?:-\S+\s+)*install\b`,
  String.raw`^(?:echo|export|cd|set|curl|wget|mkdir|ls|df|which|git\s+config|pip\s+(?:list|freeze|--version)|python\d?(?:\.\d+)?\s+(?:--version|-V)|uv\s+(?:--version|pip\s+(?:list|freeze)))\b`,
].join('|'));

function logicalLines(run: string): string[] {
  return run
    .replaceAll(/\\\s*\n/g, ' ')
    .split(/\n|&&|\|\||;/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Whether a run script only installs dependencies or prepares the environment. */
export function isInstallOnly(run: string): boolean {
  const lines = logicalLines(run);
  return lines.length > 0 && lines.every((line) => INSTALL_LINE.test(line));
}

const TOOLS = String.raw`(?:py\.?test|tox|nox|mypy|ruff|flake8|pylint|black|isort|pyright|pyrefly|ty|pre-commit|prek|unittest|doctest|coverage[\s:]+(?:run|report|erase)|sphinx-build|mkdocs\s+build|twine\s+check|check-manifest|cibuildwheel|maturin|bandit|codespell|cog|asv|cmake|ctest|waf|invoke|jest|eslint|tsc|mocha|vitest|golangci-lint|conda-build|pyinstaller|playwright|pip\s+check|-m\s+build|setup\.py|nextest|clippy|rustfmt)`;
const VALIDATION_LINE = new RegExp([
  String.raw`(?:^|[\s"'(=;&|])${TOOLS}(?=[\s"'),;:&|]|$)`,
  String.raw`^(?:cargo|go)\s+(?:test|build|clippy|fmt|check|doc|nextest|audit|bench|vet|run)\b`,
  String.raw`^(?:npm|yarn|pnpm|bun)\s+(?:test|run|build|lint|exec)\b`,
  String.raw`(?:^|\s)(?:hatch|poetry|pdm|uv)\s+(?:test|build|fmt|check)\b`,
  String.raw`^(?:sudo\s+)?(?:docker|podman)\s+(?:build|run|compose)\b`,
  String.raw`\bgit\s+diff\b[^\n]*--(?:exit-code|check)\b`,
  String.raw`(?:^|[\s;&|(])make(?:\s+(?:-[A-Za-z]\s*\S+|--\S+|\w+=\S+))*(?:\s*$|\s+\S*(?:test|lint|check|build|doc|html|quality|style|format|fmt|type|verify|validate|ci|sdist|wheel|dist|all|audit|coverage|bench)\S*)`,
  String.raw`(?:^|[\s/])(?:run[-_])?(?:tests?|lint|checks?|typecheck|types|format|fmt|style|verify|validate|ci|build|docs?|integration)(?:[-_.][\w.-]*)?(?=[\s/:]|$)`,
].join('|'));

/** Whether a run script runs a test, lint, type check, docs or package build (not a bot or upload script). */
export function runsValidation(run: string): boolean {
  return logicalLines(run).some((line) => !INSTALL_LINE.test(line) && VALIDATION_LINE.test(line));
}

export function isPublishingCommand(command: string): boolean {
  return RUN_RULES.some(([purpose, , pattern]) => purpose !== 'repo-write' && purpose !== 'notification' && pattern.test(command))
    || COVERAGE_UPLOAD.test(command);
}

/** What replaces a publishing command removed from a run script (keeps `if`/`fi` blocks valid). */
export const REMOVED_COMMAND = ': # publishing command removed by ci-replay';

/**
 * Removes the publishing commands of a run script that mixes build and publish, keeping the rest.
 * Returns undefined when nothing but setup would remain (then the whole step goes).
 */
export function stripPublishingCommands(run: string): { run: string; removed: number; commands: string[] } | undefined {
  const logical: string[] = [];
  for (const line of run.split('\n')) {
    const last = logical.at(-1);
    if (last !== undefined && /\\\s*$/.test(last)) logical[logical.length - 1] = `${last}\n${line}`;
    else logical.push(line);
  }
  let removed = 0;
  const commands: string[] = [];
  const rewritten = logical.map((line) => {
    if (!isPublishingCommand(line)) return line;
    const indent = /^\s*/.exec(line)?.[0] ?? '';
    const parts = line.trim().split(/\s*&&\s*/);
    if (parts.length > 1) {
      const kept = parts.map((part) => {
        if (!isPublishingCommand(part)) return part;
        commands.push(part.trim());
        return ':';
      });
      removed += parts.length - kept.filter((part) => part !== ':').length;
      return `${indent}${kept.join(' && ')}`;
    }
    removed += 1;
    commands.push(line.trim());
    return `${indent}${REMOVED_COMMAND}`;
  });
  const remaining = rewritten.filter((line) => !line.includes(REMOVED_COMMAND)).join('\n').replaceAll(/&& :(?=\s|$)/g, '');
  const work = remaining.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('#') && line.trim() !== ':');
  if (removed === 0 || !work || isInstallOnly(remaining) || !runsValidation(remaining)) return undefined;
  return { run: rewritten.join('\n'), removed, commands };
}
