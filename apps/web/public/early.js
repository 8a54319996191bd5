// Starts config.json, and on the competitions page its dashboard read, while the app's script loads
// (src/api/early.ts takes them). A file of its own, not inline: the Content-Security-Policy allows
// scripts from the page's origin only (DECISIONS §14). Copied as it is; keep it plain ES5.
(function () {
  var config = fetch('config.json').then(function (response) {
    if (!response.ok) throw new TypeError('config.json answered HTTP ' + response.status);
    return response.json();
  });
  var competitions = /^#?\/*(competitions\/*)?$/.test(location.hash);
  var dashboard = config.then(function (body) {
    if (!competitions || !body || typeof body.coordinator !== 'string' || !/^https?:\/\//.test(body.coordinator)) return null;
    var url = body.coordinator.replace(/\/+$/, '') + '/api/v1/dashboard';
    return { url: url, response: fetch(url, { headers: { accept: 'application/json' } }) };
  });
  window.rcsEarly = { config: config, dashboard: dashboard.catch(function () { return null; }) };
})();
