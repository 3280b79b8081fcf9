import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { LAYERS } from './eslint/layers.mjs';
import { portalPlugin } from './eslint/no-literal-ui-string.mjs';

// What a component may import: browser-safe modules (lib/schedule, lib/client) and types.
const browserSafeOnly = {
  regex: '^@/lib/(?!schedule(/|$)|client/|events/types$|views/types$|systems/schemas$|booking-rules(/|$)|reservations/(reasons|types)$|residents/search$|reports/(period|compute|export-tables|portfolio)$|closures/(period|schemas)$|i18n/(config|format|message|memo-translator)$)',
  allowTypeImports: true,
  message: 'Components import browser-safe modules only (lib/schedule, lib/booking-rules, lib/client, lib/reservations reasons and types, lib/residents/search, lib/reports period/compute/export-tables/portfolio, lib/closures period/schemas, lib/i18n config, format, message and memo-translator, and types).',
};
// What the sandbox may import of the portal's tree: shared/ only.
const sandboxOnlyShared = {
  regex: '^@/(?!shared/)',
  message: 'The sandbox imports nothing from the portal but shared/ (they meet over HTTP).',
};
const testHelpersOnlyInTests = { group: ['@/tests/*'], message: 'tests/ holds test helpers; only tests import them.' };

// Layers (eslint/layers.mjs; docs/architecture-layers.md), lowest first:
//   kernel → platform → infrastructure → errors → records → operations → views → edge → ui → entry.
// A module imports its own layer and those below it, never one above; import-x/no-cycle forbids
// circles, inside a layer too. Tests, scripts, e2e/ and bench/ stand above all layers.
const layerZones = LAYERS.flatMap((layer, index) => {
  const above = LAYERS.slice(index + 1);
  if (above.length === 0) return [];
  return [
    {
      target: layer.paths,
      from: above.flatMap((l) => l.paths),
      message: `${layer.name} (${layer.paths.join(', ')}) imports nothing from a layer above it: ${above.map((l) => l.name).join(', ')} (eslint/layers.mjs).`,
    },
  ];
});
// The database layer knows no domain: lib/db imports lib/db, lib/env.ts and lib/singleton.ts only.
const databaseZone = {
  target: 'lib/db',
  from: 'lib',
  except: ['./db', './env.ts', './singleton.ts'],
  message: 'lib/db imports nothing of another lib/ folder (types the schema needs are defined in the schema).',
};

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
    // Layers and circles (see layerZones above). Tests may reach across layers (fixtures); they are leaves.
    files: ['lib/**', 'app/**', 'components/**', 'i18n/**', 'shared/**', 'sandbox/**', 'instrumentation.ts', 'proxy.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      // Which files import-x parses to follow imports (its default is JavaScript only).
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, databaseZone] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
