/** The environment the browser suite reads. */
export const e2eConfig = {
  /** Debian's chromium; no browser is downloaded. */
  chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  redisUrl: process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  /** Set to write docs/web-ui.md's screenshot (docs/web-competition.png) as well. */
  docsScreenshot: Boolean(process.env.WEB_E2E_DOCS_SCREENSHOT),
};
