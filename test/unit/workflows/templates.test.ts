import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  createWorkflowLinter, defaultTemplatesDir, listTemplates, renderTemplate, renderTemplateText, templatePlaceholders, type WorkflowLinter,
} from '../../../src/workflows/index.js';
import { isAppError } from '../../../src/errors.js';

const SUPPORTED_ACTIONS = ['actions/checkout', 'actions/setup-python', 'actions/setup-node', 'actions/upload-artifact', 'actions/cache'];

const values = {
  python_version: '3.11',
  install_command: 'python -m pip install -e ".[test]" flake8 black mypy',
  test_command: "python -m pytest -q -k 'not slow'",
  source_dirs: 'src tests',
  lint_command: 'flake8',
  format_command: 'black --check --diff',
  typecheck_command: 'mypy',
};

interface Step { uses?: string; run?: string; with?: Record<string, unknown>; if?: string }
interface Workflow { on: Record<string, unknown>; permissions: unknown; jobs: Record<string, { 'timeout-minutes'?: number; steps: Step[] }> }

async function expectInvalid(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(isAppError(error) && error.kind === 'invalid_input' && error.code === code).toBe(true);
}

describe('workflow templates', () => {
  let linter: WorkflowLinter;
  beforeAll(async () => {
    linter = await createWorkflowLinter();
  });

  it('lists the templates', async () => {
    expect(await listTemplates()).toEqual(['python-ci', 'python-pytest']);
  });

  it('renders python-ci: standardized, lint clean, only supported actions, JUnit uploaded as junit', async () => {
    const text = await renderTemplate('python-ci', values);
    expect(linter(text, '.github/workflows/ci.yml')).toEqual([]);
    expect(text).not.toMatch(/(?<!\$)\{\{/);
    const workflow = parse(text) as Workflow;
    expect(workflow.on).toEqual({ push: { branches: ['ci-replay/**'] }, workflow_dispatch: null });
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(Object.keys(workflow.jobs)).toEqual(['test', 'lint', 'format', 'typecheck']);
    for (const job of Object.values(workflow.jobs)) {
      expect(job['timeout-minutes']).toBeGreaterThan(0);
      for (const step of job.steps) {
        if (step.uses !== undefined) expect(SUPPORTED_ACTIONS).toContain(step.uses.split('@')[0]);
      }
    }
    const test = workflow.jobs.test?.steps ?? [];
    expect(test.map((step) => step.run).filter(Boolean)).toEqual([values.install_command, `${values.test_command} --junitxml=test-results/junit.xml`]);
    expect(test.at(-1)).toMatchObject({ if: 'always()', uses: 'actions/upload-artifact@v4', with: { name: 'junit', path: 'test-results/junit.xml' } });
    expect(workflow.jobs.lint?.steps.at(-1)?.run).toBe('flake8 src tests');
    expect(workflow.jobs.format?.steps.at(-1)?.run).toBe('black --check --diff src tests');
    expect(workflow.jobs.typecheck?.steps.at(-1)?.run).toBe('mypy src tests');
    expect((workflow.jobs.test?.steps[1]?.with ?? {})['python-version']).toBe('3.11');
  });

  it('renders python-pytest with its three placeholders', async () => {
    const text = await renderTemplate('python-pytest', { python_version: '3.9', install_command: 'pip install .', test_command: 'pytest' });
    expect(linter(text, 'x.yml')).toEqual([]);
    expect(text).toContain("run: 'pytest --junitxml=test-results/junit.xml'");
  });

  it('renders every template lint clean, with only executor-supported actions', async () => {
    for (const name of await listTemplates()) {
      const source = await readFile(join(defaultTemplatesDir(), `${name}.yml`), 'utf8');
      const own = Object.fromEntries(templatePlaceholders(source).map((key) => [key, values[key as keyof typeof values] ?? 'x']));
      const text = await renderTemplate(name, own);
      expect(linter(text, `${name}.yml`)).toEqual([]);
      const workflow = parse(text) as Workflow;
      const uses = Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => (step.uses === undefined ? [] : [step.uses.split('@')[0] ?? ''])));
      expect(uses.filter((action) => !SUPPORTED_ACTIONS.includes(action))).toEqual([]);
    }
  });

  it('fails with invalid_input on unknown, missing or empty placeholders and unknown templates', async () => {
    await expectInvalid(renderTemplate('python-pytest', { ...values }), 'unknown_placeholder');
    await expectInvalid(renderTemplate('python-ci', { python_version: '3.11' }), 'missing_placeholder');
    await expectInvalid(renderTemplate('python-ci', { ...values, source_dirs: ' ' }), 'missing_placeholder');
    await expectInvalid(renderTemplate('no-such-template', {}), 'unknown_template');
    await expectInvalid(renderTemplate('../package', {}), 'invalid_template_name');
  });

  it('renders multi-line values as block scalars and leaves ${{ }} alone', () => {
    const text = renderTemplateText("a: '{{cmd}}'\nb: ${{ github.ref }}\n", { cmd: 'one\ntwo' });
    expect(text).toBe('a: |-\n  one\n  two\nb: ${{ github.ref }}\n');
    expect(templatePlaceholders('# {{ignored}}\nx: "{{ a }} {{b}}"\n')).toEqual(['a', 'b']);
  });

  it('reads templates from a given folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'templates-'));
    await writeFile(join(dir, 'mini.yml'), "x: '{{v}}'\n");
    expect(await renderTemplate('mini', { v: '1' }, { templatesDir: dir })).toBe("x: '1'\n");
  });
});
