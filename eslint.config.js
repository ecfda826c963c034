import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';
import pluginLingui from 'eslint-plugin-lingui';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import fs from 'node:fs';
import path from 'node:path';
import { kinchart } from './lint/feature-cycles.js';

/*
 * Boundaries (bulletproof-react): code flows shared → lib/components → features → app. A feature
 * imports another feature only through the modules that feature deliberately exposes, listed here
 * per side; anything else is a deep import and fails lint — tests and dynamic `import()` included.
 * Tests and `testing/` folders may also use another feature's `testing/` folder (its fixtures).
 */
const webExposes = {
  appointments: ['components/upcoming-appointments'],
  auth: ['api/check-auth', 'api/get-mfa-status', 'components/reauth-prompt'],
  clinical: ['components/health-records-link'],
  emergency: [
    'api/qr-target',
    'api/unlock-qr-pin',
    'components/emergency-info-view',
    'components/family-qr-codes-tab',
    'components/member-qr-panel',
    'components/personal-qr-tab',
    'components/profile-qr-image',
    'components/qr-code-figure',
  ],
  export: ['api/download-file', 'components/export-button'],
  files: ['api/get-files', 'components/recent-uploads', 'hooks/use-quick-upload', 'utils/record-list'],
  import: ['components/data-portability-section'],
  medications: ['components/medication-schedule', 'components/today-doses'],
  'offline-cards': ['components/keep-cards-setting', 'lib/forget-offline-cards'],
  profiles: ['api/delete-family-member', 'api/get-family-member', 'components/add-family-member-modal', 'components/family-member-editor'],
  reminders: [
    'api/push-subscriptions',
    'components/other-push-devices',
    'components/push-device-setting',
    'components/reminder-settings-dialog',
  ],
  sharing: ['components/access-history-dialog', 'components/share-access-dialog', 'components/shared-with-me-section'],
  search: ['components/highlighted-snippet'],
  shl: ['components/shl-offer'],
};
const serverExposes = {
  allergies: ['allergies.service', 'allergy-entries'],
  appointments: ['appointment.service', 'ics'],
  calendar: ['calendar-transfer'],
  care: ['care-transfer', 'dose.service'],
  clinical: ['clinical-kinds', 'clinical.service'],
  emergency: ['emergency.service'],
  export: ['fhir-ips', 'kinchart-format'],
  files: ['storage-quota'],
  labs: ['lab-values'],
  notifications: ['emergency-mail'],
  profiles: ['list-rows', 'profile.service'],
};

const ROOT = import.meta.dirname;
/** `from` may not be imported by files under `target` (paths from the repository root). */
const zone = (target, from, message, except = []) => ({ target, from, except, message });
/** An exposed module as `except` wants it: relative to the features folder, with its extension. */
const exposedFile = (featuresDir, feature, module) => {
  const found = ['.ts', '.tsx']
    .map((ext) => `${feature}/${module}${ext}`)
    .find((file) => fs.existsSync(path.join(ROOT, featuresDir, file)));
  if (!found) throw new Error(`eslint.config.js: ${featuresDir}/${feature} exposes ${module}, which does not exist.`);
  return `./${found}`;
};
/**
 * One zone per feature: it may import its own files and the modules other features expose (and,
 * for tests and `testing/` folders, `withTesting`, every feature's `testing/` folder).
 */
