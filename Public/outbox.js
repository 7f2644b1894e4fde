// The phone's outbox: every hole typed on a card page is kept in IndexedDB until the server
// has it, and sent in order whenever there is a signal. Loaded on every page, which shows
// how many holes wait. Pages work without this file (their forms post as usual).
(function () {
  "use strict";

  var DB_NAME = "hyzer", DB_VERSION = 1;
  var opened = null;
  var listeners = [];
  var channel = "BroadcastChannel" in window ? new BroadcastChannel("hyzer-outbox") : null;
  var lastSeq = 0;
  var sendState = { needsSignIn: false, offline: false, retryAt: 0 };

  function open() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        if (!window.indexedDB) { reject(new Error("This browser keeps no data for pages.")); return; }
        var request = indexedDB.open(DB_NAME, DB_VERSION);
        request.onupgradeneeded = function () {
          var db = request.result;
          if (!db.objectStoreNames.contains("outbox")) db.createObjectStore("outbox", { keyPath: "id" });
          if (!db.objectStoreNames.contains("cards")) db.createObjectStore("cards", { keyPath: "cardID" });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
        request.onblocked = function () { reject(new Error("Another tab holds an older copy of Hyzer's data open.")); };
      });
    }
    return opened;
  }

  // Runs `body(stores)` in one transaction; resolves with its result once it is committed
  // (not before: an entry counts as kept only when it is on the phone's disk).
  function transaction(names, mode, body) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(names, mode);
        var stores = {};
        names.forEach(function (name) { stores[name] = tx.objectStore(name); });
        var result;
        tx.oncomplete = function () { resolve(result); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error || new Error("The phone's storage refused the write.")); };
        result = body(stores);
      });
    });
  }

  function all(store) {
    return new Promise(function (resolve, reject) {
      var request = store.getAll();
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function entries() {
    var found;
    return transaction(["outbox"], "readonly", function (s) {
      all(s.outbox).then(function (list) { found = list; });
    }).then(function () {
      return found.sort(function (a, b) { return a.seq - b.seq; });
    });
  }

  // A version 4 UUID; crypto.randomUUID exists only on https and localhost.
  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function changed() {
    listeners.forEach(function (listener) { listener(); });
    showStatus();
  }
  if (channel) channel.onmessage = function () { changed(); };
  function announce() {
    changed();
    if (channel) channel.postMessage("changed");
  }

  // Keeps `list` (entries of one hole of one card, each {playerID, hole, strokes, penalties})
  // as pending; an earlier refused entry for the same player and hole is replaced by it.
  // Answers the entries at once, for the page to draw, and `committed`, which settles when
  // they are on the phone's disk (or were refused by its storage).
  function add(list, card) {
    var now = Date.now();
    var made = list.map(function (entry) {
      lastSeq = Math.max(now * 1000, lastSeq + 1);
      return {
        id: uuid(), seq: lastSeq, roundID: card.roundID, cardID: card.cardID, cardName: card.cardName,
        playerID: entry.playerID, playerName: entry.playerName, hole: entry.hole, strokes: entry.strokes, penalties: entry.penalties,
        mulligans: entry.mulligans || 0,
        author: card.viewer ? card.viewer.playerID : null, authorName: card.viewer ? card.viewer.displayName : null,
        state: "pending", reason: null, createdAt: new Date(now).toISOString()
      };
    });
    var committed = transaction(["outbox"], "readwrite", function (s) {
      all(s.outbox).then(function (existing) {
        existing.forEach(function (old) {
          var replaced = old.state === "refused" && made.some(function (e) { return e.cardID === old.cardID && e.playerID === old.playerID && e.hole === old.hole; });
          if (replaced) s.outbox.delete(old.id);
        });
        made.forEach(function (entry) { s.outbox.put(entry); });
      });
    }).then(function () {
      // After the page has drawn what it kept: sending never delays the next hole.
      setTimeout(function () { announce(); flush(); }, 0);
      return made;
    });
    return { entries: made, committed: committed };
  }

  function dismiss(id) {
    return transaction(["outbox"], "readwrite", function (s) { s.outbox.delete(id); }).then(announce);
  }

  // The newest copy of a card wins: a page served from the phone's cache carries an older one.
  // A copy made for someone else (a phone shared after a session ended) never wins.
  function saveCard(state) {
    return transaction(["cards"], "readwrite", function (s) {
      var request = s.cards.get(state.cardID);
      request.onsuccess = function () {
        var kept = request.result;
        if (!newer(kept, state) || !sameViewer(kept, state)) s.cards.put(state);
      };
    });
  }

  // Whether two copies of a card were made for the same person (or both for nobody).
  function sameViewer(a, b) {
    var x = a && a.viewer ? a.viewer.playerID : null, y = b && b.viewer ? b.viewer.playerID : null;
    return x === y;
  }

  // The session these pages were kept for is over: the kept pages and cards go (the outbox
  // stays: each entry is sent only as its author). The worker forgets the viewer too.
  function forget() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ type: "hyzer-forget" });
    if (window.caches) caches.delete("hyzer-pages").catch(function () { /* the worker drops them too */ });
    return transaction(["cards"], "readwrite", function (s) { s.cards.clear(); }).catch(function () { /* nothing kept */ });
  }

  // Whether copy `a` of a card is newer than copy `b`: the round's version, then the time.
  function newer(a, b) {
    if (!a || !b) return !!a;
    return a.version !== b.version ? a.version > b.version : a.at > b.at;
  }

  function card(cardID) {
    var found;
    return transaction(["cards"], "readonly", function (s) {
      var request = s.cards.get(cardID);
      request.onsuccess = function () { found = request.result; };
    }).then(function () { return found; });
  }

  // A card's kept copy and every entry of the outbox, read together.
  function cardAndEntries(cardID) {
    var found = {};
    return transaction(["cards", "outbox"], "readonly", function (s) {
      var request = s.cards.get(cardID);
      request.onsuccess = function () { found.card = request.result; };
      all(s.outbox).then(function (list) { found.entries = list.sort(function (a, b) { return a.seq - b.seq; }); });
    }).then(function () { return found; });
  }

  function viewer() {
    var meta = document.querySelector('meta[name="hyzer-viewer"]');
    return meta ? { playerID: meta.content, displayName: meta.getAttribute("data-name") } : null;
  }

  // MARK: Sending

  var flushing = null, again = false, retryTimer = null, backoff = 0;

  function flush() {
    if (flushing) { again = true; return flushing; }
    clearTimeout(retryTimer);
    retryTimer = null;
    var run = function () { return sendAll(); };
    var locked = navigator.locks ? navigator.locks.request("hyzer-outbox", run) : run();
    flushing = Promise.resolve(locked).catch(function () { /* kept: the retry below sends it */ }).then(function () {
      flushing = null;
      if (again) { again = false; return flush(); }
    });
    return flushing;
  }

  function scheduleRetry() {
    backoff = Math.min(60000, backoff ? backoff * 2 : 1000);
    sendState.retryAt = Date.now() + backoff;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(flush, backoff);
  }

  function update(list, fields) {
    return transaction(["outbox"], "readwrite", function (s) {
      list.forEach(function (entry) {
        Object.keys(fields).forEach(function (key) { entry[key] = fields[key]; });
        s.outbox.put(entry);
      });
    });
  }

  // Sends every waiting entry, one request per card and author, oldest first. Stops at the
  // first answer that says "not now" (no network, a server error, signed out) and tries again
  // later; entries the server refuses stay, with its reason, until the scorer dismisses them.
  var BATCH = 100;

  function sendAll() {
    return entries().then(function (list) {
      var me = viewer();
      var waiting = list.filter(function (e) { return e.state === "pending" || e.state === "sending" || e.state === "flagged"; });
      var groups = [], byKey = {};
      // One request per card and author, of at most BATCH entries: a phone that scored a
      // whole round with no signal sends it in a few requests, each well inside what the
      // server takes (500 entries, 64 KB).
      waiting.forEach(function (entry) {
        var key = entry.cardID + "/" + (entry.author || "");
        if (!byKey[key] || byKey[key].length >= BATCH) { byKey[key] = []; groups.push(byKey[key]); }
        byKey[key].push(entry);
      });
      sendState.needsSignIn = false;
      var chain = Promise.resolve(true);
      groups.forEach(function (group) {
        chain = chain.then(function (goOn) { return goOn && sendGroup(group, me); });
      });
      return chain;
    }).then(announce, function (error) { announce(); throw error; });
  }

  function sendGroup(group, me) {
    var first = group[0];
    if (first.author && !me) {
      sendState.needsSignIn = true;
      return update(group, { state: "pending" }).then(function () { return true; });
    }
    if (first.author && me && first.author !== me.playerID) {
      return update(group, { state: "flagged", reason: "Made by " + (first.authorName || "someone else") + ": only they can send it. Sign in as them, or dismiss it." })
        .then(function () { return true; });
    }
    return update(group, { state: "sending", reason: null }).then(function () {
      return fetch("/api/v1/rounds/" + first.roundID + "/cards/" + first.cardID + "/scores", {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: { "Content-Type": "application/json", "Accept": "application/json" },
        body: JSON.stringify({
          author: first.author || undefined,
          scores: group.map(function (e) { return { id: e.id, playerID: e.playerID, hole: e.hole, strokes: e.strokes, penalties: e.penalties, mulligans: e.mulligans || 0 }; })
        })
      });
    }).then(function (response) {
      sendState.offline = false;
      if (response.ok) return response.json().then(function (body) { return delivered(group, body); });
      return response.json().catch(function () { return {}; }).then(function (problem) { return refusedBatch(group, response.status, problem); });
    }, function () {
      // No answer at all: no signal, or the server is down.
      sendState.offline = true;
      return update(group, { state: "pending" }).then(function () { scheduleRetry(); return false; });
    });
  }

  function delivered(group, body) {
    backoff = 0;
    var outcome = {};
    (body.results || []).forEach(function (result) { outcome[result.id] = result; });
    return transaction(["outbox", "cards"], "readwrite", function (s) {
      group.forEach(function (entry) {
        var result = outcome[entry.id];
        if (!result) { entry.state = "pending"; s.outbox.put(entry); return; }
        if (result.outcome === "refused") {
          entry.state = "refused";
          entry.reason = result.reason || "The server did not accept this entry.";
          s.outbox.put(entry);
        } else {
          s.outbox.delete(entry.id);
        }
      });
      if (body.card) s.cards.put(body.card);
    }).then(function () {
      window.dispatchEvent(new CustomEvent("hyzer:card", { detail: body.card }));
      return true;
    });
  }

  function refusedBatch(group, status, problem) {
    var detail = problem.detail || "The server refused these entries (HTTP " + status + ").";
    if (status === 401) {
      sendState.needsSignIn = true;
      forget();
      return update(group, { state: "pending" }).then(function () { return false; });
    }
    if (status === 409 && problem.type === "/problems/not-the-author") {
      return update(group, { state: "flagged", reason: detail }).then(function () { return true; });
    }
    // Too large (413) says nothing about the entries: they go again, in smaller requests.
    if (status >= 500 || status === 408 || status === 429 || status === 413) {
      return update(group, { state: "pending" }).then(function () { scheduleRetry(); return false; });
    }
    // The round, card or person's rights changed: no retry can succeed, the scorer decides.
    return update(group, { state: "refused", reason: detail }).then(function () { return true; });
  }

  // MARK: The count on every page

  function plural(count, one, many) { return count + " " + (count === 1 ? one : many); }

  function showStatus() {
    var box = document.getElementById("outbox-status");
    if (!box) return;
    entries().then(function (list) {
      var holes = {}, refused = [], flagged = [];
      list.forEach(function (entry) {
        if (entry.state === "refused") refused.push(entry);
        else if (entry.state === "flagged") flagged.push(entry);
        else holes[entry.cardID + "/" + entry.hole] = entry;
      });
      var waiting = Object.keys(holes).length;
      box.textContent = "";
      box.dataset.waiting = String(waiting);
      box.dataset.refused = String(refused.length);
      box.dataset.flagged = String(flagged.length);
      var parts = [];
      if (waiting) {
        var text = plural(waiting, "hole", "holes") + " waiting to send";
        if (sendState.needsSignIn) text += " · sign in to send them";
        else if (sendState.offline) text += " · no signal, kept on this phone";
        parts.push({ text: text, href: sendState.needsSignIn ? "/signin?next=" + encodeURIComponent(location.pathname + location.search) : null });
      }
      if (flagged.length) {
        parts.push({ text: plural(flagged.length, "entry", "entries") + " by " + (flagged[0].authorName || "someone else") + " wait for them to sign in", href: cardLink(flagged[0]) });
      }
      if (refused.length) {
        parts.push({ text: plural(refused.length, "entry was", "entries were") + " not accepted: see hole " + refused[0].hole + " of " + (refused[0].cardName || "the card"), href: cardLink(refused[0]) });
      }
      parts.forEach(function (part, index) {
        if (index) box.appendChild(document.createTextNode(" · "));
        var node = document.createElement(part.href ? "a" : "span");
        if (part.href) node.href = part.href;
        node.textContent = part.text;
        box.appendChild(node);
      });
      box.hidden = parts.length === 0;
      box.classList.toggle("attention", refused.length > 0 || flagged.length > 0 || sendState.needsSignIn);
    }, function () { box.hidden = true; });
  }

  function cardLink(entry) {
    return "/rounds/" + entry.roundID + "/cards/" + entry.cardID + "?hole=" + entry.hole;
  }

  window.HyzerOutbox = {
    add: add, dismiss: dismiss, newer: newer, sameViewer: sameViewer, entries: entries, saveCard: saveCard, card: card, cardAndEntries: cardAndEntries, flush: flush,
    open: open, onChange: function (listener) { listeners.push(listener); }, state: sendState
  };

  window.addEventListener("online", function () { backoff = 0; flush(); });
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") flush(); });
  // Signing in or out on this phone keeps the outbox but drops the pages and cards kept for
  // offline reading (the service worker does too, as the form is posted: this is for a page
  // it does not control).
  document.querySelectorAll('form[action="/signin"], form[action="/signout"], form[action="/signout/everywhere"], form[action="/setup"], form[action="/join"]').forEach(function (form) {
    form.addEventListener("submit", function () { if (window.caches) caches.delete("hyzer-pages"); });
  });
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(function () { /* pages still work online */ });
    // Someone else is signed in now (or nobody): a page drawn from the phone's copy is theirs
    // no longer, and is fetched again.
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (!event.data || event.data.type !== "hyzer-viewer-changed") return;
      if (document.querySelector('meta[name="hyzer-kept-copy"], .offline-copy')) location.reload();
    });
  }
  showStatus();
  flush();
})();
