import type { CorpusCase } from '../case.js';

const pkg = (body: string): Record<string, string> => ({ 'app/__init__.py': '', 'app/core.py': body });

/** Linting, formatting, type checking and docstring failures of Python tools. */
export const QUALITY_CASES: CorpusCase[] = [
  // Code Linting
  {
    slug: 'code-linting', name: 'flake8-unused-import', labels: ['Code Linting'], job: 'lint',
    files: pkg('import os\nimport sys\n\n\ndef add(a, b):\n    return a + b\n'),
    steps: [{ run: 'flake8 app' }],
  },
  {
    slug: 'code-linting', name: 'flake8-style', labels: ['Code Linting'], job: 'lint',
    files: pkg('def add(a,b):\n    x=1\n    return a+b # comment\nclass Thing: pass\n'),
    steps: [{ run: 'pip --version\nflake8 --max-line-length 100 .' }],
  },
  {
    slug: 'code-linting', name: 'ruff-check', labels: ['Code Linting'], job: 'lint',
    files: pkg('import json\nfrom os import *\n\n\ndef f(x):\n    if x == None:\n        return json\n    l = 1\n    return l\n'),
    steps: [{ run: 'ruff check --output-format concise .' }],
  },
  {
    // The same project in ruff's default (full, rustc-style) output.
    slug: 'code-linting', name: 'ruff-full', labels: ['Code Linting'], job: 'lint',
    files: pkg('import json\nfrom os import *\n\n\ndef f(x):\n    if x == None:\n        return json\n    l = 1\n    return l\n'),
    steps: [{ run: 'ruff check .' }],
  },
  {
    slug: 'code-linting', name: 'pylint-messages', labels: ['Code Linting'], job: 'lint',
    files: pkg('"""Core."""\n\n\ndef add(a, b):\n    """Add."""\n    unused = 3\n    return a + b\n\n\ndef Bad_Name():\n    """Bad."""\n    global X\n    X = 1\n'),
    steps: [{ run: 'pylint --persistent=n app' }],
  },
  {
    slug: 'code-linting', name: 'ruff-after-install', labels: ['Code Linting'], job: 'lint',
    files: { ...pkg('import os, sys\n\n\ndef f():\n    try:\n        return 1\n    except:\n        pass\n'), 'requirements-dev.txt': '' },
    setup: 'python3 -m venv .venv',
    steps: [{ run: '.venv/bin/pip install --no-index -r requirements-dev.txt' }, { name: 'Lint', run: 'ruff check --output-format concise app' }],
  },
  {
    slug: 'code-linting', name: 'flake8-via-make', labels: ['Code Linting'], job: 'lint',
    files: { ...pkg('import re\n\ndef f():\n    return  1\n'), Makefile: 'lint:\n\tflake8 app\n' },
    steps: [{ run: 'make lint' }],
  },
  // Code Formatting
  {
    slug: 'code-formatting', name: 'black-check', labels: ['Code Formatting'], job: 'format',
    files: pkg("def add( a,b ):\n    return a+b\nx = {  'a':1 }\n"),
    steps: [{ run: 'black --check app' }],
  },
  {
    slug: 'code-formatting', name: 'black-check-diff', labels: ['Code Formatting'], job: 'format',
    files: pkg("x = [1,2,\n  3]\n"),
    steps: [{ run: 'black --check --diff .' }],
  },
  {
    slug: 'code-formatting', name: 'isort-check', labels: ['Code Formatting'], job: 'format',
    files: pkg('import sys\nimport os\nfrom collections import OrderedDict, defaultdict\nimport abc\n\nprint(os, sys, abc, OrderedDict, defaultdict)\n'),
    steps: [{ run: 'isort --check-only app' }],
  },
  {
    slug: 'code-formatting', name: 'ruff-format-check', labels: ['Code Formatting'], job: 'format',
    files: pkg("def f(a,b):\n  return {'a':a,'b':b}\n"),
    steps: [{ run: 'ruff format --check .' }],
  },
  {
    slug: 'code-formatting', name: 'isort-then-black', labels: ['Code Formatting'], job: 'format',
    files: pkg('import os\nimport abc\n\nprint(os,abc)\n'),
    steps: [{ run: 'isort --check-only --diff app && black --check app' }],
  },
  // Type Checking
  {
    slug: 'type-checking', name: 'mypy-return-value', labels: ['Type Checking'], job: 'typecheck',
    files: pkg('def add(a: int, b: int) -> int:\n    return str(a + b)\n\n\nx: int = "three"\n'),
    steps: [{ run: 'mypy app' }],
  },
  {
    slug: 'type-checking', name: 'mypy-strict', labels: ['Type Checking'], job: 'typecheck',
    files: pkg('def add(a, b):\n    return a + b\n\n\ndef g(x: list[int]) -> None:\n    x.append("s")\n'),
    steps: [{ run: 'mypy --strict app' }],
  },
  {
    slug: 'type-checking', name: 'pyright-errors', labels: ['Type Checking'], job: 'typecheck',
    files: pkg('def add(a: int, b: int) -> int:\n    return str(a + b)\n\n\nadd("1", 2)\n'),
    steps: [{ run: 'pyright app' }],
  },
  {
    slug: 'type-checking', name: 'pyright-attribute', labels: ['Type Checking'], job: 'typecheck',
    files: pkg('class A:\n    x: int = 1\n\n\nprint(A().y)\nval: str = A().x\n'),
    steps: [{ run: 'pyright' }],
  },
  {
    slug: 'type-checking', name: 'tsc-type-error', labels: ['Type Checking'], job: 'typecheck',
    files: { 'src/a.ts': "export const n: number = 'x';\nexport function f(s: string): number {\n  return s;\n}\n", 'tsconfig.json': '{"compilerOptions":{"strict":true,"noEmit":true},"include":["src"]}\n' },
    steps: [{ run: 'tsc -p tsconfig.json' }],
  },
  // Doc/Docstring
  {
    slug: 'doc-docstring', name: 'pydocstyle-missing', labels: ['Doc/Docstring'], job: 'docs',
    files: pkg('def add(a, b):\n    return a + b\n\n\nclass Thing:\n    def run(self):\n        """does things"""\n'),
    steps: [{ run: 'pydocstyle app' }],
  },
  {
    slug: 'doc-docstring', name: 'pydocstyle-convention', labels: ['Doc/Docstring'], job: 'docs',
    files: pkg('"""Core module."""\n\n\ndef add(a, b):\n    """add two numbers\n    """\n    return a + b\n'),
    steps: [{ run: 'pydocstyle --convention=numpy app/core.py' }],
  },
  {
    slug: 'doc-docstring', name: 'ruff-docstring-codes', labels: ['Doc/Docstring'], job: 'docs',
    files: pkg('def add(a, b):\n    return a + b\n'),
    steps: [{ run: 'ruff check --select D --output-format concise app' }],
  },
  {
    slug: 'doc-docstring', name: 'pydocstyle-then-ok', labels: ['Doc/Docstring'], job: 'docs',
    files: pkg('"""Module."""\n\n\ndef f():\n    """Return one"""\n    return 1\n'),
    steps: [{ run: 'python3 -c "import app.core"' }, { name: 'Check docstrings', run: 'pydocstyle --select=D400,D401 app' }],
  },
  {
    slug: 'doc-docstring', name: 'pydocstyle-package', labels: ['Doc/Docstring'], job: 'docs',
    files: {
      'app/__init__.py': '',
      'app/io.py': "def read(path):\n    '''Read.'''\n    return open(path).read()\n",
      'app/util.py': 'class Cache(object):\n\n    """A cache"""\n\n    def get(self, key):\n        return None\n',
    },
    steps: [{ run: 'echo "Checking docstrings"\npydocstyle --count app' }],
  },
];
