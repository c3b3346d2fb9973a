// The command line's commands (check, build, refresh and the tools), apart from the process that
// runs them (cli.ts): they write through a CliIO, so that a caller can run them in-process too.
//
// Each command loads the modules it runs when it runs, so that a tool command does not load the
// build, nor a refused option anything: the start of every command line is most of its CPU time.
import { Command, InvalidArgumentError } from 'commander';
import { join } from 'node:path';
import { InputUnreadable, readInput } from './node/read-input.ts';

/** Where the commands write and how they end. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The code the command ends with, once its work is done. */
  exitCode(code: number): void;
  /**
   * Commander's own endings (--help, a refused option) exit the process at once; with this set
   * they throw a CommanderError instead, for a caller that runs the commands in-process.
   */
  throwOnExit?: boolean;
}

/** The process's own streams and exit code: what `npm run build` and `npx crawler-index` use. */
export const PROCESS_IO: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  exitCode: (code) => {
    process.exitCode = code;
  },
};

function baseUrl(value: string): string {
  if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(value)) throw new InvalidArgumentError('expected an absolute http(s) URL such as https://example.org');
  return value.replace(/\/+$/, '');
}

/** Runs the command argv names (as process.argv: node, script, arguments). */
export async function runCli(argv: readonly string[], io: CliIO): Promise<void> {
  await program(io)
    .parseAsync([...argv])
    .catch((error: unknown) => {
      if (!(error instanceof InputUnreadable)) throw error;
      io.stderr(`${error.message}\n`);
      io.exitCode(2);
    });
}

