// The unit tests (every *.test.ts under pipeline/ and bench/) in this one process. They hold no
// process-wide state, so one process loads the modules they share once: 60 processes spent
// more time starting than testing. npm test names the files in $CRAWLER_INDEX_UNIT_FILES (one
// per line, as `npm test -- <folders>` narrows them); on its own this file runs them all. Each
// file stays runnable alone with node --import tsx --test <file>.

import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from './support/project.ts';

function unitFiles(): string[] {
  const named = process.env.CRAWLER_INDEX_UNIT_FILES;
  if (named !== undefined) return named.split('\n').filter((line) => line !== '');
  return ['pipeline', 'bench'].flatMap((folder) =>
    readdirSync(join(REPO, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.test.ts') && !name.includes('node_modules'))
      .map((name) => relative(REPO, join(REPO, folder, name)))
      .sort(),
  );
}

for (const file of unitFiles()) await import(pathToFileURL(join(REPO, file)).href);
