/** The pages, addressed by the URL hash so the static files need no server-side routing. */
export type Route =
  | { page: 'competitions' }
  | { page: 'competition'; id: string }
  /** A miner's scoreboard: any SS58 spelling of its hotkey (the page spells it canonically). */
  | { page: 'miner'; hotkey: string }
  | { page: 'validators' }
  | { page: 'rewards' }
  | { page: 'pool' }
  | { page: 'status' }
  | { page: 'not_found'; path: string }
  /** A hash whose percent-encoding is broken (`%E0%A4%A`): it names no page, and decoding it would throw. */
  | { page: 'malformed'; path: string };

/** The pages a link can point at. */
export type PageRoute = Exclude<Route, { page: 'not_found' | 'malformed' }>;

/** `#/competitions/<id>` → the competition page; an empty hash is the competitions list. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '') || '/competitions';
  const parts = path.split('/').filter((part) => part !== '');
  const [first, second] = parts;
  if (parts.length === 2 && first === 'competitions' && second) {
    const id = decoded(second);
    return id === null ? { page: 'malformed', path } : { page: 'competition', id };
  }
  if (parts.length === 2 && first === 'miners' && second) {
    const hotkey = decoded(second);
    return hotkey === null ? { page: 'malformed', path } : { page: 'miner', hotkey };
  }
  if (parts.length === 1) {
    switch (first) {
      case 'competitions':
      case 'validators':
      case 'rewards':
      case 'pool':
      case 'status':
        return { page: first };
    }
  }
  return { page: 'not_found', path };
}

/** `part` percent-decoded, or null when its encoding is broken. */
function decoded(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch (error) {
    if (error instanceof URIError) return null;
    throw error;
  }
}

export function href(route: PageRoute): string {
  if (route.page === 'competition') return `#/competitions/${encodeURIComponent(route.id)}`;
  if (route.page === 'miner') return `#/miners/${encodeURIComponent(route.hotkey)}`;
  return `#/${route.page}`;
}
