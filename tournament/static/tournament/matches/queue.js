/* The tablet's side of "never lost, never entered twice": one queue per match.
 *
 * 1. Every write from the match pages carries a key made here (hidden input
 *    `submission_key`): the server keeps the key of each saved write and answers the same key
 *    sent again with "already saved" (header X-Submission). The key stays with the write
 *    until its own answer arrives.
 * 2. A write the server did not answer (a network error, a timeout, a 5xx, a login that
 *    expired) is kept on the tablet in its match's queue (localStorage
 *    "triominos.queue.<match id>": it survives a reload and is shared by the tabs), shown in
 *    the page with each write waiting; the writes entered meanwhile join the queue behind it.
 * 3. One sender at a time per match across the tabs (the Web Locks API, or a lease kept in
 *    localStorage where it is missing) sends the queue in order, each write with its key;
 *    each is removed only by its own answer (its key), never by its position:
 *    - saved or already saved: removed; the write queued after it is sent at the revision
 *      this answer gives (X-Match-Revision);
 *    - refused (400, 403, 404) or stale (409): kept, shown refused with the server's reason
 *      and what the referee can do; the page is brought to the match as the server has it
 *      (pending.js draws no queued turn from the first refused one on); the referee sends it
 *      again or discards it; the writes behind it wait, and the next one is then sent at the
 *      revision of the match shown;
 *    - no answer, a timeout or a 5xx: kept, tried again later (1 s, 2 s, 4 s ... 30 s);
 *    - 401 (the login expired): everything kept; the page offers to log in again in a new
 *      tab, and the queue is sent once the login is back.
 * A write joins the queue only if no listener of "entry:before-queue" (turn_check.js: the
 * server's rules on a turn) cancels it: a turn the server would refuse is refused on the spot.
 * The page's texts come from the script tag's data-* attributes (_queue_script.html). The
 * page itself is kept for a reload offline by offline_page.js. Its tests:
 * tests/js/queue.test.js (Node's test runner, run by tests/tournament/matches/test_scripts_js.py).
 */
