// One PostgreSQL and one migrated template for the whole run (or the ones `npm test` already
// started, passed in the environment): each test file's server works on its own copy of it.
export { default } from '@vita-docs/test-server/global-setup';
