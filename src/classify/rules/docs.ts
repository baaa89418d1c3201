import type { Rule } from './rule.js';

/** Documentation builds and docstring checks beyond Sphinx and pydocstyle (see python-quality.ts). */
export const DOC_RULES: Rule[] = [
  {
    // Docusaurus's broken-link check, and ansible-doc refusing a module's DOCUMENTATION block (ansible-test sanity).
    id: 'docs-site-and-module-docs',
    type: 'Doc/Docstring',
    tool: 'docs',
    linePattern: /Docusaurus found broken (?:links|anchors)!|^Error: Unable to build website for locale |Missing documentation \(or could not parse documentation\)/,
    example: { command: 'npm run build', lines: ['Error: Unable to build website for locale en.', '[cause]: Error: Docusaurus found broken links!'] },
  },
  {
    id: 'doc-build-failed',
    type: 'Doc/Docstring',
    tool: 'docs',
    linePattern: /^Aborted with \d+ warnings? in strict mode|^Error: (?:mkdocs|Documenter)|^(?:┌ )?Error: no doc found for reference '|`makedocs` encountered (?:an )?errors?|^error: could not document `|^error: unresolved link to `|(?:^|[^=\w])rustdoc::[\w_]+|^\[error\] (?:TypeDoc|Failed to (?:find|resolve))|^\[warning\] .* (?:does not exist|is not exported|has no documentation)|^Found \d+ errors? and \d+ warnings?$|maven-javadoc-plugin|(?:^|\s)\S+\.java:\d+: error: (?:reference not found|bad use of|unknown tag|malformed HTML)|javadoc: error|numpydoc validation|^\S+:\d+:[\w.]* (?:GL|SS|PR|RT|YD|EX|SA)\d\d |\b[1-9]\d{0,6} docstrings? (?:missing|failed)/,
    context: { after: 1 },
    example: { command: 'cargo doc --no-deps', lines: ['error: unresolved link to `Parser::parse`'] },
  },
  {
    // Documenter's check that every docstring is in the manual, and pkgdown's that every topic is in the reference
    // index.
    id: 'doc-coverage-check',
    type: 'Doc/Docstring',
    tool: 'docs',
    linePattern: /^┌ Error: \d+ docstrings? not included in the manual|^\s*Error in check_missing_topics\(|All topics must be included in reference index|Topics missing from index: |\b\d{1,6} topics? missing from index: |└─pkgdown:::check_missing_topics\(/,
    context: { after: 2 },
    example: { command: 'julia --project=docs docs/make.jl', lines: ['┌ Error: 3 docstrings not included in the manual:'] },
  },
  {
    id: 'doctest-failed',
    type: 'Doc/Docstring',
    tool: 'doctest',
    linePattern: /^\*{3} DocTestRunner\.merge: |^\d+ items? had failures:|^Failed example:$|^Got(?::| nothing)$|^\*\*\*Test Failed\*\*\* \d+ failures?\./,
    context: { after: 3 },
    example: { command: 'python -m doctest README.md', lines: ['Failed example:'] },
  },
  {
    id: 'link-check-failed',
    type: 'Doc/Docstring',
    tool: 'link-checker',
    linePattern: /^\s*ERROR: \d+ dead links? found!|^\s*\[✖\] https?:\/\/\S+ → Status: [45]\d\d|^\(\s*\S+: line\s+\d+\) broken\s+https?:|^🚫 \d+ errors? \(Errors? in \d+ files?\)|^Issues found in \d+ inputs?\. Find details below\.|^(?:\S+ )?\[(?:[45]\d\d|ERR|TIMEOUT)\] https?:\/\/\S+ \| (?:Failed|Network error|Timeout)|^For the [\w >]+ check, the following failures were found:|HTML-Proofer found \d+ failures?!/,
    example: { command: 'npx markdown-link-check README.md', lines: ['ERROR: 2 dead links found!'] },
  },
  {
    // Sphinx cannot import an extension conf.py names: the docs environment lacks its package.
    id: 'sphinx-extension-missing',
    type: 'Dependency Issues',
    tool: 'sphinx',
    linePattern: /Could not import extension \S+ \(exception: (?:No module named |cannot import name )/,
    example: { command: 'sphinx-build -W docs docs/_build', lines: ['Extension error:', 'Could not import extension sphinxarg.ext (exception: No module named sphinxarg.ext)'] },
  },
  {
    // Sphinx's warnings without the line number docutils-diagnostic reads (`index.rst: WARNING: toctree contains ref
    // to nonexisting file`, after the docname being read) in a failed step that printed nothing else a rule knows: a
    // build run with -W or Read the Docs' fail_on_warning.
    id: 'sphinx-warnings',
    type: 'Doc/Docstring',
    tool: 'sphinx',
    linePattern: /(?:^|\s)\S+\.(?:rst|md|txt|ipynb): WARNING: /,
    fallback: true,
    example: { command: 'make html', lines: ["generated/gwa_to_slit-0.7.0 /w/docs/transforms/index.rst: WARNING: toctree contains ref to nonexisting file 'generated/gwa_to_slit-0.7.0'"] },
  },
  {
    // doxygen's warnings about the documentation itself, in a failed step with nothing else a rule reads (a doc job
    // that fails on warnings).
    id: 'doxygen-warnings',
    type: 'Doc/Docstring',
    tool: 'doxygen',
    linePattern: /^\S+:\d+: warning: (?:documented symbol '[^']+' was not declared or defined|Member \S+ \(\w+\) of \w+ \S+ is not documented|argument '[^']+' of command @param is not found|unable to resolve reference to )/,
    fallback: true,
    example: { command: './scripts/check-doxygen.sh', lines: ["/w/src/config.cpp:26: warning: documented symbol 'void CConfig::Apply' was not declared or defined."] },
  },
];
