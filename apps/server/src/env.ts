/**
 * The only place that reads `process.env`. Every variable is parsed and validated here; a bad value
 * stops the server at start with a message naming the variable.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod/mini';
import './zod-english.js';

const bool = z.pipe(
  z.enum(['true', 'false', '1', '0']),
  z.transform((v: 'true' | 'false' | '1' | '0') => v === 'true' || v === '1'),
);
const positiveInt = z.coerce.number().check(z.int(), z.positive());
/** `schema`, or `value` when the variable is not set. */
const or = z._default;

/** TRUST_PROXY as the server uses it: false, a hop count, or the proxies' addresses. */
function trustProxy(v: string, ctx: z.core.ParsePayload): false | number | string {
  if (v === 'false' || v === '0') return false as const;
  if (/^\d+$/.test(v)) return Number(v);
  if (/^[0-9a-fA-F:./]+(\s*,\s*[0-9a-fA-F:./]+)*$/.test(v)) return v;
  ctx.issues.push({
    code: 'custom',
    input: v,
    message:
      'must be false, a number of proxy hops, or a comma list of proxy addresses/CIDRs (trusting every X-Forwarded-For would let anyone fake their IP)',
  });
  return z.NEVER;
}

/** STORAGE_KEY: 32 bytes in base64. */
function storageKey(v: string, ctx: z.core.ParsePayload): Buffer {
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) ? Buffer.from(v, 'base64') : Buffer.alloc(0);
  if (key.length === 32) return key;
  ctx.issues.push({
    code: 'custom',
    input: v,
    message: 'must be 32 random bytes in base64 (make one with: openssl rand -base64 32)',
  });
  return z.NEVER;
}

const EnvSchema = z.object({
  PORT: or(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65535)), 3000),
  HOST: or(z.string().check(z.minLength(1)), '0.0.0.0'),
  DATA_DIR: or(z.string().check(z.minLength(1)), './.data'),
  DATABASE_URL: z.optional(
    z.string().check(z.regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' })),
  ),
  DEPENDENCY_TIMEOUT_MS: or(positiveInt.check(z.maximum(60_000)), 2_000),
  DRAIN_SECONDS: or(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(60)), 0),
  PUBLIC_URL: z.optional(z.url({ error: 'must be an absolute http(s) URL' })),
  SESSION_SECRET: z.optional(z.string().check(z.minLength(32, { error: 'must be at least 32 characters' }))),
  SESSION_IDLE_MINUTES: or(positiveInt, 30),
  SESSION_MAX_HOURS: or(positiveInt, 12),
  COOKIE_SECURE: or(z.enum(['auto', 'true', 'false']), 'auto'),
  TRUST_PROXY: z.pipe(or(z.string(), 'false'), z.transform(trustProxy)),
  SMTP_URL: z.optional(
    z.string().check(z.regex(/^smtps?:\/\//, { error: 'must be an smtp:// or smtps:// URL' })),
  ),
  DEV_OUTBOX: or(bool, true),
  MAIL_FROM: or(z.string().check(z.minLength(3)), 'VITA Documents <no-reply@localhost>'),
  ADMIN_EMAIL: z.optional(z.email({ error: 'must be an email address' })),
  ADMIN_PIN: z.optional(z.string().check(z.minLength(8, { error: 'must be at least 8 characters' }))),
  MAX_UPLOAD_MB: or(positiveInt.check(z.maximum(1024)), 25),
  PASSKEYS_REQUIRED_FOR_STAFF: or(bool, false),
  STORAGE_KEY: z.optional(z.pipe(z.string().check(z.trim()), z.transform(storageKey))),
  STORAGE_KEY_FILE: z.optional(z.string().check(z.minLength(1))),
  XDG_CONFIG_HOME: z.optional(z.string().check(z.minLength(1))),
  HOME: z.optional(z.string().check(z.minLength(1))),
  S3_ENDPOINT: z.optional(z.url({ error: 'must be an absolute URL' })),
  S3_BUCKET: z.optional(z.string().check(z.minLength(3))),
  S3_REGION: or(z.string().check(z.minLength(1)), 'us-east-1'),
  S3_ACCESS_KEY_ID: z.optional(z.string()),
  S3_SECRET_ACCESS_KEY: z.optional(z.string()),
  S3_FORCE_PATH_STYLE: or(bool, true),
  S3_SSE: z.optional(z.enum(['AES256', 'aws:kms'], { error: 'must be AES256 or aws:kms' })),
  S3_SSE_KMS_KEY_ID: z.optional(z.string().check(z.minLength(1))),
  WEB_DIST: z.optional(z.string()),
  PROGRAMME_URL: z.optional(z.url({ error: 'must be an absolute URL' })),
  LOG_LEVEL: or(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
});

/** Object-store settings when S3-compatible storage is configured. */
export interface S3Config {
  /** e.g. `http://127.0.0.1:9000` for MinIO; omitted for AWS itself. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Omitted: the SDK's default credential chain (instance role, env, profile). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `bucket` in the path instead of the host name (MinIO and most self-hosted servers). */
  forcePathStyle: boolean;
  /** Server-side encryption asked for on every write (S3_SSE, S3_SSE_KMS_KEY_ID); none when omitted. */
  sse?: { algorithm: 'AES256' } | { algorithm: 'aws:kms'; kmsKeyId: string | undefined };
}

/**
 * Where the local store's master key comes from: `STORAGE_KEY` itself, or a key file. The default
 * file (under the user's config directory) is created on first start; a named one must exist.
 */
export type StorageKeySource =
  { kind: 'value'; key: Buffer } | { kind: 'file'; path: string; createIfMissing: boolean };

/** Everything the server is configured with; tests build one directly. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * How long the database, S3 or SMTP may leave a request without an answer before it fails (503,
   * or the mail not sent): docs/reliability.md#dependencies-that-stop-answering.
   */
  dependencyTimeoutMs: number;
  /**
   * Behind a load balancer: how long at most a stopping process keeps its port open, sending each
   * GET elsewhere, so the balancer stops choosing it before the port closes (docs/scaling.md). 0: the
   * port closes at once (one process, nobody to send anything to).
   */
  drainSeconds: number;
  publicUrl: string | undefined;
  sessionSecret: string | undefined;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  cookieSecure: 'auto' | 'always' | 'never';
  /** false, a hop count, or proxy addresses/CIDRs whose X-Forwarded-For is believed. */
  trustProxy: false | number | string;
  smtpUrl: string | undefined;
  /** Serve GET /api/dev/outbox (only without SMTP, only to this machine). */
  devOutbox: boolean;
  mailFrom: string;
  adminEmail: string | undefined;
  adminPin: string | undefined;
  maxUploadBytes: number;
  /** The default of the admin's "require passkeys for admins and officers" (until an admin sets it). */
  passkeysRequiredForStaff: boolean;
  /** The local store's master key (unused with S3). */
  storageKey: StorageKeySource;
  s3: S3Config | undefined;
  webDist: string | undefined;
  programmeUrl: string | undefined;
  logLevel: string;
}

