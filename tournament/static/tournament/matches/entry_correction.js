/* The correction and insertion pages' table (correct.html, insert.html): the cells the tile
   typed fits, and the ways it is turned there, drawn. */
(function (entry) {
  "use strict";
  var tileName = entry.tileName;
  var boardCells = entry.boardCells;
  var keepInView = entry.keepInView;
  var miniTile = entry.miniTile;

  // The correction and insertion pages: the table before the turn. The tile typed lights the
  // cells it fits; a tap (or Enter) on one fills the cell, and the ways the tile fits there
  // are offered, drawn; one tap fills the corners. Typing the cell and corners still works.
  function initCorrection(root) {
    var board = root.querySelector("#board[data-fits]");
    var form = root.querySelector("form.turn-edit");
    if (!board || !form) { return; }
    var fits = {};
    try { fits = JSON.parse(board.dataset.fits || "{}"); } catch (e) { fits = {}; }
    var tileInput = form.querySelector("#id_tile");
    var cellInput = form.querySelector("#id_cell");
    var cornersInput = form.querySelector("#id_corners");
    var choice = root.querySelector("#orientation-choice");
    var options = choice.querySelector(".orientation-options");
    var cells = Array.prototype.slice.call(board.querySelectorAll("polygon.open"));
    var picker = boardCells(board, function (cell) {
      cellInput.value = cell;
      update();
      var first = options.querySelector("input");
      if (first) { first.focus({ preventScroll: true }); keepInView(first); }
    });


    function update() {
      var tile = tileName(tileInput.value);
      var here = tile ? (fits[tile] || {}) : null;
      cells.forEach(function (polygon) {
        var cell = polygon.getAttribute("data-cell");
        polygon.classList.toggle("fits", !!here && cell in here);
        polygon.classList.toggle("nofit", !!here && !(cell in here));
        polygon.classList.toggle("picked", cell === cellInput.value.replace(/\s+/g, "").toUpperCase());
      });
      picker.refresh();
      var ways = here ? (here[cellInput.value.replace(/\s+/g, "").toUpperCase()] || []) : [];
      options.innerHTML = "";
      ways.forEach(function (corners) {
        var label = document.createElement("label");
        label.className = "orientation";
        var radio = document.createElement("input");
        radio.type = "radio";
        radio.name = "orientation-choice";
        radio.value = corners;
        radio.checked = corners === cornersInput.value.replace(/\s+/g, "");
        radio.setAttribute("aria-label", corners);
        label.appendChild(radio);
        label.insertAdjacentHTML("beforeend", miniTile(board.querySelector('polygon.open[data-cell="' + cellInput.value.replace(/\s+/g, "").toUpperCase() + '"]'), corners));
        options.appendChild(label);
      });
      if (ways.length === 1) { cornersInput.value = ways[0]; options.querySelector("input").checked = true; }
      choice.hidden = !ways.length;
    }

    options.addEventListener("change", function (event) {
      if (event.target.name === "orientation-choice") { cornersInput.value = event.target.value; }
    });
    tileInput.addEventListener("input", update);
    cellInput.addEventListener("input", update);
    cornersInput.addEventListener("input", update);
    update();
  }

  entry.initCorrection = initCorrection;
})(window.TriominosEntry = window.TriominosEntry || {});
