// Where a record lives, so that semantic problems name a file a maintainer can open.
export const crawlerFile = (slug: string) => `records/crawlers/${slug}.yaml`;
export const operatorFile = (slug: string) => `records/operators/${slug}.yaml`;
export const SOURCES_FILE = 'records/sources.yaml';
