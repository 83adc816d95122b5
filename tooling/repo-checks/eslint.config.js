import js from '@eslint/js';
import { nodeScripts } from '@vita-docs/eslint-config';

// The repository's own Node scripts: these checks and the test runner one folder up.
export default [{ ignores: ['node_modules/**'] }, js.configs.recommended, ...nodeScripts];
