/* The entry page kept for a reload offline: the service worker (offline-worker.js, whose
 * address is the script tag's data-worker) registered for the whole site, and asked to keep
 * the page as the server now has it a moment after each write the server answered, once no
 * write of the match waits in the tablet's queue (queue.js). The worker keeps it for this
 * login only, with at most a few others. */
(function () {
  "use strict";
  var script = document.currentScript;
  var timer = null;

  function onEntryPage() { return Boolean(document.querySelector(".match-page--entry")); }

  function keepWorker() {
    var worker = script && script.getAttribute("data-worker");
    if (!worker || !navigator.serviceWorker || !onEntryPage()) { return; }
    navigator.serviceWorker.register(worker, {scope: "/"}).catch(function () {});
  }

  function keepPage() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker || navigator.onLine === false || !onEntryPage()) { return; }
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      worker.postMessage({keep: new URL(window.location.pathname, window.location.origin).href});
    }, 1500);
  }

  document.addEventListener("DOMContentLoaded", keepWorker);
  document.addEventListener("htmx:afterSwap", function (event) {
    var queue = window.triominosQueue;
    if (event.detail && event.detail.target && event.detail.target.id === "match" &&
        !(queue && queue.waiting())) { keepPage(); }
  });
})();
