/** Command-line arguments of the headless intake, checked before anything touches the network. */
import { parseArgs } from 'node:util';
import { z } from 'zod';

/** Usage text shown by `--help` and after a bad argument. */
const USAGE = `Usage: pnpm --filter ./apps/desktop intake -- --server URL --folder DIR --client ID --category NAME --email EMAIL [options]

Uploads every scan that appears in DIR (and its sub-folders) into one client's document category.
Asks for your Password PIN and then for the code emailed to you (both may be piped on standard input).

Options:
  --server URL      the server address, e.g. https://vita.example.org (the API is under /api)
  --folder DIR      the scanner folder to watch; uploaded scans move to DIR/uploaded
  --client ID       the client's id
  --category NAME   the document category, e.g. "W-2"
  --email EMAIL     your volunteer account
  --no-convert      upload images as they are (default: convert to a Letter PDF)
  --delete          delete scans after upload instead of moving them to DIR/uploaded
  --poll            look for new scans every 2 s instead of waiting for file-system events
                    (automatic for a folder on a network share: SMB/CIFS, NFS, sshfs)
  --help            show this text`;

const required = (flag: string) =>
  z
    .string({ error: `${flag} is required` })
    .trim()
    .min(1, `${flag} is required`);

const Args = z.object({
  server: required('--server').pipe(
    z.url({ protocol: /^https?$/, error: '--server must be an http(s) address' }),
  ),
  folder: required('--folder'),
  client: required('--client'),
  category: required('--category'),
  email: required('--email').pipe(z.email('--email must be an email address')),
  convert: z.boolean(),
  afterUpload: z.enum(['move', 'delete']),
  mode: z.enum(['auto', 'poll']),
});

/** Parsed, valid arguments. */
export type IntakeArgs = z.infer<typeof Args>;

/** Either the arguments, or the message to print (help or an error) and whether it is an error. */
export type ParsedArgs = { ok: true; args: IntakeArgs } | { ok: false; message: string; error: boolean };

const OPTIONS = {
  server: { type: 'string' },
  folder: { type: 'string' },
  client: { type: 'string' },
  category: { type: 'string' },
  email: { type: 'string' },
  'no-convert': { type: 'boolean' },
  delete: { type: 'boolean' },
  poll: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

const FLAGS = new Set(Object.keys(OPTIONS).map((name) => `--${name}`));
const VALUE_FLAGS = new Set(
  Object.entries(OPTIONS)
    .filter(([, option]) => option.type === 'string')
    .map(([name]) => `--${name}`),
);

/**
 * Writes `--flag value` as `--flag=value`, so a value that starts with a dash (a client id such as `-Xy3…`) is taken as the
 * value rather than refused as "ambiguous". A value that is itself one of our flags stays apart, so a forgotten value is
 * still reported as missing.
 */
function joinValues(list: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < list.length; index += 1) {
    const arg = list[index] ?? '';
    const next = list[index + 1];
    if (VALUE_FLAGS.has(arg) && next !== undefined && !FLAGS.has(next.split('=')[0] ?? next)) {
      joined.push(`${arg}=${next}`);
      index += 1;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

/** Parses argv (without node and the script). A leading `--` from `pnpm run x -- …` is skipped. */
export function parseIntakeArgs(argv: readonly string[]): ParsedArgs {
  const list = joinValues(argv[0] === '--' ? argv.slice(1) : argv);
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: list, strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (error) {
    return {
      ok: false,
      message: `${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`,
      error: true,
    };
  }
  if (values.help) return { ok: false, message: USAGE, error: false };
  const parsed = Args.safeParse({
    server: values.server,
    folder: values.folder,
    client: values.client,
    category: values.category,
    email: values.email,
    convert: values['no-convert'] !== true,
    afterUpload: values.delete === true ? 'delete' : 'move',
    mode: values.poll === true ? 'poll' : 'auto',
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.message.startsWith('--') ? '' : `--${issue.path.join('.')}: `}${issue.message}`,
    );
    return { ok: false, message: `${problems.join('\n')}\n\n${USAGE}`, error: true };
  }
  return { ok: true, args: parsed.data };
}
