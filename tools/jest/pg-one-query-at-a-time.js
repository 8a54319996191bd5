// pg 8 warns once per process, and pg 9 will refuse, when a query is sent on a client that is still
// executing another ("Calling client.query() when the client is already executing a query"): two
// statements racing on one connection, usually one transaction's. In the tests it is an error, thrown
// where the second query is sent, so the stack names the code path.
const pg = require('pg');

class ConcurrentQueryError extends Error {
  constructor(text) {
    super(`a query was sent on a pg client already executing one (pg 9 refuses it): ${String(text).slice(0, 200)}`);
    this.name = 'ConcurrentQueryError';
  }
}

const query = pg.Client.prototype.query;
if (!query.oneAtATime) {
  pg.Client.prototype.query = function oneAtATime(config, ...rest) {
    if (this._queryQueue.length > 0 && !this.pipeline && !this._ending) {
      throw new ConcurrentQueryError(typeof config === 'string' ? config : config && config.text);
    }
    return query.call(this, config, ...rest);
  };
  pg.Client.prototype.query.oneAtATime = true;
}
