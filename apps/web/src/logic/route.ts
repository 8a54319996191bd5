/** The pages, addressed by the URL hash so the static files need no server-side routing. */
export type Route =
  | { page: 'competitions' }
  | { page: 'competition'; id: string }
  | { page: 'validators' }
  | { page: 'rewards' }
  | { page: 'pool' }
  | { page: 'status' }
  | { page: 'not_found'; path: string };

/** `#/competitions/<id>` → the competition page; an empty hash is the competitions list. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '') || '/competitions';
  const parts = path.split('/').filter((part) => part !== '');
  const [first, second] = parts;
  if (parts.length === 2 && first === 'competitions' && second) return { page: 'competition', id: decodeURIComponent(second) };
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

export function href(route: Exclude<Route, { page: 'not_found' }>): string {
  return route.page === 'competition' ? `#/competitions/${encodeURIComponent(route.id)}` : `#/${route.page}`;
}
