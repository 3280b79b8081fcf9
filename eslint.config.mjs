import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// What a component may import: browser-safe modules (lib/schedule, lib/client) and types.
const browserSafeOnly = {
  regex: '^@/lib/(?!schedule(/|$)|client/|events/types$|views/types$|systems/schemas$|reservations/(reasons|rules)(/|$))',
  allowTypeImports: true,
  message: 'Components import browser-safe modules only (lib/schedule, lib/reservations/rules, lib/client, and types).',
};
const testHelpersOnlyInTests = { group: ['@/tests/*'], message: 'tests/ holds test helpers; only tests import them.' };

export default tseslint.config(
  {
    ignores: ['.next/**', 'node_modules/**', '.data/**', 'next-env.d.ts', 'bench/**', 'test-results/**', 'playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@next/next': nextPlugin, 'react-hooks': reactHooks },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      // Settings come from lib/env.ts only.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings from lib/env.ts.' },
      ],
    },
  },
  {
    // The sandbox stands for the upstream service: it meets the portal only over HTTP.
    files: ['sandbox/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/*', '../*'], message: 'The sandbox imports nothing from the portal; they meet over HTTP.' }] },
      ],
    },
  },
  {
    // Test helpers live in tests/ and are for tests only.
    files: ['lib/**', 'app/**', 'instrumentation.ts', 'proxy.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [testHelpersOnlyInTests] }],
    },
  },
  {
    // Components run in the browser (or render its HTML): no server module, no secret, no upstream.
    files: ['components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            browserSafeOnly,
            testHelpersOnlyInTests,
          ],
        },
      ],
    },
  },
  {
    // A component's own test may use the shared test helpers.
    files: ['components/**/*.test.tsx', 'components/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            browserSafeOnly,
          ],
        },
      ],
    },
  },
  {
    // Test files, tooling and the standalone sandbox entry point may read their own variables.
    files: ['**/*.test.ts', 'e2e/**', 'scripts/**', 'sandbox/server.ts', '*.config.*', 'tests/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
