/**
 * The import rules of server/ (server/README.md says why) and of the browser console (console/), checked by `npm run test:layers`,
 * a step of `npm test`. Tests and scripts may import anything; only cycles are checked there.
 * Type-only imports count (tsPreCompilationDeps): a type is a dependency too.
 */
/** Where Express and the validator may appear: the process, the composition root, HTTP and handlers. */
const httpSide = '^server/(app|main)\\.ts$|^server/(http|handlers)/';
/** Below the handlers: what knows nothing of HTTP. */
const below = '^server/(features|shared|storage)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'A cycle makes two modules one: neither can be understood, tested or moved alone.',
      severity: 'error',
      from: { path: '^(server|client|console|scripts|test|bench)/' },
      to: { circular: true },
    },
    {
      name: 'handlers-only-from-the-composition-root',
      comment:
        'A handler is an entry point: only app.ts and main.ts wire them (and handlers/ index files gather their surface). ' +
        'Anything else importing one would reach around the contract validation in front of it.',
      severity: 'error',
      from: { path: '^server/', pathNot: '^server/(app|main)\\.ts$|^server/handlers/' },
      to: { path: '^server/handlers/' },
    },
    {
      name: 'handlers-never-hold-storage',
      comment:
        'A handler reads the validated request, calls a use case with the services and shapes the answer: what is stored, ' +
        'and how, is the use case\'s business. A type counts too (a Db or a row type of storage/tables). ESLint ' +
        '(eslint.config.js) forbids the other way in, services.storage.',
      severity: 'error',
      from: { path: '^server/handlers/' },
      to: { path: '^server/storage/' },
    },
    {
      name: 'http-only-from-the-http-side',
      comment: 'server/http/ renders errors and reads requests: only the composition root and handlers use it.',
      severity: 'error',
      from: { path: '^server/', pathNot: httpSide },
      to: { path: '^server/http/' },
    },
    {
      name: 'express-only-on-the-http-side',
      comment:
        'Rules, repositories and shared helpers take plain values, so they run the same from a job, a test or another transport.',
      severity: 'error',
      from: { path: '^server/', pathNot: httpSide },
      to: { path: '^node_modules/(express|express-openapi-validator|@types/express)/' },
    },
    {
      name: 'nothing-below-reaches-up',
      comment: 'Features, shared helpers and storage never import the HTTP side, the process or the composition root.',
      severity: 'error',
      from: { path: below },
      to: { path: httpSide },
    },
    {
      name: 'job-registry-only-from-main',
      comment: 'server/jobs.ts imports every feature\'s jobs and timers: a feature importing it would close a cycle. Features take the Job and Timer shapes from services.ts.',
      severity: 'error',
      from: { path: '^server/', pathNot: '^server/main\\.ts$' },
      to: { path: '^server/jobs\\.ts$' },
    },
    {
      name: 'shared-knows-no-feature',
      comment: 'server/shared/ is what every feature may use; it may not depend on one, nor on storage, nor on what imports them (services.ts).',
      severity: 'error',
      from: { path: '^server/shared/' },
      to: { path: '^server/(features|storage)/|^server/services\\.ts$' },
    },
    {
      name: 'storage-knows-no-feature',
      comment: 'server/storage/ is the engines, the tables and the list positions: features build on it, not the other way.',
      severity: 'error',
      from: { path: '^server/storage/' },
      to: { path: '^server/(features|services\\.ts$)' },
    },
    {
      name: 'the-clock-knows-no-timer',
      comment:
        'The sandbox clock applies timers its features declare (services.ts Timer, gathered by server/jobs.ts): it imports none of them, ' +
        'so a new timer never touches features/clock. Only organizations, whose caller every request acts for, is known to it.',
      severity: 'error',
      from: { path: '^server/features/clock/' },
      to: { path: '^server/features/(?!clock/|organizations/)[^/]+/' },
    },
    {
      name: 'sql-only-in-repositories',
      comment:
        'SQL, row locks and the database drivers live in storage/ and each feature\'s repository.ts (or, when large, its <tables>Repository.ts files), ' +
        'so every query and lock of a table is in one place.',
      severity: 'error',
      from: { path: '^server/', pathNot: '^server/storage/|^server/features/[^/]+/([a-z]+R|r)epository\\.ts$|^server/features/v1/[^/]+/repository\\.ts$' },
      to: { path: '^node_modules/(kysely|pg|better-sqlite3|@types/pg|@types/better-sqlite3)/' },
    },
    {
      name: 'console-takes-only-contract-tables-from-server',
      comment:
        'console/ runs in the partner\'s browser (scripts/build-console.mjs bundles it for the browser) and reaches the sandbox only through client/: ' +
        'from server/ it may take only the contract\'s enum lists and the state machines\' tables (plain data, typed from generated/), never a use case, repository or handler.',
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^server/', pathNot: '^server/shared/contractEnums\\.ts$|^server/features/(v1/)?[^/]+/machine\\.ts$' },
    },
    {
      name: 'console-reaches-nothing-of-node',
      comment:
        'What the console imports, directly or not, ends up in its browser bundle: nothing it reaches may need Node, the database or the HTTP side of the server.',
      severity: 'error',
      from: { path: '^console/' },
      to: {
        path: '^node:|^(fs|path|crypto|http|https|net|os|url|child_process|events|stream)$|^server/(storage|http|handlers)/|^server/(app|main|jobs|services|config|logger)\\.ts$|^node_modules/(express|kysely|pg|better-sqlite3|pino)/',
        reachable: true,
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(generated|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
