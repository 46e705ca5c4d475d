/* The entry page kept for a reload offline: the service worker (offline-worker.js, whose
 * address is the script tag's data-worker) registered for the whole site, and given the page
 * as the tablet now shows it a moment after each write the server answered with a 200, once
 * no write of the match waits in the tablet's queue (queue.js). The page is the server's
 * answers put together (the page opened, each write's answer swapped into #match), so it is
 * kept without asking the server for it again: a tablet's write costs the server its write
 * alone. The worker keeps it for this login only, with at most a few others.
 * The first time, the worker runs the page only once it has started (controllerchange): the
 * page is then kept as the server has it (the worker asks for it once), so that a tablet that
 * saved a turn in its first seconds, then lost the network and reloaded, finds its page. */
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

  // login: the one the write's answer was made for (X-Kept-For): the worker keeps the page
  // under it only if it is the login it noted last, and otherwise asks the server for it
  function keepPage(login) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker || navigator.onLine === false || !onEntryPage()) { return; }
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      if (!onEntryPage()) { return; }
      worker.postMessage({
        keep: new URL(window.location.pathname, window.location.origin).href,
        page: "<!DOCTYPE html>\n" + document.documentElement.outerHTML,
        login: login,
      });
    }, 1500);
  }

  // the worker now runs this page (the first time: it started after the page opened): the
  // page kept as the server has it ("-": no login named, the worker asks the server)
  function workerStarted() { keepPage("-"); }

  document.addEventListener("DOMContentLoaded", keepWorker);
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("controllerchange", workerStarted);
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    var queue = window.triominosQueue;
    var detail = event.detail;
    if (detail && detail.target && detail.target.id === "match" &&
        detail.xhr && detail.xhr.status === 200 && !(queue && queue.waiting())) {
      keepPage(detail.xhr.getResponseHeader("X-Kept-For") || "");
    }
  });
})();
