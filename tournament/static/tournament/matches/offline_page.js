/* The entry page kept for a reload offline: the service worker (offline-worker.js, whose
 * address is the script tag's data-worker) registered for the whole site, and the page as the
 * server now has it put in the worker's cache a moment after each write the server answered,
 * once no write of the match waits in the tablet's queue (queue.js). */
(function () {
  "use strict";
  var PAGES = "triominos-entry-v1";  // the cache offline-worker.js answers from
  var script = document.currentScript;
  var timer = null;

  function onEntryPage() { return Boolean(document.querySelector(".match-page--entry")); }

  function keepWorker() {
    var worker = script && script.getAttribute("data-worker");
    if (!worker || !navigator.serviceWorker || !onEntryPage()) { return; }
    navigator.serviceWorker.register(worker, {scope: "/"}).catch(function () {});
  }

  function keepPage() {
    if (!window.caches || navigator.onLine === false || !onEntryPage()) { return; }
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      var address = new URL(window.location.pathname, window.location.origin).href;
      fetch(address, {credentials: "same-origin"}).then(function (response) {
        if (response.ok && !response.redirected) {
          return window.caches.open(PAGES).then(function (cache) { return cache.put(address, response); });
        }
        return null;
      }).catch(function () {});
    }, 1500);
  }

  document.addEventListener("DOMContentLoaded", keepWorker);
  document.addEventListener("htmx:afterSwap", function (event) {
    var queue = window.triominosQueue;
    if (event.detail && event.detail.target && event.detail.target.id === "match" &&
        !(queue && queue.waiting())) { keepPage(); }
  });
})();
