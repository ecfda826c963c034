import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';

/*
 * Boundaries (bulletproof-react): code flows shared → lib/components → features → app. A feature
 * imports another feature only through the modules that feature deliberately exposes, listed here
 * per side; anything else is a deep import and fails lint. Tests may reach further (fixtures).
 */
const webExposes = {
  appointments: ['components/upcoming-appointments'],
  auth: ['api/check-auth'],
  clinical: ['components/health-records-link'],
  emergency: [
    'api/get-qr-config',
    'api/qr-target',
    'api/unlock-qr-pin',
    'components/emergency-info-view',
    'components/family-qr-codes-tab',
    'components/member-qr-panel',
    'components/personal-qr-tab',
    'components/pin-input',
    'components/profile-qr-image',
    'components/qr-code-figure',
  ],
  'emergency-cards': ['components/emergency-card-downloads'],
  export: ['api/download-file', 'components/export-button'],
  files: ['components/recent-uploads', 'hooks/use-quick-upload'],
  import: ['components/data-portability-section'],
  'offline-cards': ['components/keep-cards-setting', 'components/saved-cards-link', 'lib/forget-offline-cards'],
  profiles: ['api/delete-family-member', 'api/get-family-member', 'components/add-family-member-modal', 'components/family-member-editor'],
  settings: ['api/get-mfa-status'],
  sharing: ['components/access-history-dialog', 'components/share-access-dialog', 'components/shared-with-me-section'],
  shl: ['components/shl-offer'],
};
const serverExposes = {
  clinical: ['allergy-codings', 'clinical-kinds', 'clinical.service'],
  emergency: ['emergency.service'],
  export: ['fhir-ips', 'kinchart-format'],
  files: ['storage-quota'],
  notifications: ['emergency-mail'],
  profiles: ['list-rows', 'profile.service'],
};
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `prefix` is how a feature's file climbs to the features folder ('../' on the server, '../../' on the web). */
const deepImport = (exposes, prefix) => {
  const open = Object.entries(exposes).flatMap(([feature, modules]) => modules.map((m) => `${escape(`${feature}/${m}`)}$`));
  return {
    regex: `^${escape(prefix)}(?!\\.\\./)(?!${open.join('|')})[^/]+/`,
    message: 'Import another feature only through a module it exposes (eslint.config.js webExposes / serverExposes).',
  };
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-ssr/**', '**/node_modules/**', 'data/**', 'bench/results/**', 'e2e/screenshots/**', 'e2e/.tmp/**', '**/*.cjs'] },
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
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
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
    files: ['apps/web/src/lib/**/*.{ts,tsx}', 'apps/web/src/components/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/features/**', '**/app/**'], message: 'lib and components come before features and app.' }] }] },
  },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/testing/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/app/**'], message: 'Features come before app.' }, deepImport(webExposes, '../../')] }],
    },
  },
  {
    files: ['apps/server/src/{common,lib,db,storage,plugins}/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/features/**'], message: 'Cross-cutting code comes before features.' }] }] },
  },
  {
    files: ['apps/server/src/features/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [deepImport(serverExposes, '../')] }] },
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
          "CallExpression[callee.property.name=/^(transaction|startTransaction|connection)$/][arguments.length=0]",
          "ImportDeclaration[source.value='kysely'] > ImportSpecifier[imported.name='sql']",
          "TaggedTemplateExpression[tag.name='sql']",
          'CallExpression[callee.property.name=/^(query|prepare)$/]',
        ].map((selector) => ({ selector, message: 'Only repositories speak SQL: move this into a *.repository.ts beside its owner (docs/architecture.md).' })),
      ],
    },
  },
  { files: ['eslint.config.js', 'vitest.config.ts'], extends: [tseslint.configs.disableTypeChecked] },
  // The scripts (bench, the e2e runner, build steps) are plain JavaScript: linted, without types.
  { files: ['**/*.mjs'], extends: [tseslint.configs.disableTypeChecked], languageOptions: { globals: { ...globals.node } } },
);
