{% load static %}/* The entry screen offline (tournament/matches/views/offline.py): the match pages a referee
 * opened, and the files they need, are kept in the browser's cache; each is asked of the server
 * first (always the newest when the server answers) and taken from the cache when it does not.
 * Writes (POST) and htmx's requests are not touched: the page's queue (queue.js) keeps them. */
"use strict";

var CACHE = "triominos-entry-v1";
var STATIC = "{% get_static_prefix %}";
var FILES = [
  "{% static 'tournament/site.css' %}",
  "{% static 'tournament/running.css' %}",
  "{% static 'tournament/pages.js' %}",
  "{% static 'tournament/favicon.svg' %}",
  "{% static 'tournament/matches/match.css' %}",
  "{% static 'tournament/matches/entry.js' %}",
  "{% static 'tournament/matches/queue.js' %}",
  "{% static 'tournament/matches/offline_page.js' %}",
  "{% static 'tournament/matches/board.js' %}",
  "{% static 'tournament/matches/pending.js' %}",
  "{% static 'django_htmx/htmx-2.min.js' %}",
];
var MATCH_PAGE = /^\/t\/[^/]+\/matches\/\d+\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(FILES.map(function (file) { return cache.add(file).catch(function () {}); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function kept(request) {
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return false; }
  if (request.headers.get("HX-Request")) { return false; }
  return url.pathname.indexOf(STATIC) === 0 || (MATCH_PAGE.test(url.pathname) && request.mode === "navigate");
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (!kept(request)) { return; }
  var key = new URL(request.url);
  key.search = "";
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && !response.redirected && response.type === "basic") {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(key.href, copy); });
    }
    return response;
  }, function () {
    return caches.match(key.href).then(function (found) { return found || Response.error(); });
  }));
});
