/**
 * Headless intake for desks without a screen session:
 *   pnpm --filter ./apps/desktop intake -- --server URL --folder DIR --client ID --category NAME --email EMAIL [--no-convert] [--poll]
 * Signs in (PIN, then the emailed code, from standard input), then uploads every scan the folder
 * receives into the category, one line per file on standard output. Ctrl-C stops cleanly: the scan
 * in flight finishes (a second Ctrl-C quits at once) and the inbox ledger is saved.
 */
import { resolve } from 'node:path';
import { createApiClient, createFetchPutFile, imageToLetterPdf, messages } from '@vita-docs/core';
import { createSharpRaster } from '@vita-docs/core/node';
import { invocationDir } from '../main/env.js';
import { createInbox, type Inbox, type InboxEvent } from '../main/inbox/index.js';
import { deskTexts } from '../shared/desk-texts.js';
import { createServerFetch } from '../main/server-fetch.js';
import { parseIntakeArgs, type IntakeArgs } from './args.js';
import { createPrompter } from './prompt.js';
import { formatReport } from './report.js';
import { startIntake } from './uploader.js';

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const note = (line: string): void => void process.stderr.write(`${line}\n`);

async function signIn(args: IntakeArgs, api: ReturnType<typeof createApiClient>): Promise<void> {
  const prompter = createPrompter();
  try {
    const pin = await prompter.ask(`Password PIN for ${args.email}: `, { secret: true });
    const init = await api.loginInit({ body: { email: args.email, pin } });
    if (!init.emailSent) throw new Error(messages.loginEmailNotSent);
    const code = await prompter.ask('Code from the email: ');
    const verified = await api.loginVerify({ body: { email: args.email, code: code.trim() } });
    note(`Signed in as ${verified.user.firstName} ${verified.user.lastName}.`);
  } finally {
    prompter.close();
  }
}

/**
 * What the folder itself tells the person: warnings, the folder gone and back, and files that are
 * no scans to upload (`damaged <scan>: …`, or set aside into a sub-folder), one line each.
 */
function folderReporter(inbox: Inbox): (event: InboxEvent) => void {
  let reachable = true;
  return (event) => {
    if (event.type === 'error') note(`warning: ${event.message}`);
    if (event.type === 'status' && inbox.status().reachable !== reachable) {
      reachable = !reachable;
      note(reachable ? `The scanner folder is back: ${inbox.folder}` : deskTexts.notReachable);
    }
    if (event.type !== 'problem') return;
    const moved = event.movedTo === undefined ? '' : ` (moved to ${event.movedTo})`;
    if (event.kind === 'damaged') out(`damaged ${event.relPath}: ${deskTexts.damaged}${moved}`);
    else out(`skipped ${event.relPath}: same file as a scan uploaded already${moved}`);
  };
}

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseIntakeArgs(argv);
  if (!parsed.ok) {
    (parsed.error ? note : out)(parsed.message);
    return parsed.error ? 2 : 0;
  }
  const { args } = parsed;
  const server = createServerFetch({ serverUrl: args.server });
  const api = createApiClient({
    baseUrl: `${args.server.replace(/\/+$/, '')}/api`,
    fetch: server.fetch,
    getCookie: server.getCookie,
  });
  await signIn(args, api);

  const { types } = await api.docTypes({ params: { id: args.client } });
  if (!types.includes(args.category)) {
    throw new Error(`This client has no category "${args.category}". Categories: ${types.join(', ')}`);
  }

  const raster = createSharpRaster();
  const putFile = createFetchPutFile(server.fetch);
  const target = { clientId: args.client, docType: args.category };
  // `pnpm --filter` runs this in apps/desktop; a relative --folder means where the person typed the command.
  const folder = resolve(invocationDir(), args.folder);
  const inbox = createInbox({ folder, afterUpload: args.afterUpload, mode: args.mode });
  inbox.subscribe(folderReporter(inbox));
  await inbox.start();

  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const intake = startIntake({
    inbox,
    target,
    api,
    putFile,
    ...(args.convert
      ? {
          convert: (file) =>
            imageToLetterPdf(file, { raster, logger: { warn: (m: string) => note(`warning: ${m}`) } }),
        }
      : {}),
    report: (report) => out(formatReport(report)),
    onFatal: (error) => {
      note(error.message);
      finish(1);
    },
  });
  const { mode, intervalMs } = inbox.status();
  const how =
    mode === 'poll' ? deskTexts.polling(inbox.folder, intervalMs / 1000) : deskTexts.watching(inbox.folder);
  note(
    `${how} for scans -> client ${args.client}, "${args.category}"${args.convert ? '' : ' (no conversion)'}. Ctrl-C to stop.`,
  );

  let interrupts = 0;
  const onSignal = (): void => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    note('Stopping after the current upload... (Ctrl-C again to quit now)');
    finish(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const code = await finished;
  await intake.stop();
  await inbox.close();
  note('Stopped.');
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    note(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
