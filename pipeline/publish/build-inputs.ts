import { join } from 'node:path';

/**
 * Everything a build reads under the project root, by name: the records (the corpus among
 * them) and the mirror state. The build reads them from here, and the build fingerprint
 * digests exactly these, so an input added to one is an input of the other.
 */
export function buildInputs(root: string) {
  return {
    records: join(root, 'records'),
    mirror: join(root, 'state', 'mirror'),
    directories: join(root, 'state', 'signature-agents'),
    checked: join(root, 'state', 'checked.json'),
    events: join(root, 'state', 'events.json'),
  } as const;
}

/** The inputs a build also writes: the change events it records. */
export const BUILD_WRITES = ['events'] as const satisfies readonly (keyof ReturnType<typeof buildInputs>)[];
