import { useEffect, useMemo, useState } from 'preact/hooks';
import { Coordinator, Pool, Runner, WeightSetter, type WebConfig } from './api/services';
import { useLoad } from './components/common';
import { href, parseRoute, type Route } from './logic/route';
import { CompetitionPage } from './pages/competition';
import { CompetitionsPage } from './pages/competitions';
import { MinerPage } from './pages/miner';
import { PoolPage } from './pages/pool';
import { RewardsPage } from './pages/rewards';
import { StatusPage } from './pages/status';
import { ValidatorsPage } from './pages/validators';

const NAV: { page: 'competitions' | 'validators' | 'rewards' | 'pool' | 'status'; label: string }[] = [
  { page: 'competitions', label: 'Competitions' },
  { page: 'validators', label: 'Validators' },
  { page: 'rewards', label: 'Rewards' },
  { page: 'pool', label: 'Pool' },
  { page: 'status', label: 'Status' },
];

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export function App({ config }: { config: WebConfig }) {
  const coordinator = useMemo(() => new Coordinator(config.coordinator), [config.coordinator]);
  const pool = useMemo(() => new Pool(config.pool), [config.pool]);
  const services = useMemo<Services>(
    () => ({ coordinator, pool, weightSetter: config.weightSetter ? new WeightSetter(config.weightSetter) : null, runner: config.runner ? new Runner(config.runner) : null }),
    [coordinator, pool, config.weightSetter, config.runner],
  );
  const route = useRoute();
  const [disclaimer] = useLoad(() => coordinator.disclaimer(), [coordinator]);
  const current = route.page === 'competition' ? 'competitions' : route.page;
  useEffect(() => {
    const title =
      route.page === 'not_found' ? 'Not found' : route.page === 'malformed' ? 'Malformed address' : route.page === 'miner' ? 'Miner' : (NAV.find((n) => n.page === current)?.label ?? '');
    document.title = `${title} · Research competitions`;
  }, [route.page, current]);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <p class="brand">Research competitions</p>
        <nav aria-label="Pages">
          <ul>
            {NAV.map((item) => (
              <li key={item.page}>
                <a href={href({ page: item.page })} aria-current={current === item.page ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {/* must_display: every page carries the disclaimer's summary; the Status page has the full text. */}
      {disclaimer.state === 'ready' && disclaimer.data.must_display ? (
        <aside class="disclaimer" aria-label="Participation disclaimer">
          {/* The summary usually opens with the title: it is said once. */}
          {disclaimer.data.summary.startsWith(disclaimer.data.title) ? null : <strong>{disclaimer.data.title}. </strong>}
          {disclaimer.data.summary} <a href={href({ page: 'status' })}>Full text</a>
        </aside>
      ) : null}
      <main id="main" tabIndex={-1}>
        <Page route={route} services={services} />
      </main>
    </>
  );
}

/** The services config.json names: the weight setter and the runner only where it names them. */
export interface Services {
  coordinator: Coordinator;
  pool: Pool;
  weightSetter: WeightSetter | null;
  runner: Runner | null;
}

function Page({ route, services }: { route: Route; services: Services }) {
  const { coordinator, pool } = services;
  switch (route.page) {
    case 'competitions':
      return <CompetitionsPage coordinator={coordinator} />;
    case 'competition':
      return <CompetitionPage key={route.id} coordinator={coordinator} id={route.id} />;
    case 'validators':
      return <ValidatorsPage coordinator={coordinator} />;
    case 'miner':
      return <MinerPage key={route.hotkey} services={services} hotkey={route.hotkey} />;
    case 'rewards':
      return <RewardsPage coordinator={coordinator} weightSetter={services.weightSetter} />;
    case 'pool':
      return <PoolPage pool={pool} />;
    case 'status':
      return <StatusPage services={services} />;
    case 'not_found':
      return (
        <>
          <h1>Not found</h1>
          <p>
            No page at <code>{route.path}</code>. <a href={href({ page: 'competitions' })}>See the competitions</a>.
          </p>
        </>
      );
    case 'malformed':
      return (
        <>
          <h1>Malformed address</h1>
          <p>
            The address <code>#{route.path}</code> is broken (its percent-encoding is invalid), so it names no page; the link that led here is
            damaged. <a href={href({ page: 'competitions' })}>See the competitions</a>.
          </p>
        </>
      );
  }
}
