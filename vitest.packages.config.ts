// npm run test:packages: the packed sandbox and client on each Node.js version
// (test/packages/packages.test.ts), apart from npm test because each install compiles a
// native module. Everything else as in vitest.config.ts.
import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({ ...base, test: { ...base.test, include: ['test/packages/**/*.test.ts'], exclude: configDefaults.exclude } });
