/* Logging out never drops a turn unasked. The logout's answer erases what the browser kept
 * (Clear-Site-Data: the service worker's pages, localStorage and with it the queues of
 * matches/queue.js). So while turns wait in a queue, the header's Log out button leads to the
 * logout page (GET /logout/) instead of logging out, and that page lists them by match: a
 * link to each match, where they are sent by themselves, or #logout-discard, which drops
 * them and logs out. */
(function () {
  "use strict";
  var PREFIX = "triominos.queue.";  // queue.js: one queue per match

  /* The queues that hold a write: [{id, page, count}], page the match's address. */
  function waiting() {
    var found = [];
    try {
      for (var i = 0; i < window.localStorage.length; i++) {
        var name = window.localStorage.key(i);
        if (!name || name.indexOf(PREFIX) !== 0) { continue; }
        var queue = JSON.parse(window.localStorage.getItem(name) || "[]");
        if (!Array.isArray(queue) || !queue.length) { continue; }
        var path = new URL(queue[0].url, window.location.href).pathname;
        var page = /^(.*\/matches\/\d+\/)/.exec(path);
        found.push({id: name.slice(PREFIX.length), page: page ? page[1] : null, count: queue.length});
      }
    } catch (e) { return found; }
    return found;
  }

  function show(list) {
    var box = document.getElementById("logout-pending");
    var items = document.getElementById("logout-pending-matches");
    if (!box || !items) { return; }
    items.textContent = "";
    list.forEach(function (queue) {
      var item = document.createElement("li");
      var text = (box.getAttribute("data-match") || "{id}: {count}")
        .replace("{id}", queue.id).replace("{count}", String(queue.count));
      item.setAttribute("data-match", queue.id);
      if (queue.page) {
        var link = document.createElement("a");
        link.href = queue.page;
        link.textContent = text;
        item.appendChild(link);
      } else {
        item.textContent = text;
      }
      items.appendChild(item);
    });
    box.hidden = false;
    var plain = document.getElementById("logout-submit");
    if (plain) { plain.hidden = true; }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.logout, #logout-form")) { return; }
    var list = waiting();
    if (!list.length) { return; }
    if (form.id === "logout-form" && event.submitter && event.submitter.id === "logout-discard") {
      list.forEach(function (queue) { window.localStorage.removeItem(PREFIX + queue.id); });
      return;
    }
    event.preventDefault();
    if (form.id === "logout-form") { show(list); } else { window.location.assign(form.action); }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var list = waiting();
    if (list.length) { show(list); }
  });
})();
