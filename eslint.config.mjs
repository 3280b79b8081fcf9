import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { portalPlugin } from './eslint/no-literal-ui-string.mjs';

// What a component may import: browser-safe modules (lib/schedule, lib/client) and types.
const browserSafeOnly = {
  regex: '^@/lib/(?!schedule(/|$)|client/|events/types$|views/types$|systems/schemas$|booking-rules(/|$)|reservations/reasons$|residents/search$|reports/(period|compute|export-tables)$|closures/(period|schemas)$|i18n/(format|message|memo-translator)$)',
  allowTypeImports: true,
  message: 'Components import browser-safe modules only (lib/schedule, lib/booking-rules, lib/client, lib/residents/search, lib/reports period/compute/export-tables, lib/closures period/schemas, lib/i18n/format, message and memo-translator, and types).',
};
// What the sandbox may import of the portal's tree: shared/ only.
const sandboxOnlyShared = {
  regex: '^@/(?!shared/)',
  message: 'The sandbox imports nothing from the portal but shared/ (they meet over HTTP).',
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
    // The sandbox stands for the upstream service: it meets the portal only over HTTP. Of the
    // portal's tree it may import shared/ (dependency-free helpers both sides use), nothing else.
    files: ['sandbox/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [sandboxOnlyShared, { group: ['../*'], message: sandboxOnlyShared.message }] }],
    },
  },
  {
    // Inside sandbox/ subfolders (routes/) `../` is the sandbox itself; `../../` leaves it.
    files: ['sandbox/*/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [sandboxOnlyShared, { group: ['../../*'], message: sandboxOnlyShared.message }] }],
    },
  },
  {
    // shared/ is imported by the portal and the sandbox alike, so it imports neither.
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/(lib|app|components|sandbox|tests)(/|$)|\\.\\./)',
              message: 'shared/ holds dependency-free helpers of the portal and the sandbox: it imports nothing from lib, app, components, sandbox or tests.',
            },
          ],
        },
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
    // What people read comes from messages/*.json in their language (docs/using-the-portal.md, "Languages").
    files: ['app/**/*.tsx', 'components/**/*.tsx', 'components/**/*.ts'],
    ignores: ['**/*.test.tsx', '**/*.test.ts', 'app/sandbox/**'],
    plugins: { portal: portalPlugin },
    rules: { 'portal/no-literal-ui-string': 'error' },
  },
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
