#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { BuildError, build } from './build/build.ts';
import { checkRecords, formatProblem } from './records/check.ts';
import { readRecordFiles } from './records/load.ts';
import { join } from 'node:path';

// Progress goes to stderr so that stdout stays clean for anything a caller pipes.
const progress = (line: string) => process.stderr.write(`${line}\n`);

function baseUrl(value: string): string {
  if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(value)) throw new InvalidArgumentError('expected an absolute http(s) URL such as https://example.org');
  return value.replace(/\/+$/, '');
}

export function program(): Command {
  const cli = new Command('crawler-index')
    .description('Build and check the Crawler Index from records/ into dist/.')
    .option('--root <dir>', 'project folder holding records/, state/ and dist/', process.cwd());

  cli.command('check')
    .description('validate every record against its schema and the semantic checks; print each problem; exit 1 on any')
    .action(async () => {
      const root = cli.opts<{ root: string }>().root;
      const result = checkRecords(await readRecordFiles(join(root, 'records'), root));
      if (!result.ok) {
        for (const problem of result.problems) process.stdout.write(`${formatProblem(problem)}\n`);
        progress(`check: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}`);
        process.exitCode = 1;
        return;
      }
      progress(`check: ok (${result.records.crawlers.length} crawlers, ${result.records.operators.length} operators)`);
    });

  cli.command('build')
    .description('render dist/ from records/ and the mirror state in state/; writes nothing when no byte changed')
    .option('--base-url <url>', 'absolute URL the site is published at (default: base_url in records/site.yaml)', baseUrl)
    .option('--dist <dir>', 'output folder (default: <root>/dist)')
    .action(async (options: { baseUrl?: string; dist?: string }) => {
      const root = cli.opts<{ root: string }>().root;
      try {
        await build({ root, distDir: options.dist, baseUrl: options.baseUrl, log: progress });
      } catch (error) {
        if (!(error instanceof BuildError)) throw error;
        for (const problem of error.problems) process.stdout.write(`${formatProblem(problem)}\n`);
        progress(`build: stopped, ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}; dist/ left as it was`);
        process.exitCode = 1;
      }
    });
  return cli;
}

await program().parseAsync(process.argv);