/** Thrown for an invalid environment; the message names every bad variable. */
export class ConfigError extends Error {}

/** Parses an environment (defaults to `process.env`) into a {@link Config}. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PIN === undefined)) {
    throw new ConfigError('Invalid configuration:\n  ADMIN_EMAIL and ADMIN_PIN must be set together');
  }
  if (e.S3_ENDPOINT && !e.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when S3_ENDPOINT is set');
  }
  if (e.STORAGE_KEY && e.STORAGE_KEY_FILE) {
    throw new ConfigError(
      'Invalid configuration:\n  STORAGE_KEY and STORAGE_KEY_FILE: set one of them, not both',
    );
  }
  if (e.S3_SSE_KMS_KEY_ID && e.S3_SSE !== 'aws:kms') {
    throw new ConfigError('Invalid configuration:\n  S3_SSE_KMS_KEY_ID: needs S3_SSE=aws:kms');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    dependencyTimeoutMs: e.DEPENDENCY_TIMEOUT_MS,
    drainSeconds: e.DRAIN_SECONDS,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    sessionSecret: e.SESSION_SECRET,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    cookieSecure: e.COOKIE_SECURE === 'auto' ? 'auto' : e.COOKIE_SECURE === 'true' ? 'always' : 'never',
    trustProxy: e.TRUST_PROXY,
    smtpUrl: e.SMTP_URL,
    devOutbox: e.DEV_OUTBOX && e.SMTP_URL === undefined,
    mailFrom: e.MAIL_FROM,
    adminEmail: e.ADMIN_EMAIL?.trim().toLowerCase(),
    adminPin: e.ADMIN_PIN,
    maxUploadBytes: e.MAX_UPLOAD_MB * 1024 * 1024,
    passkeysRequiredForStaff: e.PASSKEYS_REQUIRED_FOR_STAFF,
    storageKey: e.STORAGE_KEY
      ? { kind: 'value', key: e.STORAGE_KEY }
      : e.STORAGE_KEY_FILE
        ? { kind: 'file', path: path.resolve(e.STORAGE_KEY_FILE), createIfMissing: false }
        : { kind: 'file', path: defaultStorageKeyFile(e.XDG_CONFIG_HOME, e.HOME), createIfMissing: true },
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          ...(e.S3_SSE && {
            sse:
              e.S3_SSE === 'AES256'
                ? { algorithm: 'AES256' as const }
                : { algorithm: 'aws:kms' as const, kmsKeyId: e.S3_SSE_KMS_KEY_ID },
          }),
        }
      : undefined,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : undefined,
    programmeUrl: e.PROGRAMME_URL,
    logLevel: e.LOG_LEVEL,
  };
}

/**
 * `storage.key` in the user's configuration directory: `$XDG_CONFIG_HOME/vita-docs`, else
 * `~/.config/vita-docs`. Outside the data directory, so a copy of that alone never reads the files.
 */
function defaultStorageKeyFile(xdgConfigHome: string | undefined, home: string | undefined): string {
  const config = xdgConfigHome ?? path.join(home ?? os.homedir(), '.config');
  return path.join(path.resolve(config), 'vita-docs', 'storage.key');
}

/**
 * The folder a command was typed in: npm and pnpm run a script in its package's folder and say where
 * they were started in INIT_CWD (`npm run backup -- <folder>` takes a folder relative to it).
 */
export function invocationDir(): string {
  return process.env.INIT_CWD ?? process.cwd();
}