(function () {
  "use strict";

  var PREFIX = "triominos.queue.";
  var LEASE = "triominos.queue-lease.";
  var OLD_STORE = "triominos.send-queue";
  var TIMEOUT_MS = 15000;
  var FIRST_RETRY_MS = 1000;
  var LAST_RETRY_MS = 30000;
  var script = document.currentScript;
  var tab = newKey();
  var senders = {};  // by match id: {running, delay, timer}
  var problem = {};  // by match id: "offline" or the login page's address, while it lasts

  function text(name, fallback) {
    return (script && script.getAttribute("data-" + name)) || fallback;
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function matchOf(url) {
    var found = /\/matches\/(\d+)\//.exec(new URL(url, window.location.href).pathname);
    return found ? found[1] : null;
  }

  function pageMatch() {
    var match = document.getElementById("match");
    return match ? matchOf(window.location.href) : null;
  }

  function load(id) {
    try { return JSON.parse(window.localStorage.getItem(PREFIX + id) || "[]"); } catch (e) { return []; }
  }

  /* Read, change and write the queue at once (another tab may have changed it meanwhile). */
  function change(id, how) {
    var queue = load(id);
    queue = how(queue) || queue;
    if (queue.length) { window.localStorage.setItem(PREFIX + id, JSON.stringify(queue)); }
    else { window.localStorage.removeItem(PREFIX + id); }
    if (id === pageMatch()) { show(); }
    return queue;
  }

  function field(item, name) {
    var pair = item.fields.filter(function (p) { return p[0] === name; })[0];
    return pair ? pair[1] : "";
  }

  function setField(item, name, value) {
    item.fields = item.fields.filter(function (p) { return p[0] !== name; }).concat([[name, String(value)]]);
  }

  function queuedMatches() {
    var ids = [];
    for (var i = 0; i < window.localStorage.length; i++) {
      var name = window.localStorage.key(i);
      if (name && name.indexOf(PREFIX) === 0) { ids.push(name.slice(PREFIX.length)); }
    }
    return ids;
  }

  /* The one queue of earlier versions, for every match: each write to its match's queue. */
  function migrate() {
    var old;
    try { old = JSON.parse(window.localStorage.getItem(OLD_STORE) || "[]"); } catch (e) { old = []; }
    old.forEach(function (item) {
      var id = matchOf(item.url);
      if (!id) { return; }
      item.key = field(item, "submission_key") || newKey();
      item.state = "waiting";
      change(id, function (queue) { queue.push(item); });
    });
    window.localStorage.removeItem(OLD_STORE);
  }

  /* True when a listener (turn_check.js) refuses the write before it is queued. */
  function refusedBeforeQueue(url, formData, form) {
    var check = new CustomEvent("entry:before-queue", {cancelable: true, bubbles: true, detail: {url: url, formData: formData, form: form || null}});
    return !(form || document).dispatchEvent(check);
  }

  /* The write queued behind the others (false: refused on the spot, not queued). */
  function enqueue(url, formData, form) {
    var id = matchOf(url);
    if (!id) { return false; }
    if (refusedBeforeQueue(url, formData, form)) { show(); return false; }
    var fields = [];
    formData.forEach(function (value, name) { fields.push([name, String(value)]); });
    var item = {url: url, fields: fields, at: Date.now(), state: "waiting"};
    item.key = field(item, "submission_key") || newKey();
    setField(item, "submission_key", item.key);
    change(id, function (queue) {
      if (queue.some(function (other) { return other.key === item.key; })) { return; }
      item.after = queue.length ? queue[queue.length - 1].key : null;
      queue.push(item);
    });
    flush(id);
    return true;
  }

  function csrfToken() {
    var found = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
    return found ? decodeURIComponent(found[1]) : null;
  }

  /* -- sending: one sender per match across the tabs ------------------------------------ */

  function exclusive(id, work) {
    if (navigator.locks && navigator.locks.request) {
      return navigator.locks.request(PREFIX + id, function () { return work(); });
    }
    var lease;
    try { lease = JSON.parse(window.localStorage.getItem(LEASE + id) || "null"); } catch (e) { lease = null; }
    if (lease && lease.tab !== tab && lease.until > Date.now()) { return Promise.resolve(); }
    var hold = function () {
      window.localStorage.setItem(LEASE + id, JSON.stringify({tab: tab, until: Date.now() + TIMEOUT_MS + 5000}));
    };
    hold();
    return work(hold).then(function () { window.localStorage.removeItem(LEASE + id); });
  }

  function flush(id) {
    var sender = senders[id] = senders[id] || {running: false, delay: FIRST_RETRY_MS, timer: null};
    if (sender.running) { return; }
    window.clearTimeout(sender.timer);
    sender.running = true;
    exclusive(id, function (hold) { return drain(id, hold); }).catch(function () {
      return "retry";
    }).then(function () {
      sender.running = false;
      var head = load(id)[0];
      if (head && head.state === "waiting") {  // kept: tried again later, each time later
        sender.timer = window.setTimeout(function () { flush(id); }, sender.delay);
        sender.delay = Math.min(sender.delay * 2, LAST_RETRY_MS);
      }
    });
  }

  /* Send the queue's head, then the next, until it is empty, refused or unanswered. */
  function drain(id, hold) {
    var item = load(id)[0];
    if (!item || item.state !== "waiting") { return Promise.resolve(); }
    if (hold) { hold(); }
    return send(id, item).then(function (next) {
      if (next) {
        senders[id].delay = FIRST_RETRY_MS;
        return drain(id, hold);
      }
      return null;
    });
  }

  function send(id, item) {
    var body = new URLSearchParams();
    var token = csrfToken();  // a login in another tab renews it
    item.fields.forEach(function (pair) {
      body.append(pair[0], pair[0] === "csrfmiddlewaretoken" && token ? token : pair[1]);
    });
    var headers = {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"};
    if (token) { headers["X-CSRFToken"] = token; }
    var abort = new AbortController();
    var timer = window.setTimeout(function () { abort.abort(); }, TIMEOUT_MS);
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", headers: headers,
      redirect: "manual", signal: abort.signal,
    }).then(function (response) {
      return response.text().then(function (html) { return answered(id, item, response, html); });
    }, function () {
      problem[id] = "offline";
      show();
      return false;
    }).then(function (next) {
      window.clearTimeout(timer);
      return next;
    });
  }

  function announcement(response) {
    try {
      return JSON.parse(response.headers.get("HX-Trigger-After-Settle") || "{}")["entry-announce"] || null;
    } catch (e) { return null; }
  }

  /* What the answer says of the write: true when the next write may be sent. */
  function answered(id, item, response, html) {
    var status = response.status;
    var said = announcement(response);
    if (status === 401 || response.type === "opaqueredirect") {
      problem[id] = response.headers.get("X-Login-Url") || text("login-url", "/login/");
      show();
      return false;
    }
    if (status >= 500 || status === 0 || status === 408 || status === 429) {
      problem[id] = "offline";
      show();
      return false;
    }
    delete problem[id];
    if (response.ok) {
      var revision = response.headers.get("X-Match-Revision");
      var queue = change(id, function (queue) {
        queue = queue.filter(function (other) { return other.key !== item.key; });
        queue.forEach(function (other) {  // the write entered after this one follows it
          if (other.after === item.key && revision !== null) { setField(other, "revision", revision); }
        });
        return queue;
      });
      if (!queue.length) { replaceMatch(id, html, said); } else if (id === pageMatch()) {
        document.dispatchEvent(new CustomEvent("entry:saved", {detail: {html: html}}));  // pending.js
      }
      return true;
    }
    var stale = status === 409 || response.headers.get("X-Submission") === "stale";
    var reason = stale ? text("stale", "Refused: the match was changed on another tablet (a turn saved there, a correction, a confirmation, the practice table started again) before this turn arrived, so it was not saved.")
      : (said && said.text) || text("refused-status", "Refused by the server ({status}).").replace("{status}", String(status));
    change(id, function (queue) {
      queue.forEach(function (other) {
        if (other.key === item.key) {
          other.state = "refused";
          other.refusal = stale ? "stale" : "refused";
          other.reason = reason;
        }
      });
    });
    // the page brought to the match as the server has it: a stale answer is that match; a
    // refused one is the match with this write's values in its form, so it is asked for again
    if (stale) { replaceMatch(id, html, null); } else { refreshMatch(id); }
    if (id === pageMatch()) {
      document.body.dispatchEvent(new CustomEvent("entry-announce", {bubbles: true, detail: {
        kind: stale ? "stale" : "refused", text: reason + " " + help(stale ? "stale" : "refused")}}));
    }
    return false;
  }

  /* What the referee can do about a refused write. */
  function help(refusal) {
    return refusal === "stale"
      ? text("stale-help", "The page now shows the match as the server has it. If the turn still stands, send it again: it is checked against the match as it is now. Otherwise discard it.")
      : text("refused-help", "The page now shows the match as the server has it. Discard this turn and enter it again, corrected, in the form.");
  }

  function replaceMatch(id, html, said) {
    var current = document.getElementById("match");
    if (!current || id !== pageMatch() || html.indexOf('id="match"') < 0) { return; }
    if (window.htmx && window.htmx.swap) {  // keeps the rounds sent as placeholders (hx-preserve)
      window.htmx.swap(current, html, {swapStyle: "outerHTML"});
    } else {
      var holder = document.createElement("div");
      holder.innerHTML = html;
      current.replaceWith(holder.querySelector("#match"));
    }
    var swapped = document.getElementById("match");
    document.dispatchEvent(new CustomEvent("htmx:afterSwap", {detail: {target: swapped}}));
    if (said) { document.body.dispatchEvent(new CustomEvent("entry-announce", {detail: said, bubbles: true})); }
  }

  /* The match shown again as the server has it (another tab sent the last write, or the
     queue stopped on a refused one). */
  function refreshMatch(id) {
    var match = document.getElementById("match");
    if (id !== undefined && id !== pageMatch()) { return; }
    if (match && window.htmx) {
      window.htmx.ajax("GET", window.location.pathname, {target: "#match", swap: "outerHTML"});
    }
  }

  /* -- the page: the queue shown, the referee's choices ---------------------------------- */

  /* What a write is: "turn", "pass", "racks" (a round's end) or "other". */
  function kind(item) {
    var path = new URL(item.url, window.location.href).pathname;
    if (/\/turns\/$/.test(path)) { return item.fields.some(function (p) { return p[0] === "pass"; }) ? "pass" : "turn"; }
    return /\/rounds\/\d+\/end\/$/.test(path) ? "racks" : "other";
  }

  function describe(item) {
    var path = new URL(item.url, window.location.href).pathname;
    if (/\/turns\/$/.test(path)) {
      if (item.fields.some(function (p) { return p[0] === "pass"; })) {
        return text("pass", "Draws {draws} and passes").replace("{draws}", field(item, "draws") || "0");
      }
      return text("turn", "Tile {tile} at {cell}, {points} points").replace("{tile}", field(item, "tile"))
        .replace("{cell}", field(item, "cell")).replace("{points}", field(item, "claimed"));
    }
    var ends = /\/rounds\/(\d+)\/end\/$/.exec(path);
    if (ends) { return text("racks", "The racks of round {round}").replace("{round}", ends[1]); }
    return text("other", "A change to the match");
  }

  function show() {
    var match = document.getElementById("match");
    var id = pageMatch();
    if (!match || !id) { return; }
    var queue = load(id);
    var panel = document.getElementById("send-queue");
    document.dispatchEvent(new CustomEvent("entry:queue-changed"));  // pending.js draws it
    if (!queue.length) {
      if (panel) { panel.remove(); }
      return;
    }
    if (!panel || panel.parentNode !== match) {
      if (panel) { panel.remove(); }
      panel = document.createElement("section");
      panel.id = "send-queue";
      panel.className = "send-queue";
      panel.setAttribute("aria-live", "polite");
      match.insertBefore(panel, match.firstChild);
    }
    var trouble = problem[id] || (navigator.onLine === false ? "offline" : "");
    var refused = queue.some(function (item) { return item.state === "refused"; });
    panel.setAttribute("data-count", String(queue.length));
    panel.setAttribute("data-state", trouble === "offline" ? "offline" : trouble ? "login" : refused ? "refused" : "waiting");
    var html = '<p class="send-queue__count"></p>';
    if (trouble === "offline") { html += '<p class="send-queue__state"></p>'; }
    if (trouble && trouble !== "offline") {
      html += '<p class="send-queue__state send-queue__login"><span></span> <a target="_blank" rel="noopener"></a></p>';
    }
    panel.innerHTML = html + '<ol class="send-queue__items"></ol>';
    panel.querySelector(".send-queue__count").textContent =
      text("waiting", "Turns waiting to send: {count}.").replace("{count}", String(queue.length));
    if (trouble === "offline") { panel.querySelector(".send-queue__state").textContent = text("offline", "No connection."); }
    if (trouble && trouble !== "offline") {
      panel.querySelector(".send-queue__login span").textContent = text("login", "Your login has expired.");
      var link = panel.querySelector(".send-queue__login a");
      link.href = trouble;
      link.textContent = text("login-link", "Log in again");
    }
    var list = panel.querySelector("ol");
    var blocked = false;
    queue.forEach(function (item) {
      var row = document.createElement("li");
      row.setAttribute("data-key", item.key);
      row.setAttribute("data-kind", kind(item));
      row.setAttribute("data-state", item.state === "refused" ? "refused" : blocked ? "blocked" : "waiting");
      row.className = "send-queue__item send-queue__item--" + row.getAttribute("data-state");
      var what = document.createElement("span");
      what.textContent = describe(item);
      row.appendChild(what);
      if (item.state === "refused") {
        row.setAttribute("data-refusal", item.refusal || "refused");
        var why = document.createElement("span");
        why.className = "send-queue__reason";
        why.textContent = item.reason || "";
        row.appendChild(why);
        var next = document.createElement("span");
        next.className = "send-queue__help";
        next.textContent = help(item.refusal);
        row.appendChild(next);
        row.appendChild(button("send-again", text("send-again", "Send again")));
        row.appendChild(button("discard", text("discard", "Discard")));
        blocked = true;
      } else if (blocked) {
        var held = document.createElement("span");
        held.className = "send-queue__help";
        held.textContent = text("held", "Waits behind the refused turn above: it is sent once that one is sent again or discarded.");
        row.appendChild(held);
      }
      list.appendChild(row);
    });
  }

  function button(action, label) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "send-queue__" + action;
    element.setAttribute("data-action", action);
    element.textContent = label;
    return element;
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("#send-queue button[data-action]") : null;
    var id = pageMatch();
    if (!target || !id) { return; }
    var key = target.closest("li").getAttribute("data-key");
    var action = target.getAttribute("data-action");
    var revision = document.getElementById("match").getAttribute("data-revision");
    var queue = change(id, function (queue) {
      if (action === "discard") {
        queue.forEach(function (item) {  // the write entered after it: at the match shown
          if (item.after === key) { item.after = null; if (revision) { setField(item, "revision", revision); } }
        });
        return queue.filter(function (item) { return item.key !== key; });
      }
      queue.forEach(function (item) {
        if (item.key !== key) { return; }
        item.state = "waiting";  // again, at the revision of the match shown now
        item.after = null;
        delete item.reason;
        delete item.refusal;
        if (revision) { setField(item, "revision", revision); }
      });
      return queue;
    });
    if (queue.length) { retryNow(id); } else { refreshMatch(); }
  });

  /* -- the forms' writes ----------------------------------------------------------------- */

  function formOf(element) {
    return element && element.closest ? element.closest("form") : null;
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

  /* The queue has the form's submission, with its key: the form's next one is a new one. */
  function handedOver(form) {
    if (!form) { return; }
    if (form.id === "turn-form") {
      form.reset();
      var preview = form.querySelector("#turn-preview");
      if (preview) { preview.innerHTML = ""; }
      form.querySelectorAll('.tile-button[aria-pressed="true"]').forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
    }
    var input = form.querySelector("input[name=submission_key]");
    if (input) { input.value = ""; }
    var details = form.closest("details[open]");
    if (details) { details.open = false; }
  }

  function isWrite(verb, path) {
    return verb === "post" && !!matchOf(path) && !/\/preview\/$/.test(new URL(path, window.location.href).pathname);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form && form.method && form.method.toLowerCase() === "post") { keyInput(form); }
  }, true);

  document.addEventListener("htmx:configRequest", function (event) {
    var token = csrfToken();
    if (token) { event.detail.headers["X-CSRFToken"] = token; }
    var form = formOf(event.detail.elt);
    if (!form || !isWrite(event.detail.verb, event.detail.path)) { return; }
    event.detail.parameters.submission_key = keyInput(form).value;
    if (token) { event.detail.parameters.csrfmiddlewaretoken = token; }
    if (load(matchOf(event.detail.path)).length) {  // it waits behind the queue, in order
      event.preventDefault();
      if (enqueue(event.detail.path, event.detail.formData, form)) { handedOver(form); }
      return;
    }
    // sent from the page: the answer may leave out what the page shows as it is (its parts
    // marked hx-preserve, which htmx fills with the page's own); a write sent again from the
    // queue says nothing, and its answer is whole
    var shown = document.getElementById("match");
    if (shown && matchOf(event.detail.path) === pageMatch() && shown.getAttribute("data-revision")) {
      event.detail.headers["X-Match-Shown"] = shown.getAttribute("data-revision");
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    var form = formOf(event.detail.elt);
    if (form && xhr && xhr.status && xhr.status !== 401 && xhr.status < 500) {
      var input = form.querySelector("input[name=submission_key]");  // answered: the next
      if (input) { input.value = ""; }                                 // submission is new
    }
  });

  /* No answer, or one that saved nothing for sure (5xx, 401): the write joins the queue. */
  function keep(event) {
    var config = event.detail.requestConfig;
    if (!config || !isWrite(config.verb, config.path)) { return; }
    var xhr = event.detail.xhr;
    var id = matchOf(config.path);
    if (xhr && xhr.status === 401) {
      problem[id] = xhr.getResponseHeader("X-Login-Url") || text("login-url", "/login/");
    } else if (xhr && xhr.status && xhr.status < 500) {
      return;
    } else {
      problem[id] = "offline";
    }
    var form = formOf(event.detail.elt);
    if (enqueue(config.path, config.formData, form)) { handedOver(form); }
  }

  document.addEventListener("htmx:sendError", keep);
  document.addEventListener("htmx:timeout", keep);
  document.addEventListener("htmx:responseError", keep);

  function flushAll() { queuedMatches().forEach(flush); }

  /* Try again now, not after the wait the last failure set. */
  function retryNow(id) {
    var sender = senders[id];
    if (sender) { window.clearTimeout(sender.timer); sender.delay = FIRST_RETRY_MS; }
    flush(id);
  }

  window.addEventListener("online", function () { queuedMatches().forEach(retryNow); });
  window.addEventListener("offline", show);
  window.addEventListener("focus", function () {  // back from logging in, in another tab
    queuedMatches().forEach(function (id) { if (problem[id] && problem[id] !== "offline") { retryNow(id); } });
  });
  window.addEventListener("storage", function (event) {
    var id = pageMatch();
    if (!event.key || !id || event.key !== PREFIX + id) { return; }
    show();
    if (!event.newValue) { refreshMatch(); }  // another tab sent the last one
  });
  document.addEventListener("DOMContentLoaded", function () {
    migrate();
    show();
    flushAll();
  });
  document.addEventListener("htmx:afterSwap", show);
  /* For offline_page.js: how many writes of this page's match wait to be sent; for the
     tests (tests/js/queue.test.js): the queue's own steps. */
  window.triominosQueue = {
    waiting: function () { return load(pageMatch()).length; },
    enqueue: enqueue, flush: flush, retryNow: retryNow, load: load,
  };
})();
