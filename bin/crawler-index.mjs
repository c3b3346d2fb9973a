#!/usr/bin/env node
// `npx crawler-index ...`: the TypeScript CLI run through tsx's loader, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
await import('../pipeline/cli.ts');
