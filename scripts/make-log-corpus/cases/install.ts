import type { CorpusCase } from '../case.js';

/** Builds local wheels (alpha 1.0 needs beta==1.0; beta 1.0 and 2.0) with nothing but the standard library. */
const makeWheels = `python3 - <<'PY'
import base64, hashlib, os, zipfile
os.makedirs("wheels", exist_ok=True)
def wheel(name, ver, requires=(), tag="py3-none-any"):
    dist = f"{name}-{ver}.dist-info"
    files = {
        f"{name}/__init__.py": f"VERSION = {ver!r}\\n",
        f"{dist}/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {ver}\\n" + "".join(f"Requires-Dist: {r}\\n" for r in requires),
        f"{dist}/WHEEL": f"Wheel-Version: 1.0\\nGenerator: corpus\\nRoot-Is-Purelib: true\\nTag: {tag}\\n",
    }
    record = ""
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record += f"{path},sha256={digest},{len(text.encode())}\\n"
    files[f"{dist}/RECORD"] = record + f"{dist}/RECORD,,\\n"
    with zipfile.ZipFile(f"wheels/{name}-{ver}-{tag}.whl", "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
wheel("alpha", "1.0", ["beta==1.0"])
wheel("beta", "1.0")
wheel("beta", "2.0")
wheel("gamma", "1.0", tag="cp27-cp27m-win32")
PY
python3 -m venv .venv`;

const badSdist = {
  'badpkg/setup.py': 'from setuptools import setup\n\nraise RuntimeError("libfoo-dev headers are required to build badpkg")\nsetup(name="badpkg", version="0.1")\n',
};

