// The wall display: rotates through live rounds, as many boards on a page as fit it (two
// columns on a wide screen), pages through long boards, keeps a clock, and says so when the
// data on screen is stale.
(function () {
  "use strict";
  var body = document.body;
  var pinned = body.getAttribute("data-pinned") || "";
  var pageSeconds = Math.max(3, parseInt(body.getAttribute("data-page-seconds"), 10) || 10);
  var boards = document.getElementById("tv-boards");
  var stale = document.getElementById("tv-stale");
  var staleTime = document.getElementById("tv-stale-time");
  var clock = document.getElementById("tv-clock");

  // The rotation: a list of pages. On a wide screen a page has two columns, each holding as
  // many boards, one below the other, as fit its height (each board goes to the shorter
  // column); a board that needs the whole width has a page of its own. A board too long for a column is split into runs of rows, each run
  // on a later page than the one before.
  var slides = [];
  var current = 0;
  var lastData = new Date();
  var downSince = null;

  function allSections() {
    return Array.prototype.slice.call(boards.querySelectorAll(".tv-round"));
  }

  function sections() {
    var all = allSections();
    if (pinned) {
      var only = all.filter(function (r) { return r.getAttribute("data-round") === pinned; });
      if (only.length) return only;
    }
    return all;
  }

  function rowsOf(section) {
    return Array.prototype.slice.call(section.querySelectorAll("tbody tr"));
  }

  // The room the boards have: two columns on a landscape screen wide enough for two boards,
  // one otherwise; as tall as the screen below the top bar.
  function room() {
    var holder = boards.querySelector(".tv-boards") || boards;
    var width = holder.clientWidth;
    var columns = window.innerWidth >= 1200 && window.innerWidth >= 1.4 * window.innerHeight ? 2 : 1;
    var gap = Math.round(window.innerWidth * 0.03);
    return {
      columns: columns, width: width, gap: gap, stack: Math.round(window.innerHeight * 0.035),
      column: columns > 1 ? (width - gap) / 2 : width,
      height: window.innerHeight - holder.getBoundingClientRect().top - 16
    };
  }

  function place(section, left, top, width) {
    section.style.left = left + "px";
    section.style.top = top + "px";
    section.style.width = width + "px";
  }

  // A board needs the whole width when a column of it (other than the names, which end in an
  // ellipsis) does not fit a column: a season's many nights, handicaps and net scores.
  function needsWidth(section) {
    if (section.classList.contains("tv-checkin") || section.classList.contains("tv-empty")) return true;
    return Array.prototype.some.call(section.querySelectorAll("th, td"), function (cell) {
      return !cell.classList.contains("name") && cell.scrollWidth > cell.clientWidth + 1;
    });
  }

  // A board measured alone at the top of the screen: whether it needs the whole width, and
  // its rows split into runs that each fit the screen's height below its header.
  function measure(section, space, all) {
    all.forEach(function (other) { other.classList.toggle("tv-active", other === section); });
    var rows = rowsOf(section);
    rows.forEach(function (row) { row.classList.remove("tv-hidden"); });
    place(section, 0, 0, space.column);
    var wide = space.columns > 1 && needsWidth(section);
    if (wide) place(section, 0, 0, space.width);
    var box = section.getBoundingClientRect();
    if (!section.querySelector("table") || rows.length === 0) return { wide: wide, runs: [{ rows: rows, height: box.height }] };
    var fixed = (rows[0].getBoundingClientRect().top - box.top) + (box.bottom - rows[rows.length - 1].getBoundingClientRect().bottom);
    var runs = [{ rows: [], height: fixed }];
    rows.forEach(function (row) {
      var height = row.getBoundingClientRect().height;
      var run = runs[runs.length - 1];
      if (run.height + height > space.height && run.rows.length > 0) {
        run = { rows: [], height: fixed };
        runs.push(run);
      }
      run.rows.push(row);
      run.height += height;
    });
    // As many runs, evened out: 9 and 8 rows rather than 16 and 1.
    var even = Math.ceil(rows.length / runs.length);
    var evened = [];
    for (var i = 0; i < rows.length; i += even) {
      var part = rows.slice(i, i + even);
      evened.push({ rows: part, height: part.reduce(function (sum, row) { return sum + row.getBoundingClientRect().height; }, fixed) });
    }
    var fits = evened.length === runs.length && evened.every(function (run) { return run.height <= space.height; });
    return { wide: wide, runs: fits ? evened : runs };
  }

  function keyOf(unit) { return unit.board + "#" + unit.run; }

  // Measures every board and packs the rotation's pages, in the boards' order.
  function layout() {
    var shown = (slides[current] || []).map(keyOf);
    var space = room();
    body.classList.toggle("tv-two", space.columns === 2);
    var all = allSections();
    var slide = null;
    slides = [];
    sections().forEach(function (section) {
      var measured = measure(section, space, all);
      measured.runs.forEach(function (run, i) {
        var unit = { section: section, board: section.getAttribute("data-board") || "", rows: run.rows, run: i, runs: measured.runs.length };
        // Into the shortest column of the page that has room for it; else on a new page.
        var column = -1;
        if (slide && !slide.wide && !measured.wide && slide.units.every(function (u) { return u.section !== section; })) {
          slide.heights.forEach(function (height, c) {
            var fits = (height > 0 ? height + space.stack : 0) + run.height <= space.height;
            if (fits && (column < 0 || height < slide.heights[column])) column = c;
          });
        }
        if (column < 0) {
          slide = { wide: measured.wide, units: [], heights: [] };
          for (var c = 0; c < (measured.wide ? 1 : space.columns); c++) slide.heights.push(0);
          slides.push(slide);
          column = 0;
        }
        unit.left = column * (space.column + space.gap);
        unit.top = slide.heights[column] > 0 ? slide.heights[column] + space.stack : 0;
        unit.width = measured.wide ? space.width : space.column;
        slide.units.push(unit);
        slide.heights[column] = unit.top + run.height;
      });
    });
    slides = slides.map(function (s) { return s.units; });
    current = 0;
    slides.forEach(function (s, i) {
      if (s.some(function (unit) { return shown.indexOf(keyOf(unit)) >= 0; }) && current === 0) current = i;
    });
    document.documentElement.dataset.tvPages = String(slides.length);
  }

  // A check-in link on one line: smaller until it fits; only when it cannot, wrapped, and
  // then only after a '/'.
  function fitLinks(section) {
    section.querySelectorAll(".tv-checkin-link").forEach(function (link) {
      link.style.fontSize = "";
      link.classList.remove("tv-wrap");
      var size = parseFloat(window.getComputedStyle(link).fontSize);
      var least = window.innerHeight * 0.03;
      while (link.scrollWidth > link.clientWidth + 1 && size > least) {
        size = Math.max(least, size * 0.92);
        link.style.fontSize = size + "px";
      }
      if (link.scrollWidth > link.clientWidth + 1) link.classList.add("tv-wrap");
    });
  }

  function show() {
    var all = allSections();
    if (slides.length === 0) {
      all.forEach(function (section) { section.classList.remove("tv-active"); });
      return;
    }
    if (current >= slides.length) current = 0;
    var slide = slides[current];
    all.forEach(function (section) {
      var unit = slide.filter(function (u) { return u.section === section; })[0];
      section.classList.toggle("tv-active", !!unit);
      if (!unit) return;
      place(section, unit.left, unit.top, unit.width);
      rowsOf(section).forEach(function (row) { row.classList.toggle("tv-hidden", unit.rows.indexOf(row) < 0); });
      var indicator = section.querySelector(".tv-page-indicator");
      if (indicator) indicator.textContent = unit.runs > 1 ? "Page " + (unit.run + 1) + " of " + unit.runs : "";
      fitLinks(section);
    });
    document.documentElement.dataset.tvPage = String(current + 1);
  }

  function relayout() {
    layout();
    show();
  }

  function advance() {
    if (slides.length === 0) return;
    current = (current + 1) % slides.length;
    show();
  }

  function tick() {
    clock.textContent = window.HyzerLive.hhmm(new Date());
    // Stale after a few seconds without a live stream; recovers on the next message.
    if (downSince && new Date() - downSince > 3000) {
      staleTime.textContent = window.HyzerLive.hhmm(lastData);
      if (stale.hidden) {
        stale.hidden = false;
        body.classList.add("is-stale");
        // The banner takes room from the boards: measure them again below it.
        relayout();
      }
    }
  }

  // A check-in link without the club's configured address is on this screen's address. The
  // link may break after a '/' and nowhere else.
  function fillOrigins() {
    boards.querySelectorAll("[data-origin]").forEach(function (node) {
      if (!node.textContent) node.textContent = window.location.origin;
    });
    boards.querySelectorAll(".tv-checkin-link").forEach(function (link) {
      if (link.querySelector("wbr")) return;
      var parts = link.textContent.split("/");
      link.textContent = "";
      parts.forEach(function (part, i) {
        link.appendChild(document.createTextNode(part + (i < parts.length - 1 ? "/" : "")));
        if (i < parts.length - 1) link.appendChild(document.createElement("wbr"));
      });
    });
  }

  window.HyzerLive.connect("/tv/events", {
    tv: function (html) {
      lastData = new Date();
      window.HyzerLive.applyBoards(boards, html);
      fillOrigins();
      relayout();
    }
  }, function (state) {
    if (state === "open") {
      downSince = null;
      stale.hidden = true;
      body.classList.remove("is-stale");
    } else if (!downSince) {
      downSince = new Date();
    }
  });

  fillOrigins();
  relayout();
  // Pages are counted from row heights: count again once the fonts are in, then say so.
  (document.fonts ? document.fonts.ready : Promise.resolve()).then(function () {
    relayout();
    document.documentElement.dataset.tvLayout = "ready";
  });
  tick();
  setInterval(tick, 1000);
  setInterval(advance, pageSeconds * 1000);
  window.addEventListener("resize", relayout);
  // What the rotation is, for a look from the outside: each page's boards (and run of rows).
  window.HyzerTV = {
    rotation: function () {
      return slides.map(function (slide) { return slide.map(keyOf); });
    }
  };
})();