function program(io: CliIO): Command {
  // Progress goes to stderr so that stdout stays clean for anything a caller pipes.
  const progress = (line: string) => io.stderr(`${line}\n`);
  const cli = new Command('crawler-index')
    .description('Build and check the Crawler Index from records/ into dist/, and run its tools offline on dist/.')
    .option(
      '--root <dir>',
      'project folder holding records/, state/ and dist/ (default: the working folder; where it holds no build, the tools read the index this package ships)',
      process.cwd(),
    )
    // Set before the subcommands are added, which copy both settings from their parent.
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  if (io.throwOnExit === true) cli.exitOverride();

  cli
    .command('check')
    .description('validate every record against its schema and the semantic checks; print each problem; exit 1 on any')
    .action(async () => {
      const root = cli.opts<{ root: string }>().root;
      const { checkRecords, formatProblem } = await import('./records/check.ts');
      const { readRecordFiles } = await import('./records/load.ts');
      const result = checkRecords(await readRecordFiles(join(root, 'records'), root));
      if (!result.ok) {
        for (const problem of result.problems) io.stdout(`${formatProblem(problem)}\n`);
        progress(`check: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}`);
        io.exitCode(1);
        return;
      }
      progress(`check: ok (${result.records.crawlers.length} crawlers, ${result.records.operators.length} operators)`);
    });

  cli
    .command('build')
    .description('render dist/ from records/ and the mirror state in state/; writes nothing when no byte changed')
    .option('--base-url <url>', 'absolute URL the site is published at (default: base_url in records/site.yaml)', baseUrl)
    .option('--dist <dir>', 'output folder (default: <root>/dist)')
    .option('--dry-run', 'print the paths whose bytes would change, one per line on stdout, and write nothing')
    .option('--force', 'render and check every document even when the inputs, the code and dist/ are those of the last build')
    .action(async (options: { baseUrl?: string; dist?: string; dryRun?: boolean; force?: boolean }) => {
      const root = cli.opts<{ root: string }>().root;
      const settings = { root, distDir: options.dist ?? join(root, 'dist'), baseUrl: options.baseUrl ?? null };
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      // The fingerprint is checked before the build's modules load: that is most of what a no-op build saves.
      const { recordBuild, reusableBuild, snapshotInputs } = await import('./publish/build-fingerprint.ts');
      const inputs = snapshotInputs(root);
      if (options.force !== true) {
        const reuse = reusableBuild(settings, inputs, now);
        if (reuse.reusable) {
          progress(
            `no change: the inputs, the code and ${settings.distDir} are those of the build at ${reuse.builtAt}; nothing rendered (--force renders anyway)`,
          );
          return;
        }
        progress(`building: ${reuse.reason}`);
      }
      const { BuildError, build } = await import('./publish/build.ts');
      const { formatProblem } = await import('./records/check.ts');
      try {
        const result = await build({ root, distDir: settings.distDir, baseUrl: options.baseUrl, dryRun: options.dryRun, now, log: progress });
        if (options.dryRun) for (const path of result.changed) io.stdout(`${path}\n`);
        else {
          // The build is done and written; a fingerprint that cannot be kept only costs the next build its shortcut.
          try {
            recordBuild(settings, inputs, result, now);
          } catch (error) {
            progress(`warning: the build's fingerprint could not be saved (${(error as Error).message}); the next build renders everything again`);
          }
        }
      } catch (error) {
        if (!(error instanceof BuildError)) throw error;
        for (const problem of error.problems) io.stdout(`${formatProblem(problem)}\n`);
        progress(`build: stopped, ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}; dist/ left as it was`);
        io.exitCode(1);
      }
    });
  cli
    .command('refresh')
    .description('fetch every operator-published IP list (last good wins), record change events, rebuild dist/')
    .option(
      '--upstream-dir <dir>',
      'read <dir>/<source-id>.<ext> instead of the network (offline import; provenance says upstream-dir); sources without a file are left as they are',
    )
    .option('--upstream-base <url>', 'fetch <url>/<source-id> instead of each operator URL (tests, mirrors of mirrors)', baseUrl)
    .option('--only <ids>', 'refresh only these comma-separated source ids', (value: string) =>
      value
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    )
    .option('--base-url <url>', 'absolute URL the site is published at (default: base_url in records/site.yaml)', baseUrl)
    .option('--commit', 'commit dist/ and state/ when their bytes changed, with a message listing the changes')
    .action(async (options: { upstreamDir?: string; upstreamBase?: string; only?: string[]; baseUrl?: string; commit?: boolean }) => {
      const root = cli.opts<{ root: string }>().root;
      if (options.upstreamDir && options.upstreamBase) throw new InvalidArgumentError('give --upstream-dir or --upstream-base, not both');
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const { refreshMirror } = await import('./refresh/refresh.ts');
      const { CommitBlocked, commitRefresh } = await import('./refresh/commit.ts');
      const { BuildError, build } = await import('./publish/build.ts');
      const { formatProblem } = await import('./records/check.ts');
      try {
        const outcomes = await refreshMirror({
          root,
          upstreamDir: options.upstreamDir,
          upstreamBase: options.upstreamBase,
          only: options.only,
          now,
          log: progress,
        });
        progress(`refresh: ${outcomes.filter((o) => o.changed).length} of ${outcomes.length} sources changed`);
        const result = await build({ root, baseUrl: options.baseUrl, now, log: progress });
        if (options.commit) {
          const commit = await commitRefresh(root, result.model.log, progress);
          progress(commit ? `committed ${commit}` : 'nothing to commit: no byte changed');
        }
      } catch (error) {
        if (error instanceof CommitBlocked) {
          // dist/ and state/ are written; only the commit waits for the operator.
          progress(`refresh: not committed: ${error.message}`);
          io.exitCode(1);
          return;
        }
        if (!(error instanceof BuildError)) throw error;
        for (const problem of error.problems) io.stdout(`${formatProblem(problem)}\n`);
        progress(`refresh: stopped, ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}; dist/ left as it was`);
        io.exitCode(1);
      }
    });
  toolCommands(cli, io);
  cli
    .command('serve')
    .description('serve the index, its tools, MCP and A2A over HTTP, as npm start does (serve --help lists its options)')
    // Every option after `serve` is the server's own (node/serve-args.ts), --help included.
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[options...]')
    .action(async (args: string[]) => {
      // The server is the process's from here: its signals, its exit code, its streams.
      const { serveProcess } = await import('./node/serve-process.ts');
      const root = cli.getOptionValueSource('root') === 'default' ? [] : ['--root', cli.opts<{ root: string }>().root];
      await serveProcess(['node', 'serve', ...root, ...args]);
    });
  return cli;
}

