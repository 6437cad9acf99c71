// Size limits that keep the code readable and easy to change: a file one screenful of
// topics, a function one idea. Only these rules: formatting and style are left to review.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'generated/**', 'dist/**', 'client/dist/**', 'sandbox/dist/**', 'test-results/**', '.tools/**'] },
  {
    files: ['server/**/*.{ts,tsx}', 'console/**/*.{ts,tsx}', 'client/**/*.{ts,tsx}', 'scripts/**/*.{ts,tsx,mjs}', 'bench/**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  {
    // A migration is the record of what a database ran: it is never edited once landed, so
    // it is not split after the fact either.
    files: ['server/storage/migrations/**'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // Handlers never hold the database: they call a use case with the services, which reaches
    // storage itself (server/README.md). dependency-cruiser's `handlers-never-hold-storage`
    // forbids importing storage/; this forbids the other way in, through the services.
    files: ['server/handlers/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='services'][property.name='storage'], MemberExpression[object.name='services'][property.value='storage']",
          message: 'A handler never holds the database: call a use case with the services (server/README.md, handlers/).',
        },
        {
          selector: "VariableDeclarator[init.name='services'] > ObjectPattern > Property[key.name='storage'], Property[key.name='services'] > ObjectPattern > Property[key.name='storage']",
          message: 'A handler never holds the database: call a use case with the services (server/README.md, handlers/).',
        },
      ],
    },
  },
);