/** Dependency conflicts, missing modules, failed installs and invalid configuration. */
export const INSTALL_CASES: CorpusCase[] = [
  // Dependency Issues
  {
    slug: 'dependency-issues', name: 'pytest-module-not-found', labels: ['Dependency Issues'], job: 'test',
    files: { 'app/__init__.py': '', 'app/dates.py': 'import pendulum\n\n\ndef today():\n    return pendulum.today()\n', 'tests/test_dates.py': 'from app.dates import today\n\n\ndef test_today():\n    assert today()\n' },
    steps: [{ run: 'python3 -m pytest' }],
  },
  {
    slug: 'dependency-issues', name: 'script-module-not-found', labels: ['Dependency Issues'], job: 'build',
    files: { 'tools/gen.py': 'import sys\nfrom toolz import curry\n\nprint(curry, sys.argv)\n' },
    steps: [{ run: 'python3 tools/gen.py docs' }],
  },
  {
    slug: 'dependency-issues', name: 'pip-resolution-impossible', labels: ['Dependency Issues'], job: 'install',
    files: { 'requirements.txt': 'alpha==1.0\nbeta==2.0\n' }, setup: makeWheels,
    steps: [{ run: '.venv/bin/pip install --no-index --find-links wheels -r requirements.txt' }],
  },
  {
    slug: 'dependency-issues', name: 'pip-check-conflict', labels: ['Dependency Issues'], job: 'install',
    files: {}, setup: makeWheels,
    steps: [{ run: '.venv/bin/pip install --no-index --find-links wheels --no-deps alpha==1.0 beta==2.0\n.venv/bin/pip check' }],
  },
  {
    slug: 'dependency-issues', name: 'import-removed-name', labels: ['Dependency Issues'], job: 'test',
    files: { 'app/__init__.py': '', 'app/compat.py': 'from collections import Mapping\n', 'tests/test_compat.py': 'import app.compat\n\n\ndef test_import():\n    assert app.compat\n' },
    steps: [{ run: 'python3 -m pytest -q' }],
  },
  {
    slug: 'dependency-issues', name: 'node-cannot-find-module', labels: ['Dependency Issues'], job: 'build',
    files: { 'index.js': "const pad = require('left-pad');\nconsole.log(pad('1', 3));\n" },
    steps: [{ run: 'node index.js' }],
  },
  // Package Installation Error
  {
    slug: 'package-installation-error', name: 'pip-sdist-build-fails', labels: ['Package Installation Error'], job: 'install',
    files: badSdist, setup: 'python3 -m venv .venv',
    steps: [{ run: '.venv/bin/pip install --no-build-isolation ./badpkg' }],
  },
  {
    slug: 'package-installation-error', name: 'pip-no-matching-version', labels: ['Package Installation Error'], job: 'install',
    files: {}, setup: makeWheels,
    steps: [{ run: '.venv/bin/pip install --no-index --find-links wheels beta==9.9' }],
  },
  {
    slug: 'package-installation-error', name: 'pip-invalid-requirement', labels: ['Package Installation Error'], job: 'install',
    files: { 'requirements.txt': 'alpha=1.0\n' }, setup: 'python3 -m venv .venv',
    steps: [{ run: '.venv/bin/pip install -r requirements.txt' }],
  },
  {
    slug: 'package-installation-error', name: 'pip-unsupported-wheel', labels: ['Package Installation Error'], job: 'install',
    files: {}, setup: makeWheels,
    steps: [{ run: '.venv/bin/pip install wheels/gamma-1.0-cp27-cp27m-win32.whl' }],
  },
  {
    slug: 'package-installation-error', name: 'pip-index-unreachable', labels: ['Package Installation Error', 'Environment Error'], job: 'install',
    files: {}, setup: 'python3 -m venv .venv',
    steps: [{ run: '.venv/bin/pip install --retries 1 --timeout 1 nonexistent-pkg==1.0 --index-url http://127.0.0.1:9/simple' }],
  },
  {
    slug: 'package-installation-error', name: 'pip-requirements-sdist', labels: ['Package Installation Error'], job: 'install',
    files: { ...badSdist, 'requirements.txt': './badpkg\n' }, setup: 'python3 -m venv .venv',
    steps: [{ run: 'echo "Installing requirements"\n.venv/bin/pip install --no-build-isolation -r requirements.txt' }],
  },
  // Configuration Error
  {
    slug: 'configuration-error', name: 'pytest-unknown-addopts', labels: ['Configuration Error'], job: 'test',
    files: { 'pytest.ini': '[pytest]\naddopts = --cov=app --strict-markers\n', 'tests/test_a.py': 'def test_a():\n    pass\n' },
    steps: [{ run: 'python3 -m pytest' }],
  },
  {
    slug: 'configuration-error', name: 'pytest-broken-pyproject', labels: ['Configuration Error'], job: 'test',
    files: { 'pyproject.toml': '[tool.pytest.ini_options\naddopts = "-q"\n', 'tests/test_a.py': 'def test_a():\n    pass\n' },
    steps: [{ run: 'python3 -m pytest' }],
  },
  {
    slug: 'configuration-error', name: 'pip-not-installable', labels: ['Configuration Error'], job: 'install',
    files: { 'src/app.py': 'print(1)\n' }, setup: 'python3 -m venv .venv',
    steps: [{ run: '.venv/bin/pip install -e .' }],
  },
  {
    slug: 'configuration-error', name: 'pip-missing-requirements-file', labels: ['Configuration Error'], job: 'install',
    files: {}, setup: 'python3 -m venv .venv',
    steps: [{ run: '.venv/bin/pip install -r requirements-dev.txt' }],
  },
  {
    slug: 'configuration-error', name: 'tsc-unknown-option', labels: ['Configuration Error'], job: 'build',
    files: { 'src/a.ts': 'export const a = 1;\n', 'tsconfig.json': '{"compilerOptions":{"strictest":true,"noEmit":true},"include":["src"]}\n' },
    steps: [{ run: 'tsc -p tsconfig.json' }],
  },
  {
    slug: 'configuration-error', name: 'eslint-no-config', labels: ['Configuration Error'], job: 'lint',
    files: { 'src/a.js': 'const a = 1;\n' },
    steps: [{ run: 'eslint src' }],
  },
  {
    slug: 'configuration-error', name: 'toml-settings-load', labels: ['Configuration Error'], job: 'build',
    files: { 'settings.toml': '[server]\nport = = 8080\n', 'load.py': 'import tomllib\n\nwith open("settings.toml", "rb") as f:\n    print(tomllib.load(f))\n' },
    steps: [{ run: 'python3 load.py' }],
  },
];
