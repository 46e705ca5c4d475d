/* The tablet's side of "never lost, never entered twice".
 *
 * 1. Every submission of a form of the match pages carries a key made here (hidden input
 *    `submission_key`): the server keeps the key of each saved write and answers the same key
 *    sent again with "already saved". The key stays on the form until an answer arrives, so a
 *    save tapped again after a network error is the same submission, never a second turn.
 * 2. A turn saved while the server cannot be reached (a network error, no answer) is kept on
 *    the tablet (localStorage: it survives a reload), shown as "waiting to send" with a count,
 *    and the turns entered meanwhile join the queue behind it. When the server answers again
 *    they are sent in order, each with its key; each next one is sent at the revision the
 *    previous answer gave. A refusal (an illegal turn, another tablet's save in between)
 *    stops the queue and shows that answer: the turns behind it are dropped, and said so.
 */
(function () {
  "use strict";

  var STORE = "triominos.send-queue";
  var RETRY_MS = 3000;
  var script = document.currentScript;
  var sending = false;

  function text(name, fallback) {
    return (script && script.getAttribute("data-" + name)) || fallback;
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function load() {
    try { return JSON.parse(window.localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }

  function store(queue) {
    window.localStorage.setItem(STORE, JSON.stringify(queue));
    show(queue);
  }

  function show(queue) {
    var match = document.getElementById("match");
    if (!match) { return; }
    var note = document.getElementById("send-queue");
    if (!queue.length) {
      if (note) { note.remove(); }
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.id = "send-queue";
      note.className = "message";
      note.setAttribute("role", "status");
      match.insertBefore(note, match.firstChild);
    }
    note.setAttribute("data-count", String(queue.length));
    note.textContent = text("waiting", "Turns waiting to send: {count}.")
      .replace("{count}", String(queue.length));
    var offline = match.querySelector(".offline");
    if (offline) { offline.remove(); }
  }

  function isTurnAdd(url) {
    return /\/matches\/\d+\/turns\/$/.test(new URL(url, window.location.href).pathname);
  }

  /* The key of a form's submission: made on its first submit, kept until an answer. */
  function keyInput(form) {
    var input = form.querySelector("input[name=submission_key]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = "submission_key";
      form.appendChild(input);
    }
    if (!input.value) { input.value = newKey(); }
    return input;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form && form.method && form.method.toLowerCase() === "post") { keyInput(form); }
  }, true);

  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    if (!form || event.detail.verb !== "post") { return; }
    if (!(form.getAttribute("hx-post") || "").length) { return; }
    if (/\/preview\/$/.test(event.detail.path)) { return; }  // a preview writes nothing
    event.detail.parameters.submission_key = keyInput(form).value;
    if (load().length && isTurnAdd(event.detail.path)) {
      // turns wait behind the queue: they are sent after it, in order
      event.preventDefault();
      enqueue(event.detail.path, event.detail.formData);
      handedOver(form);
      flush();
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    if (form && xhr && xhr.status) {  // an answer came: the next submission is a new one
      var input = form.querySelector("input[name=submission_key]");
      if (input) { input.value = ""; }
    }
  });

  document.addEventListener("htmx:sendError", function (event) {
    var config = event.detail.requestConfig;
    if (!config || config.verb !== "post" || !isTurnAdd(config.path)) { return; }
    enqueue(config.path, config.formData);
    var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    if (form) { handedOver(form); }
  });

  /* The queue has the form's submission, with its key: the form's next one is a new one. */
  function handedOver(form) {
    form.reset();
    var input = form.querySelector("input[name=submission_key]");
    if (input) { input.value = ""; }
  }

  function enqueue(url, formData) {
    var fields = [];
    formData.forEach(function (value, name) { fields.push([name, String(value)]); });
    var queue = load();
    queue.push({url: url, fields: fields, at: Date.now()});
    store(queue);
  }

  function replaceMatch(html) {
    var current = document.getElementById("match");
    if (!current) { return; }
    if (window.htmx && window.htmx.swap) {  // keeps the rounds sent as placeholders (hx-preserve)
      window.htmx.swap(current, html, {swapStyle: "outerHTML"});
      var swapped = document.getElementById("match");
      document.dispatchEvent(new CustomEvent("htmx:afterSwap", {detail: {target: swapped}}));
      return;
    }
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#match");
    if (!fresh) { return; }
    current.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
    document.dispatchEvent(new CustomEvent("htmx:afterSwap", {detail: {target: fresh}}));
  }

  function revisionOf(html) {
    var found = /id="match"[^>]*data-revision="(\d+)"/.exec(html);
    return found ? found[1] : null;
  }

  function flush() {
    if (sending) { return; }
    var retry = RETRY_MS;
    var queue = load();
    if (!queue.length) { return; }
    sending = true;
    var item = queue[0];
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"},
    }).then(function (response) {
      retry = 0;
      return response.text().then(function (html) {
        var rest = load().slice(1);
        if (response.ok) {
          var revision = revisionOf(html);
          if (revision !== null && rest.length) {  // the next turn follows this one
            rest[0].fields = rest[0].fields.map(function (pair) {
              return pair[0] === "revision" ? ["revision", revision] : pair;
            });
          }
          store(rest);
          if (!rest.length) { replaceMatch(html); }
        } else {
          store([]);
          replaceMatch(html);
          if (rest.length) {
            var note = document.createElement("p");
            note.className = "message message--error";
            note.id = "send-queue-dropped";
            note.setAttribute("role", "alert");
            note.textContent = text("dropped", "Turns entered after it and not sent: {count}. Enter them again.")
              .replace("{count}", String(rest.length));
            var match = document.getElementById("match");
            if (match) { match.insertBefore(note, match.firstChild); }
          }
        }
      });
    }).catch(function () {
      /* still unreachable: kept, tried again later */
    }).then(function () {
      sending = false;
      if (load().length) { window.setTimeout(flush, retry); }
    });
  }

  window.addEventListener("online", flush);
  window.setInterval(function () { if (load().length) { flush(); } }, RETRY_MS);
  document.addEventListener("DOMContentLoaded", function () {
    show(load());
    flush();
  });
  document.addEventListener("htmx:afterSwap", function () { show(load()); });
})();