const featureZones = (featuresDir, exposes, withTesting) => {
  const features = fs
    .readdirSync(path.join(ROOT, featuresDir), { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? [entry.name] : []));
  return features.map((feature) =>
    zone(
      `${featuresDir}/${feature}`,
      featuresDir,
      'Import another feature only through a module it exposes (eslint.config.js webExposes / serverExposes).',
      [
        `./${feature}`,
        ...Object.entries(exposes)
          .filter(([other]) => other !== feature)
          .flatMap(([other, modules]) => modules.map((module) => exposedFile(featuresDir, other, module))),
        ...(withTesting ? features.map((other) => `./${other}/testing`) : []),
      ],
    ),
  );
};
/** Every boundary of both sides, through import-x (resolved paths: static, `export … from` and `import()` alike). */
const boundaries = (withTesting) => [
  zone(
    ['apps/web/src/lib', 'apps/web/src/components'],
    ['apps/web/src/features', 'apps/web/src/app'],
    'lib and components come before features and app.',
  ),
  zone('apps/web/src/features', 'apps/web/src/app', 'Features come before app.'),
  ...featureZones('apps/web/src/features', webExposes, withTesting),
  zone(
    ['apps/server/src/common', 'apps/server/src/lib', 'apps/server/src/db', 'apps/server/src/storage', 'apps/server/src/plugins'],
    'apps/server/src/features',
    'Cross-cutting code comes before features.',
  ),
  ...featureZones('apps/server/src/features', serverExposes, withTesting),
];
const TESTS = ['**/*.test.{ts,tsx}', '**/testing/**/*.{ts,tsx}'];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-ssr/**',
      '**/node_modules/**',
      'data/**',
      'bench/results/**',
      'e2e/screenshots/**',
      'e2e/.tmp/**',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // No regular expression may backtrack super-linearly: several run on user input (DESIGN §3).
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      'regexp/no-misleading-capturing-group': 'error',
    },
  },
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // No import cycles, anywhere: sources, tests, testing/ folders, scripts; a dynamic import() counts (DESIGN §5).
    // Type-only imports are erased at build time and do not count.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/shared/tsconfig.json', 'apps/server/tsconfig.json', 'apps/web/tsconfig.json', 'e2e/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The hand-written part of the service worker (Web Push, issue 32): plain JavaScript the build copies as is.
    files: ['apps/web/public/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { projectService: false }, globals: { ...globals.serviceworker } },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // Tests read JSON answers (`res.json()` is any) and assert on them; the assertions are the check.
    files: ['**/test/**/*.{ts,tsx}', '**/*.test.{ts,tsx}', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Boundaries (see the top of this file), for every file of both apps; tests also reach `testing/` folders.
    files: ['apps/web/**/*.{ts,tsx}', 'apps/server/**/*.ts'],
    plugins: { 'import-x': importX },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: boundaries(false) }] },
  },
  {
    files: TESTS.map((glob) => `apps/*/${glob}`),
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: boundaries(true) }] },
  },
  {
    // Features form no cycle either, counting every import (lint/feature-cycles.js).
    files: ['apps/*/src/features/**/*.{ts,tsx}'],
    plugins: { kinchart },
    rules: { 'kinchart/no-feature-cycle': 'error' },
  },
  {
    // Only repositories speak SQL (docs/architecture.md, "Where SQL lives"): a Kysely statement, the
    // `sql` tag, a transaction opened on the database or a driver's own statement outside a
    // `*.repository.ts` fails lint. The exceptions: migrations, and the connection's set-up in db/database.ts.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.repository.ts', 'apps/server/src/db/migrations/**', 'apps/server/src/db/database.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]',
          'CallExpression[callee.property.name=/^(transaction|startTransaction|connection)$/][arguments.length=0]',
          "ImportDeclaration[source.value='kysely'] > ImportSpecifier[imported.name='sql']",
          "TaggedTemplateExpression[tag.name='sql']",
          'CallExpression[callee.property.name=/^(query|prepare)$/]',
        ].map((selector) => ({
          selector,
          message: 'Only repositories speak SQL: move this into a *.repository.ts beside its owner (docs/architecture.md).',
        })),
      ],
    },
  },
  /*
   * Issue 35, DESIGN §15: every text a person sees comes from the catalog. A string that reads as
   * words (a capital, or a space) in the web app's code fails lint unless it is inside t, msg,
   * <Trans> or <Plural>, or goes where no person reads it (class names, ids, URLs, keys, test ids).
   */
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/testing/**', 'apps/web/src/**/__mocks__/**', '**/*.generated.ts'],
    plugins: { lingui: pluginLingui },
    rules: {
      ...pluginLingui.configs['flat/recommended'].rules,
      'lingui/no-unlocalized-strings': [
        'error',
        {
          useTsTypes: true,
          ignore: [
            // One "word" without a capital: keys, class names, routes, units of code ('primary', '/api/x').
            '^(?![A-Z])\\S+$',
            // CONSTANTS, single capitals, numbers and symbols.
            '^[A-Z0-9_\\-:./#%+()]+$',
            // Tailwind class lists and other space-separated code words without a capital.
            '^[a-z0-9:/\\[\\]().%_#!-]+( [a-z0-9:/\\[\\]().%_#!-]+)+$',
          ],
          ignoreNames: [
            { regex: { pattern: 'className|classes|class$|style', flags: 'i' } },
            { regex: { pattern: '^[A-Z0-9_]+$' } },
            { regex: { pattern: '(Id|Key|Url|Path|Href|Type|Mime|Pattern|Format|Locale|testid)$', flags: 'i' } },
            'src',
            'srcSet',
            'href',
            'to',
            'type',
            'id',
            'name',
            'htmlFor',
            'form',
            'autoComplete',
            'inputMode',
            'accept',
            'rel',
            'target',
            'role',
            'method',
            'encType',
            'lang',
            'dir',
            'key',
            'mode',
            'pattern',
            'viewBox',
            'd',
            'fill',
            'stroke',
            'strokeWidth',
            'strokeLinecap',
            'strokeLinejoin',
            'fillRule',
            'clipRule',
            'xmlns',
            'variant',
            'size',
            'sizes',
            'queryKey',
            'mutationKey',
            'displayName',
            'data-testid',
            'capture',
            'enterKeyHint',
            'path',
            'element',
          ],
          ignoreFunctions: [
            'Error',
            'TypeError',
            'RangeError',
            'console.*',
            '*.addEventListener',
            '*.removeEventListener',
            '*.postMessage',
            '*.getElementById',
            '*.setRequestHeader',
            '*.querySelector',
            '*.querySelectorAll',
            '*.closest',
            '*.includes',
            '*.indexOf',
            '*.endsWith',
            '*.startsWith',
            '*.get',
            '*.set',
            '*.has',
            '*.delete',
            '*.append',
            '*.getItem',
            '*.setItem',
            '*.removeItem',
            'fetch',
            'api.*',
            'URL',
            'URLSearchParams',
            'new URL',
            'matchMedia',
            'window.matchMedia',
            '*.createElement',
            '*.setAttribute',
            '*.getAttribute',
            '*.removeAttribute',
            '*.toLocaleDateString',
            '*.toLocaleTimeString',
            'Intl.*',
            'z.*',
            'invariant',
            'new Intl.*',
            '*.replace',
            '*.split',
            '*.join',
            'structuredClone',
            'JSON.parse',
            'Symbol',
            'useQuery',
            'useMutation',
            'queryOptions',
            '*.invalidateQueries',
            '*.setQueryData',
            '*.getQueryData',
            '*.removeQueries',
            '*.cancelQueries',
            'navigate',
            'useNavigate',
            'createContext',
            'lazy',
            'import',
            '*.matches',
            '*.format',
            'describe',
            'it',
            'test',
          ],
        },
      ],
    },
  },
  { files: ['eslint.config.js', 'lint/**/*.js', 'vitest.config.ts'], extends: [tseslint.configs.disableTypeChecked] },
  // The scripts (bench, the e2e runner, build steps) are plain JavaScript: linted, without types.
  { files: ['**/*.mjs'], extends: [tseslint.configs.disableTypeChecked], languageOptions: { globals: { ...globals.node } } },
);
