// The card page on a phone. Without this file the page has plain number inputs and each hole
// is a form post. With it: steppers, and scoring that never waits for the network — a saved
// hole goes into the phone's outbox (outbox.js) and the next hole is drawn at once from the
// card the phone keeps, so scoring goes on with no signal and nothing typed is lost.
(function () {
  "use strict";

  var root = document.querySelector(".card-scoring[data-state]");
  var outbox = window.HyzerOutbox;

  function wireSteppers(scope) {
    scope.querySelectorAll(".card-player .stepper").forEach(function (stepper) {
      var input = stepper.querySelector("input");
      stepper.querySelectorAll("button.step").forEach(function (button) {
        button.hidden = input.readOnly;
        if (button.dataset.wired) return;
        button.dataset.wired = "1";
        button.addEventListener("click", function () {
          if (input.readOnly) return;
          var value = parseInt(input.value, 10) || 0;
          input.value = String(Math.min(99, Math.max(1, value + parseInt(button.getAttribute("data-step"), 10))));
        });
      });
    });
  }
  wireSteppers(document);
  if (!root || !outbox) return;

  var state = JSON.parse(root.getAttribute("data-state"));
  var form = root.querySelector("form.card-form");
  var pending = [];
  var hole = null;

  function holeInfo(number) {
    for (var i = 0; i < state.holes.length; i++) if (state.holes[i].number === number) return { hole: state.holes[i], index: i };
    return null;
  }

  function serverScore(playerID, number) {
    for (var i = 0; i < state.scores.length; i++) {
      var s = state.scores[i];
      if (s.playerID === playerID && s.hole === number) return s;
    }
    return null;
  }

  // This phone's newest entry for a player and hole that is still on its way (or refused).
  function queued(playerID, number, refused) {
    var found = null;
    pending.forEach(function (e) {
      if (e.playerID === playerID && e.hole === number && (e.state === "refused") === refused) found = e;
    });
    return found;
  }

  function numeric(strokes) { return typeof strokes === "number" ? strokes : null; }

  // What the phone believes a hole's score is: its own entry on the way, else the server's.
  function result(playerID, number) {
    var mine = queued(playerID, number, false);
    if (mine) return { strokes: mine.strokes, penalties: mine.penalties, mulligans: mine.mulligans || 0 };
    var s = serverScore(playerID, number);
    return s ? { strokes: s.strokes, penalties: s.penalties, mulligans: s.mulligans || 0 } : null;
  }

  // On a mulligan night: "2 of 3 left", counted over what the phone believes, so it moves
  // with entries still waiting to be sent.
  function mulligansLeft(playerID) {
    var player = state.players.filter(function (p) { return p.id === playerID; })[0];
    if (!player || typeof player.mulligans !== "number") return null;
    var used = 0;
    state.holes.forEach(function (h) {
      var r = result(playerID, h.number);
      if (r) used += r.mulligans;
    });
    return (player.mulligans - used) + " of " + player.mulligans + " left";
  }

  function running(playerID) {
    var total = 0, toPar = 0, played = 0, dnf = false;
    state.holes.forEach(function (h) {
      var r = result(playerID, h.number);
      if (!r) return;
      played++;
      var n = numeric(r.strokes);
      if (n === null) { dnf = true; return; }
      total += n + r.penalties;
      toPar += n + r.penalties - h.par;
    });
    if (!played) return "Round so far: – (– to par)";
    var par = dnf ? "DNF" : (toPar === 0 ? "E" : (toPar > 0 ? "+" + toPar : String(toPar)));
    return "Round so far: " + total + " (" + par + " to par)";
  }

  function done(number) {
    return state.players.every(function (p) { return p.withdrawn || result(p.id, number); });
  }

  function scoredByAnyone(number) {
    return state.players.some(function (p) { return !p.withdrawn && result(p.id, number); });
  }

  // The first hole after the last one anyone has scored that is not done (a late arrival's
  // missed holes do not pull the card back to its first tee), else any hole not done.
  function firstOpen() {
    var reached = -1;
    for (var i = 0; i < state.holes.length; i++) if (scoredByAnyone(state.holes[i].number)) reached = i;
    for (var j = reached + 1; j < state.holes.length; j++) if (!done(state.holes[j].number)) return state.holes[j].number;
    for (var k = 0; k < state.holes.length; k++) if (!done(state.holes[k].number)) return state.holes[k].number;
    return state.holes.length ? state.holes[state.holes.length - 1].number : 1;
  }

  // The others on the card have this hole and this player does not: they joined later.
  function missed(playerID, number) {
    return !result(playerID, number) && state.players.some(function (p) { return p.id !== playerID && !p.withdrawn && result(p.id, number); });
  }

  function withdrawn(playerID) {
    return state.players.some(function (p) { return p.id === playerID && p.withdrawn; });
  }

  function signedOf(playerID) {
    return state.players.some(function (p) { return p.id === playerID && p.signed; });
  }

  function render(number) {
    var info = holeInfo(number);
    if (!info) return;
    hole = number;
    var base = "/rounds/" + state.roundID + "/cards/" + state.cardID;
    var head = root.querySelector(".card-head");
    head.querySelector("h1").innerHTML = "";
    head.querySelector("h1").appendChild(document.createTextNode("Hole " + number + " "));
    var par = document.createElement("span");
    par.className = "par";
    par.textContent = "par " + info.hole.par;
    head.querySelector("h1").appendChild(par);
    head.querySelector("p.card-step").textContent = (info.hole.distance ? info.hole.distance + " m · " : "") + (info.index + 1) + " of " + state.holes.length + " for this card";
    document.title = document.title.replace(/hole \d+/, "hole " + number);
    if (form) {
      form.action = base + "/holes/" + number;
      form.querySelectorAll("fieldset.card-player").forEach(function (fieldset) { renderPlayer(fieldset, number, info.hole.par); });
      // Withdrawn when the page was made: their line is where a refused entry of theirs says why.
      form.querySelectorAll(".card-withdrawn[data-player]").forEach(function (line) {
        var refused = queued(line.getAttribute("data-player"), number, true);
        note(line, "refused", "field-error entry-refused", refused ? "Not accepted: " + refused.reason : null, refused);
      });
      var last = info.index === state.holes.length - 1;
      form.querySelector("button.save-hole").textContent = last ? "Save the last hole" : "Save hole " + number + " · next";
    }
    drawHoles(number, info);
  }

  // The hole links and the mismatch line: drawn with each hole, and again when a newer copy
  // of the card arrives while this hole's boxes are left as the scorer is typing them.
  function drawHoles(number, info) {
    var nav = root.querySelector("nav.card-holes");
    var previous = info.index > 0 ? state.holes[info.index - 1].number : null;
    var next = info.index + 1 < state.holes.length ? state.holes[info.index + 1].number : null;
    var links = [];
    if (previous !== null) links.push(["?hole=" + previous, "button secondary", "← Hole " + previous]);
    var disputed = state.holes.filter(function (h) {
      return state.players.some(function (p) { var s = serverScore(p.id, h.number); return !!(s && s.mismatch); });
    }).map(function (h) { return h.number; });
    var warning = root.querySelector(".card-mismatches");
    if (warning) {
      warning.hidden = disputed.length === 0;
      warning.querySelector("span").textContent = disputed.join(", ");
    }
    state.holes.forEach(function (h) {
      var cls = "hole-link" + (h.number === number ? " current" : "") + (done(h.number) ? " done" : "") +
        (state.players.some(function (p) { return queued(p.id, h.number, true); }) ? " refused" : "") +
        (disputed.indexOf(h.number) >= 0 ? " mismatch" : "");
      links.push(["?hole=" + h.number, cls, String(h.number)]);
    });
    if (next !== null) links.push(["?hole=" + next, "button secondary", "Hole " + next + " →"]);
    // Drawn again only when it changed: a link being tapped is not replaced under the finger.
    var signature = JSON.stringify(links);
    if (nav.getAttribute("data-shows") === signature) return;
    nav.setAttribute("data-shows", signature);
    nav.innerHTML = "";
    links.forEach(function (l) { nav.appendChild(link(l[0], l[1], l[2])); });
  }

  function link(href, cls, text) {
    var a = document.createElement("a");
    a.href = href;
    a.className = cls;
    a.textContent = text;
    return a;
  }

  function renderPlayer(fieldset, number, par) {
    var id = fieldset.getAttribute("data-player");
    var strokes = fieldset.querySelector("input[name^=strokes]");
    var penalties = fieldset.querySelector("input[name^=penalties]");
    var mulligans = fieldset.querySelector("input[name^=mulligans]");
    var s = serverScore(id, number);
    var mine = queued(id, number, false) || queued(id, number, true);
    var shown = mine ? { strokes: mine.strokes, penalties: mine.penalties, mulligans: mine.mulligans || 0 }
      : (s ? (s.mine || { strokes: s.strokes, penalties: s.penalties, mulligans: s.mulligans || 0 }) : null);
    var locked = signedOf(id) && !(state.viewer && state.viewer.coach);
    // Withdrawn since the page was made: no entry is sent for them, and the box stays only to
    // say why an entry this phone kept for them was refused.
    fieldset.hidden = withdrawn(id) && !queued(id, number, true);
    strokes.disabled = penalties.disabled = withdrawn(id);
    var skipped = !shown && missed(id, number);
    strokes.value = shown && numeric(shown.strokes) !== null ? String(shown.strokes) : (skipped ? "" : String(par));
    strokes.required = !skipped;
    strokes.placeholder = skipped ? "missed" : "";
    penalties.value = String(shown ? shown.penalties : 0);
    strokes.readOnly = penalties.readOnly = locked;
    if (mulligans) {
      mulligans.value = String(shown ? shown.mulligans || 0 : 0);
      mulligans.readOnly = locked;
      mulligans.disabled = withdrawn(id);
      var left = fieldset.querySelector(".mulligans-left");
      if (left) left.textContent = mulligansLeft(id) || "";
    }
    strokes.name = "strokes[" + id + "]";
    fieldset.classList.toggle("mismatch", !!(s && s.mismatch));
    note(fieldset, "running", "running", running(id));
    note(fieldset, "mismatch", "field-error mismatch-note", s && s.mismatch ? "Mismatch: " + s.others : null);
    note(fieldset, "missed", "meta missed-note", skipped ? "Missed: the card played this hole before " + fieldset.querySelector("legend").firstChild.textContent.trim() + " joined. Left blank, it is not scored." : null);
    var waiting = queued(id, number, false);
    note(fieldset, "waiting", "entry-waiting", waiting ? (waiting.state === "flagged" ? waiting.reason : "Kept on this phone: waiting to send") : null);
    var refused = queued(id, number, true);
    note(fieldset, "refused", "field-error entry-refused", refused ? "Not accepted: " + refused.reason : null, refused);
    wireSteppers(fieldset);
  }

  // One line of a player's box, made or removed as the state says.
  function note(fieldset, key, cls, text, refused) {
    var node = fieldset.querySelector('[data-note="' + key + '"]') || (key === "running" ? fieldset.querySelector("p.running") : null);
    if (!text) { if (node) node.remove(); return; }
    if (!node) {
      node = document.createElement("p");
      node.setAttribute("data-note", key);
      fieldset.appendChild(node);
    }
    node.setAttribute("data-note", key);
    node.className = cls;
    // Unchanged lines are left as they are: a button being tapped is not replaced under the finger.
    var signature = text + "|" + (refused ? refused.id : "");
    if (node.getAttribute("data-shows") === signature) return;
    node.setAttribute("data-shows", signature);
    node.textContent = text;
    if (refused) {
      node.setAttribute("role", "alert");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "link dismiss";
      button.textContent = "Dismiss";
      button.addEventListener("click", function () { outbox.dismiss(refused.id).then(reload); });
      node.appendChild(document.createTextNode(" "));
      node.appendChild(button);
    }
  }

  function go(number, push, sign) {
    render(number);
    var url = "?hole=" + number + (sign ? "#sign" : "");
    if (push) history.pushState({ hole: number }, "", url); else history.replaceState({ hole: number }, "", url);
    if (sign) { var section = document.getElementById("sign"); if (section) section.scrollIntoView(); } else window.scrollTo(0, 0);
  }

  function reload() {
    return outbox.entries().then(function (list) {
      pending = list.filter(function (e) { return e.cardID === state.cardID; });
      render(hole);
    });
  }

  function requested() {
    var value = parseInt(new URLSearchParams(location.search).get("hole"), 10);
    return holeInfo(value) ? value : firstOpen();
  }

  if (form) {
    form.addEventListener("submit", function (event) {
      if (!outbox || !form.checkValidity()) return;
      event.preventDefault();
      var number = hole;
      var list = [];
      form.querySelectorAll("fieldset.card-player").forEach(function (fieldset) {
        var strokes = fieldset.querySelector("input[name^=strokes]");
        var id = fieldset.getAttribute("data-player");
        if (strokes.readOnly || withdrawn(id) || strokes.value.trim() === "") return;
        var name = fieldset.querySelector("legend").firstChild.textContent.trim();
        var mulligans = fieldset.querySelector("input[name^=mulligans]");
        list.push({ playerID: id, playerName: name, hole: number, strokes: parseInt(strokes.value, 10),
          penalties: parseInt(fieldset.querySelector("input[name^=penalties]").value, 10) || 0,
          mulligans: mulligans ? parseInt(mulligans.value, 10) || 0 : 0 });
      });
      var info = holeInfo(number);
      var next = info.index + 1 < state.holes.length ? state.holes[info.index + 1].number : null;
      if (!list.length) { go(next === null ? number : next, true, next === null); return; }
      // Drawn at once from what the phone keeps; the entries reach its disk a moment later.
      var kept = outbox.add(list, state);
      pending = pending.filter(function (e) {
        return !(e.state === "refused" && kept.entries.some(function (k) { return k.playerID === e.playerID && k.hole === e.hole; }));
      }).concat(kept.entries);
      go(next === null ? number : next, true, next === null);
      kept.committed.catch(function () {
        // The phone would not keep them: back to that hole, and the form is posted as it is
        // posted without this file.
        pending = pending.filter(function (e) { return kept.entries.indexOf(e) < 0; });
        go(number, false, false);
        list.forEach(function (entry) {
          var field = form.querySelector('fieldset[data-player="' + entry.playerID + '"]');
          field.querySelector("input[name^=strokes]").value = String(entry.strokes);
          field.querySelector("input[name^=penalties]").value = String(entry.penalties);
          var m = field.querySelector("input[name^=mulligans]");
          if (m) m.value = String(entry.mulligans || 0);
        });
        form.submit();
      });
    });
  }

  root.querySelector("nav.card-holes").addEventListener("click", function (event) {
    var a = event.target.closest("a");
    if (!a || event.metaKey || event.ctrlKey) return;
    var number = parseInt(new URL(a.href).searchParams.get("hole"), 10);
    if (!holeInfo(number)) return;
    event.preventDefault();
    go(number, true, false);
  });
  window.addEventListener("popstate", function () { render(requested()); });

  // A newer copy of the card (a batch answered, a refresh) is drawn at once. When the card
  // has nothing left to send and its last hole was just saved, the signing section is taken
  // from the page as the server makes it now (the review of the whole card, who may sign).
  window.addEventListener("hyzer:card", function (event) {
    if (!event.detail || event.detail.cardID !== state.cardID) return;
    state = event.detail;
    reload().then(function () {
      var open = pending.some(function (e) { return e.state !== "refused"; });
      if (!open && location.hash === "#sign" && done(hole)) refreshSigning();
    });
  });

  // What card-mates' phones and coaches entered reaches this phone without a save of its own:
  // the card is fetched again every 20 s while the page is shown and online (and when it is
  // shown again), and the hole links and mismatch line are drawn from it.
  function checkForNews() {
    if (document.hidden || navigator.onLine === false || !outbox) return;
    fetch("/api/v1/rounds/" + state.roundID + "/cards/" + state.cardID, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (card) {
      if (!card || !outbox.newer(card, state)) return;
      state = card;
      outbox.saveCard(card);
      var info = holeInfo(hole);
      if (info) drawHoles(hole, info);
    }).catch(function () {});
  }
  setInterval(checkForNews, 20000);
  document.addEventListener("visibilitychange", checkForNews);

  // The page as the server makes it now (not the phone's copy: the service worker leaves
  // requests that are not navigations alone): its signing section and its card.
  function refreshSigning() {
    return fetch(location.pathname, { credentials: "same-origin", cache: "no-store", headers: { "Accept": "text/html" } }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.text();
    }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html");
      var section = fresh.querySelector("section.card-sign");
      var mine = root.querySelector("section.card-sign");
      if (section && mine) mine.replaceWith(document.importNode(section, true));
      var carried = fresh.querySelector(".card-scoring[data-state]");
      if (carried) {
        var card = JSON.parse(carried.getAttribute("data-state"));
        if (!outbox.newer(state, card)) { state = card; outbox.saveCard(card); render(hole); }
      }
    });
  }

  // A page opened from the phone's copy says so, and asks the server for the card as it is now.
  function fromKeptCopy() {
    var meta = document.querySelector('meta[name="hyzer-kept-copy"]');
    if (!meta) return;
    refreshSigning().catch(function () {
      var banner = document.createElement("p");
      banner.className = "notice offline-copy";
      banner.setAttribute("role", "status");
      var at = new Date(meta.content || state.at);
      banner.textContent = "Offline — showing data from " + at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) + ": holes you enter are kept on this phone";
      root.parentNode.insertBefore(banner, root);
    });
  }
  outbox.onChange(reload);

  // MARK: Ready for offline

  var ready = document.createElement("p");
  ready.className = "meta offline-ready";
  ready.setAttribute("role", "status");
  root.querySelector(".card-head").appendChild(ready);

  function showReady(text, offerRefresh) {
    ready.textContent = text;
    if (offerRefresh) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "link refresh-offline";
      button.textContent = "Refresh this copy";
      button.addEventListener("click", function () { keepForOffline(true); });
      ready.appendChild(document.createTextNode(" · "));
      ready.appendChild(button);
    }
  }

  // Keeps what this card needs to be scored to the end with no signal: the card itself
  // (holes, pars, players, scores) in IndexedDB, the page in the phone's cache (the service
  // worker keeps the files it uses). `refresh` fetches both again.
  function keepForOffline(refresh) {
    showReady("Saving for offline…", false);
    var page = "/rounds/" + state.roundID + "/cards/" + state.cardID;
    var fresh = !refresh ? Promise.resolve() : fetch("/api/v1" + page, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    }).then(function (card) {
      state = card;
      return outbox.saveCard(card).then(reload);
    });
    var worker = "serviceWorker" in navigator && window.caches;
    var files = !worker ? Promise.resolve() : caches.open("hyzer-pages").then(function (cache) {
      return cache.match(page).then(function (kept) { return kept && !refresh ? null : cache.add(page).then(function () { told(page); }); });
    });
    return Promise.all([fresh, files]).then(function () {
      var at = new Date(state.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      showReady(worker ? "Ready offline · card as of " + at : "Holes are kept on this phone until sent (reopening this page with no signal needs https)", !!worker);
    }, function () {
      showReady(navigator.onLine === false ? "No signal: scoring from the copy kept on this phone" : "Could not save this card for offline use", true);
    });
  }

  // The worker learns whose copy this is (the page may have opened before it was in charge):
  // it keeps the copy only for the viewer it was answered for.
  function told(page) {
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: "hyzer-kept", path: page });
    });
  }

  // The card is drawn at once from the copy the page carries, then again with what the
  // phone kept (a page from the phone's cache is older than the card kept since, and holes
  // typed before wait in the outbox).
  // (The address is left alone until the kept holes are known: they decide the first open hole.)
  render(requested());
  // For `make bench`: when the page takes a tap.
  if (window.performance && performance.mark) performance.mark("hyzer-card-ready");
  outbox.cardAndEntries(state.cardID).then(function (kept) {
    // A card kept for someone else is not this viewer's (saveCard replaces it).
    if (outbox.newer(kept.card, state) && outbox.sameViewer(kept.card, state)) state = kept.card;
    else outbox.saveCard(state);
    pending = kept.entries.filter(function (e) { return e.cardID === state.cardID; });
    go(requested(), false, location.hash === "#sign");
    keepForOffline(false);
    fromKeptCopy();
  }, function () {
    // No IndexedDB (a private window in some browsers): the page posts its forms as before.
    outbox = null;
  });
})();
