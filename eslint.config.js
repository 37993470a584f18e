import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import checkFile from 'eslint-plugin-check-file';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';

const serverOnly = [
  '**/server/**',
  '**/*.service',
  '**/*.service.ts',
  '**/*.table',
  '**/*.table.ts',
  '**/*.routes',
  '**/*.routes.ts',
  'node:*',
  'fastify',
  'drizzle-orm',
  'drizzle-orm/*',
  'pg',
  'sharp',
];
const browserOnly = ['**/web/**', '**/ui/**', 'react', 'react-dom', '@mantine/*'];
// Forms resolve through src/web/lib/form-resolver.ts: the schemas' English messages in the reader's language (decision 065).
const ownResolver = {
  group: ['@hookform/resolvers/zod'],
  message: 'Import zodResolver from src/web/lib/form-resolver (messages in the reader’s language, decision 065).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'drizzle/**', 'data/**', 'coverage/**', '.tmp/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'check-file': checkFile },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'check-file/filename-naming-convention': [
        'error',
        { 'src/**/*.{ts,tsx}': 'KEBAB_CASE', 'e2e/**/*.ts': 'KEBAB_CASE', 'bench/**/*.ts': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { 'src/**/': 'KEBAB_CASE' }],
    },
  },
  // No import cycles in the source: a module's imports finish loading before it runs (decision 073).
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
    // A dynamic import() is a lazy chunk loaded after both modules ran: not a cycle at load time.
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: true }] },
  },
  {
    files: ['src/**/*.tsx', 'src/web/**/*.ts', 'src/features/**/ui/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // The identity tables are written in one place (issue 40): organisations, users and invitations change only
  // through src/features/auth/identity-writes.ts; the areas keep who may do what.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/features/auth/identity-writes.ts', '**/*.test.ts', 'src/server/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(insert|update|delete)$/][arguments.0.name=/^(users|organizations|invitations)$/]',
          message: 'Organisations, users and invitations are written through src/features/auth/identity-writes.ts only.',
        },
      ],
    },
  },
  // Lint zones (DESIGN 3): browser code never imports server code, and the reverse.
  {
    files: ['src/web/**', 'src/shared/**', 'src/features/**/ui/**', 'src/features/**/*.schema.ts'],
    // Tests, and the harness that runs the real app under the UI tests (decision 085), may reach the server.
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'src/web/test/real-api.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: serverOnly, message: 'Browser code must not import server code.' }, ownResolver] }] },
  },
  {
    files: ['src/web/lib/form-resolver.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: serverOnly, message: 'Browser code must not import server code.' }] }] },
  },
  {
    files: ['src/server/**', 'src/features/**/*.service.ts', 'src/features/**/*.routes.ts', 'src/features/**/*.table.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: browserOnly, message: 'Server code must not import browser code.' }] }] },
  },
  // A feature's UI imports another feature's UI only through its *-select.tsx pickers.
  { files: ['src/features/**/ui/**'], ignores: ['**/*.test.tsx'], rules: featureUiImports() },
  // Quotations and purchase orders are one kind of screen (commercial documents): their list and drawer live
  // once in commercial-documents/ui, written to be parameterised by kind, and only these two features use them.
  {
    files: ['src/features/quotations/ui/**', 'src/features/purchase-orders/ui/**'],
    ignores: ['**/*.test.tsx'],
    rules: featureUiImports(['!../../commercial-documents/ui/*']),
  },
  // The asset drawer shows the asset's meters: meters/ui/asset-meters-panel is its one entry (decision 031).
  {
    files: ['src/features/assets/ui/**'],
    ignores: ['**/*.test.tsx'],
    rules: featureUiImports(['!../../meters/ui/asset-meters-panel']),
  },
  // The work order drawer's Follow button (decision 074): that one file of the notifications' UI.
  { files: ['src/features/work-orders/ui/**'], ignores: ['**/*.test.tsx'], rules: featureUiImports(['!../../notifications/ui/follow-button']) },
  // The calendar opens the work order drawer in place over its entries (decision 033): that one file, nothing else.
  { files: ['src/features/calendar/ui/**'], ignores: ['**/*.test.tsx'], rules: featureUiImports(['!../../work-orders/ui/work-order-drawer']) },
  // The insights screen opens the scheduled reports' drawer (decision 075): that one file.
  { files: ['src/features/analytics/ui/**'], ignores: ['**/*.test.tsx'], rules: featureUiImports(['!../../insights-reports/ui/schedule-report']) },
  // Formatting is Prettier's (`npm run format`): no lint rule argues with it.
  prettier,
);

function featureUiImports(allowed = []) {
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: serverOnly, message: 'Browser code must not import server code.' },
          ownResolver,
          {
            group: ['../../*/ui/*', '!../../*/ui/*-select', '!../../*/ui/*-select.tsx', ...allowed],
            message: "Import another feature's UI only through its *-select.tsx picker.",
          },
        ],
      },
    ],
  };
}
