// Child process for the durability test: rewrites one state file through writeFileAtomic,
// alternating between the contents of two files, forever, printing one "." after each
// completed write, until the test kills it with SIGKILL somewhere in the middle of a write.
// The test writes the two contents once, so each child it starts only reads them.
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../pipeline/util/atomic-file.ts';

const [path, firstFile, secondFile] = process.argv.slice(2);
if (!path || !firstFile || !secondFile) throw new Error('usage: write-loop.ts <file> <first contents> <second contents>');
const [first, second] = [readFileSync(firstFile, 'utf8'), readFileSync(secondFile, 'utf8')];
for (let i = 0; ; i++) {
  await writeFileAtomic(path, i % 2 === 0 ? first : second);
  process.stdout.write('.');
}
