// Child process for the durability test: rewrites one state file through writeFileAtomic,
// alternating between two event logs, forever, printing one "." after each completed write,
// until the test kills it with SIGKILL somewhere in the middle of a write.
import { writeFileAtomic } from '../../pipeline/util/atomic-file.ts';
import { canonicalJson } from '../../pipeline/util/canonical-json.ts';
import { loopLogs } from './state-logs.ts';

const path = process.argv[2];
if (!path) throw new Error('usage: write-loop.ts <file>');
const [a, b] = loopLogs();
const [first, second] = [canonicalJson(a), canonicalJson(b)];
for (let i = 0; ; i++) {
  await writeFileAtomic(path, i % 2 === 0 ? first : second);
  process.stdout.write('.');
}
