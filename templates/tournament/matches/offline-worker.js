{% load static %}/* The entry screen offline (tournament/matches/views/offline.py): the match pages a referee
 * opened, and the files they need, are kept in the browser's cache; each is asked of the server
 * first (always the newest when the server answers) and taken from the cache when it does not.
 * Writes (POST) and htmx's requests are not touched: the page's queue (queue.js) keeps them.
 *
 * A kept page is shown only to the login that kept it. Every answer of the server names its
 * login (X-Kept-For, tournament/kit/kept_for.py); the worker notes the one of each page the
 * tablet opens, forgets every kept page when it changes (a logout, another account), and
 * serves a page offline only if it was kept under the login noted last. At most MAX_PAGES
 * match pages are kept, the most recently opened. Logging out also erases the caches
 * (Clear-Site-Data, tournament/home/views.py). */
"use strict";

var FILES = "triominos-files-v2";    // the scripts and styles: the same for everyone
var PAGES = "triominos-pages-v2";    // the match pages, of one login
var LOGIN = "triominos-login-v2";    // the login noted last
var MAX_PAGES = 8;
var KEPT_FOR = "X-Kept-For";
var NOBODY = "-";
var LOGIN_KEY = new URL("/offline-worker.js?login", self.location.href).href;
var STATIC = "{% get_static_prefix %}";
var STATIC_FILES = [
  "{% static 'tournament/site.css' %}",
  "{% static 'tournament/running.css' %}",
  "{% static 'tournament/pages.js' %}",
  "{% static 'tournament/logout.js' %}",
  "{% static 'tournament/favicon.svg' %}",
  "{% static 'tournament/matches/match.css' %}",
  "{% static 'tournament/matches/entry_board.js' %}",
  "{% static 'tournament/matches/entry_preview.js' %}",
  "{% static 'tournament/matches/entry_answer.js' %}",
  "{% static 'tournament/matches/entry_correction.js' %}",
  "{% static 'tournament/matches/entry.js' %}",
  "{% static 'tournament/matches/queue.js' %}",
  "{% static 'tournament/matches/offline_page.js' %}",
  "{% static 'tournament/matches/board.js' %}",
  "{% static 'tournament/matches/pending.js' %}",
  "{% static 'tournament/matches/turn_check.js' %}",
  "{% static 'tournament/matches/round_end.js' %}",
  "{% static 'django_htmx/htmx-2.min.js' %}",
];
var MATCH_PAGE = /^\/t\/[^/]+\/matches\/\d+\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(FILES).then(function (cache) {
    return Promise.all(STATIC_FILES.map(function (file) { return cache.add(file).catch(function () {}); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return [FILES, PAGES, LOGIN].indexOf(name) < 0; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

/* The login noted last: NOBODY until a page names one. */
function noted() {
  return caches.open(LOGIN).then(function (cache) { return cache.match(LOGIN_KEY); })
    .then(function (found) { return found ? found.text() : NOBODY; });
}

/* An answer's login, noted; the kept pages forgotten when it differs from the one before. */
function note(response) {
  var login = response.headers.get(KEPT_FOR);
  if (login === null) { return Promise.resolve(); }  // a redirect seen from here: no headers
  return noted().then(function (before) {
    if (before === login) { return null; }
    return caches.delete(PAGES).then(function () { return caches.open(LOGIN); })
      .then(function (cache) { return cache.put(LOGIN_KEY, new Response(login)); });
  });
}

/* A match page as the server answered it, kept under its login; the oldest beyond MAX_PAGES
 * dropped (a put moves its address to the end of the cache's order). */
function keep(address, response) {
  var login = response.headers.get(KEPT_FOR);
  if (!response.ok || response.redirected || response.type !== "basic" || !login) {
    return Promise.resolve();
  }
  return note(response).then(function () { return caches.open(PAGES); }).then(function (cache) {
    return cache.put(address, response).then(function () { return cache.keys(); }).then(function (keys) {
      return Promise.all(keys.slice(0, Math.max(keys.length - MAX_PAGES, 0))
        .map(function (old) { return cache.delete(old); }));
    });
  });
}

/* A kept match page, if it was kept under the login noted last. */
function kept(address) {
  return Promise.all([noted(), caches.open(PAGES).then(function (cache) { return cache.match(address); })])
    .then(function (both) {
      var login = both[0], page = both[1];
      return page && page.headers.get(KEPT_FOR) === login ? page : null;
    });
}

function pageAddress(url) {
  var address = new URL(url);
  address.search = "";
  address.hash = "";
  return address.href;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  if (request.headers.get("HX-Request")) { return; }
  if (url.pathname.indexOf(STATIC) === 0) {
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok && response.type === "basic") {
        var copy = response.clone();
        event.waitUntil(caches.open(FILES).then(function (cache) { return cache.put(pageAddress(request.url), copy); }));
      }
      return response;
    }, function () {
      return caches.match(pageAddress(request.url), {cacheName: FILES})
        .then(function (found) { return found || Response.error(); });
    }));
    return;
  }
  if (request.mode !== "navigate") { return; }
  // Every page the tablet opens names its login; a match page is kept for it.
  var address = pageAddress(request.url);
  var matchPage = MATCH_PAGE.test(url.pathname);
  event.respondWith(fetch(request).then(function (response) {
    event.waitUntil(matchPage ? keep(address, response.clone()) : note(response));
    return response;
  }, function () {
    if (!matchPage) { return Response.error(); }
    return kept(address).then(function (found) { return found || Response.error(); });
  }));
});

/* offline_page.js: the page as the tablet shows it after a write (the server's page and the
 * write's answer put together), kept under the login the write's answer was made for when it
 * is the login noted last: the server is not asked for the page again. Otherwise (no login
 * noted yet: the worker did not see the page opened; another login since), the page as the
 * server has it now, asked for once. */
function keepShown(address, page, login) {
  return noted().then(function (last) {
    if (login === NOBODY || login !== last) {
      return fetch(address, {credentials: "same-origin"})
        .then(function (response) { return keep(address, response); }, function () { return null; });
    }
    return caches.open(PAGES).then(function (cache) {
      var response = new Response(page, {headers: {"Content-Type": "text/html; charset=utf-8"}});
      response.headers.set(KEPT_FOR, login);
      return cache.put(address, response).then(function () { return cache.keys(); }).then(function (keys) {
        return Promise.all(keys.slice(0, Math.max(keys.length - MAX_PAGES, 0))
          .map(function (old) { return cache.delete(old); }));
      });
    });
  });
}

self.addEventListener("message", function (event) {
  var address = event.data && event.data.keep;
  var page = event.data && event.data.page;
  var login = event.data && event.data.login;
  if (typeof address !== "string" || typeof page !== "string" || typeof login !== "string") { return; }
  address = pageAddress(new URL(address, self.location.href).href);
  if (new URL(address).origin !== self.location.origin || !MATCH_PAGE.test(new URL(address).pathname)) { return; }
  event.waitUntil(keepShown(address, page, login));
});
