// Size limits that keep the code readable and easy to change: a file one screenful of
// topics, a function one idea. Only these rules: formatting and style are left to review.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'generated/**', 'dist/**', 'client/dist/**', 'test-results/**', '.tools/**'] },
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
);
