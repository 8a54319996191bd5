import { version } from '../package.json';

/** `rcs --version`: the version in apps/cli/package.json, which `npx nx build cli` packs (the bundle inlines it). */
export const CLI_VERSION: string = version;
