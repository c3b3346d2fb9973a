// Findings are the things we tolerated in an upstream file but want a maintainer to see.
// A per-entry quirk (500 bare IPs in one Amazon list) must stay one readable line, so
// repeated findings are grouped by kind with a few examples.

import { clip, LIST_ITEM_LIMIT, quote as quoteText } from '../util/quote.ts';

const MAX_EXAMPLES = 5;

interface Group {
  count: number;
  examples: string[];
  quote: boolean;
  render: (count: number, examples: string) => string;
}

export class FindingLog {
  // Insertion order is kept so the output is deterministic for the same input.
  private readonly entries: Array<string | Group> = [];
  private readonly groups = new Map<string, Group>();

  /** A one-off finding, kept as written. */
  note(message: string): void {
    this.entries.push(message);
  }

  /**
   * A finding that may repeat: occurrences with the same `kind` collapse into one line,
   * rendered by `render(count, examples)` where `examples` is a short list such as
   * `"a", "b" and 3 more`. Examples are quoted unless `quote` is false (for examples that
   * are already JSON or positions such as `#3`).
   */
  group(kind: string, example: string, render: (count: number, examples: string) => string, quote = true): void {
    let group = this.groups.get(kind);
    if (!group) {
      group = { count: 0, examples: [], render, quote };
      this.groups.set(kind, group);
      this.entries.push(group);
    }
    group.count += 1;
    if (group.examples.length < MAX_EXAMPLES) group.examples.push(example);
  }

  list(): string[] {
    return this.entries.map((entry) => (typeof entry === 'string' ? entry : entry.render(entry.count, exampleText(entry))));
  }
}

function exampleText(group: Group): string {
  // Examples are upstream text: cut to a readable length (quote.ts).
  const shown = group.examples.map((e) => (group.quote ? quoteText(e, LIST_ITEM_LIMIT) : clip(e, LIST_ITEM_LIMIT))).join(', ');
  const rest = group.count - group.examples.length;
  return rest > 0 ? `${shown} and ${rest} more` : shown;
}

/** "1 entry" / "3 entries": findings are read by people. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
