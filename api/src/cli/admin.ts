/**
 * `npm run admin -- grant <email>` / `npm run admin -- revoke <email>` / `npm run admin -- list`:
 * sets or clears a user's admin flag, or lists the admins, in the game's database (DATABASE_URL).
 * `npm run admin -- lti-rotate-key`: a new LTI signing key (the old one stays in the JWKS a week).
 * Exit codes: 0 done; 1 bad usage, unknown user, or the database could not be used.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
// The client and the schema alone, not the whole game (@marketcraft/db): an operator's command starts in a fraction of the time.
import { connectDatabase } from '@marketcraft/db/client.ts';
import { users } from '@marketcraft/db/schema/index.ts';
import { setAdmin } from '../auth/admins.ts';
import { rotateToolKey } from '@marketcraft/db/lti/keys.ts';

const USAGE = `Usage:
  npm run admin -- grant <email>    make the user with this email an admin
  npm run admin -- revoke <email>   take admin rights away from that user
  npm run admin -- list             list the admins
  npm run admin -- lti-rotate-key   replace the LTI tool's signing key (course platforms read the new
                                    one from the JWKS URL; the old one stays there for a week)
The game's database is read from DATABASE_URL, or, while \`npm start\` runs the embedded
PostgreSQL server, from the file it writes (DATA_DIR/database-url, default .data/database-url).`;

const DATABASE_URL_MISSING = `DATABASE_URL is not set and no running game was found. The admin command needs the URL of
the game's database, the same DATABASE_URL that \`npm start\` uses, e.g.
  DATABASE_URL=postgres://user:password@localhost:5432/marketcraft npm run admin -- grant you@example.com
With the embedded server, run the command while \`npm start\` is running (it writes .data/database-url).`;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The URL `npm start` wrote for its embedded server, if the game is running. */
function embeddedDatabaseUrl(dataDir: string | undefined): string | undefined {
  try {
    return readFileSync(path.join(path.resolve(dataDir ?? path.join(repoRoot, '.data')), 'database-url'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

const cliEnvSchema = z.object({
  DATA_DIR: z.string().optional(),
  DATABASE_URL: z.string({ error: DATABASE_URL_MISSING }).min(1, { error: DATABASE_URL_MISSING }).url({ error: 'DATABASE_URL is not a valid URL' }),
});

const argsSchema = z.union([
  z.tuple([z.enum(['grant', 'revoke']), z.email({ error: 'The second argument must be an email address' })]),
  z.tuple([z.literal('list')]),
  z.tuple([z.literal('lti-rotate-key')]),
]);

/** The command's answer for the operator (its output, not a log line). */
function say(message: string): void {
  process.stdout.write(message + '\n');
}

function complain(message: string): void {
  process.stderr.write(message + '\n');
}

function fail(message: string): never {
  complain(message);
  process.exit(1);
}

/** drizzle wraps driver errors ("Failed query: ..."); the driver's own message says what went wrong. */
function rootCauseMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message || current.name : String(error);
}

async function main(): Promise<void> {
  const args = argsSchema.safeParse(process.argv.slice(2));
  if (!args.success) fail(USAGE);
  const env = cliEnvSchema.safeParse({
    ...process.env,
    DATABASE_URL: process.env.DATABASE_URL || embeddedDatabaseUrl(process.env.DATA_DIR),
  });
  if (!env.success) fail(env.error.issues[0]?.message ?? DATABASE_URL_MISSING);

  const connection = connectDatabase(env.data.DATABASE_URL, { max: 1, applicationName: 'marketcraft-admin-cli' });
  let exitCode = 0;
  try {
    const [command, email] = args.data;
    if (command === 'lti-rotate-key') {
      // The key id only: the key itself never leaves the database.
      say(`The LTI tool now signs with key ${await rotateToolKey(connection.db)}; the previous key stays in the JWKS for a week.`);
    } else if (command === 'list') {
      const admins = await connection.db.select({ email: users.email }).from(users).where(eq(users.isAdmin, true)).orderBy(users.email);
      say(admins.length ? admins.map((admin) => admin.email).join('\n') : 'No admins yet.');
    } else {
      const user = await setAdmin(connection.db, email!, command === 'grant');
      if (!user) {
        complain(`No user with the email ${email}. They must sign up first (or sign in once with Google).`);
        exitCode = 1;
      } else {
        say(command === 'grant' ? `${user.email} is now an admin.` : `${user.email} is no longer an admin.`);
      }
    }
  } catch (error) {
    complain(`Could not use the database at DATABASE_URL: ${rootCauseMessage(error)}`);
    exitCode = 1;
  } finally {
    await connection.close();
  }
  process.exit(exitCode);
}

await main();
