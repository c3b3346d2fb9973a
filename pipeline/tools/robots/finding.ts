// One finding of the robots.txt linter; its own module so that the linter's parts (lint.ts and
// lint-preferences.ts) can both name it without importing each other.

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  line: number | null;
  /** The line as written (cut to LINE_TEXT_LIMIT characters in lint.ts), so a finding can be read without the file; null for the whole file. */
  text: string | null;
  severity: Severity;
  code: string;
  message: string;
  fix: string;
}
