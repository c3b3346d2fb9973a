import { formatProblem } from './check.ts';
import type { Problem } from './types.ts';

/** A build stopped by problems in its inputs (records, state) or outputs, each naming its file. */
export class BuildError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(`${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map(formatProblem).join('\n')}`);
    this.problems = problems;
  }
}
