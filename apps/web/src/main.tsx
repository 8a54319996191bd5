import { render } from 'preact';
import { readConfig } from './api/early';
import { parseConfig } from './api/services';
import { App } from './app';
import './styles.css';

const root = document.getElementById('app') as HTMLElement;

/** config.json, next to index.html, says where the coordinator and the pool answer (index.html already asked). */
readConfig()
  .then(parseConfig)
  .then(
    (config) => render(<App config={config} />, root),
    (error: unknown) =>
      render(
        <main>
          <h1>Not configured</h1>
          <p role="alert">
            {error instanceof Error ? error.message : String(error)}. Serve a <code>config.json</code> next to index.html:{' '}
            <code>{'{"coordinator": "<base url>", "pool": "<base url>"}'}</code>.
          </p>
        </main>,
        root,
      ),
  );
