import tseslint from 'typescript-eslint';

const owner = (group, folder) => ({ group, message: `only ${folder} may import this (one owner per external system)` });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/db/generated/**', 'coverage/**', 'examples/**/project/**', '.data/**', '.tmp*/**', 'bench/.work/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'use string unions, not enums' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/github/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          owner(['@octokit/*', 'probot', 'probot/*'], 'src/github/'),
          owner(['@prisma/*', '**/db/generated/**'], 'src/db/'),
          owner(['bullmq'], 'src/queue/'),
        ],
      }],
    },
  },
  {
    files: ['src/github/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [owner(['@prisma/*', '**/db/generated/**'], 'src/db/'), owner(['bullmq'], 'src/queue/')],
      }],
    },
  },
  {
    files: ['src/db/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [owner(['@octokit/*', 'probot', 'probot/*'], 'src/github/'), owner(['bullmq'], 'src/queue/')],
      }],
    },
  },
  {
    files: ['src/queue/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [owner(['@octokit/*', 'probot', 'probot/*'], 'src/github/'), owner(['@prisma/*', '**/db/generated/**'], 'src/db/')],
      }],
    },
  },
);