/** The tools offline, on the committed dist/: each command is one registry tool. */
function toolCommands(cli: Command, io: CliIO): void {
  // The input is read before the tools are loaded: an unreadable file is said at once.
  const runTool = async (tool: string, params: Record<string, unknown>, json: boolean) => {
    const { runToolCommand } = await import('./node/tool-commands.ts');
    const { defaultRoot } = await import('./node/package-root.ts');
    const { root } = cli.opts<{ root: string }>();
    const result = await runToolCommand(cli.getOptionValueSource('root') === 'default' ? defaultRoot(root) : root, tool, params, json);
    io.stdout(result.stdout);
    io.stderr(result.stderr);
    io.exitCode(result.exitCode);
  };
  const json = (command: Command) => command.option('--json', 'print the whole answer as JSON instead of the summary');
  json(
    cli
      .command('audit')
      .description(
        'which AI crawlers a robots.txt blocks and lets in, and the usage preferences that apply to each (audit_ai_access); FILE or - for standard input',
      ),
  )
    .argument('<file>')
    .option('--path <path>', 'the URL path to evaluate', '/')
    .option('--content-usage-header <value>', 'the Content-Usage response header your server sends with that page, such as "train-ai=n"')
    .action(async (file: string, options: { path: string; contentUsageHeader?: string; json?: boolean }) =>
      runTool(
        'audit_ai_access',
        {
          robots_txt: await readInput(file),
          path: options.path,
          ...(options.contentUsageHeader === undefined ? {} : { content_usage_header: options.contentUsageHeader }),
        },
        options.json === true,
      ),
    );
  json(cli.command('lint').description('faults in a robots.txt, with line, text and fix (lint_robots_txt)'))
    .argument('<file>')
    .action(async (file: string, options: { json?: boolean }) => runTool('lint_robots_txt', { robots_txt: await readInput(file) }, options.json === true));
  json(cli.command('allowed').alias('robots').description('whether a crawler may fetch paths under a robots.txt (check_path_allowed)'))
    .argument('<file>')
    .requiredOption('--ua <token>', "the crawler's product token, such as GPTBot")
    .option('--path <path...>', 'paths to evaluate', ['/'])
    .action(async (file: string, options: { ua: string; path: string[]; json?: boolean }) =>
      runTool('check_path_allowed', { robots_txt: await readInput(file), ua: options.ua, path: options.path }, options.json === true),
    );
  json(cli.command('classify').description('which crawler a User-Agent header names (classify_user_agent)'))
    .argument('<user-agent>')
    .action(async (ua: string, options: { json?: boolean }) => runTool('classify_user_agent', { ua }, options.json === true));
  json(cli.command('verify').description("whether addresses are a crawler's own, against the mirrored prefixes (verify_batch)"))
    .argument('<ip...>')
    .option('--ua <claim>', 'the crawler the requests claimed to be: a token, slug or whole User-Agent')
    .action(async (ip: string[], options: { ua?: string; json?: boolean }) =>
      runTool('verify_batch', { ip, ...(options.ua === undefined ? {} : { ua: options.ua }) }, options.json === true),
    );
  json(cli.command('server-config').description('a policy as nginx, Apache, Caddy or HAProxy config, with its measured accuracy (server_config)'))
    .argument('<policy>')
    .option('--server <server>', 'nginx, apache, caddy or haproxy', 'nginx')
    .action(async (policy: string, options: { server: string; json?: boolean }) =>
      runTool('server_config', { policy, server: options.server }, options.json === true),
    );
  json(
    cli
      .command('verify-signature')
      .description(
        "whether a signed request (Web Bot Auth) really comes from its agent (verify_signature); FILE is the request's head, or - for standard input",
      ),
  )
    .argument('<file>')
    .option('--directory <file>', "the agent's key directory (the JSON of its /.well-known/http-message-signatures-directory)")
    .action(async (file: string, options: { directory?: string; json?: boolean }) =>
      runTool(
        'verify_signature',
        { request: await readInput(file), ...(options.directory === undefined ? {} : { directory: await readInput(options.directory) }) },
        options.json === true,
      ),
    );
}
