/** Starts (or reuses, when the environment names them) the run's PostgreSQL and migrated template; returns the teardown. */
export default function setup(): Promise<() => Promise<void>>;
