// Hyzer's service worker: pages open with no signal. Pages are fetched from the network
// first and kept; with no answer the kept copy is shown, marked with the time it is from.
// A card page, once kept, opens from the phone when the network is slow or absent and asks
// for fresh data itself. The page's files come from the phone at once and are refreshed
// behind. The API, live streams and form posts go to the network as they are (the posts
// that sign in or out are seen on their way: the phone forgets the pages it kept).
//
// A phone is shared: every page the server answers names its viewer (X-Hyzer-Viewer, an
// opaque tag of the session, "anonymous" for none). Each kept copy carries the tag it was
// fetched under, and a copy is shown only while the phone's viewer is that tag: when a page
// names another viewer, or a sign-in or sign-out is posted, or the session runs out, every
// copy of the old viewer is dropped, and so are the cards kept in IndexedDB (not the
// outbox: it holds scores not sent yet, and outbox.js sends each only as its author).
"use strict";

var STATIC = "hyzer-static";
var PAGES = "hyzer-pages";
// One entry: whose pages the phone shows, kept here because a worker's globals die with it.
var VIEWER = "hyzer-viewer";
var VIEWER_ENTRY = "/__hyzer/viewer";
var VIEWER_HEADER = "X-Hyzer-Viewer";
var UNTIL_HEADER = "X-Hyzer-Viewer-Until";
var ANONYMOUS = "anonymous";
var FILES = ["/hyzer.css", "/outbox.js", "/card.js", "/live.js", "/copy.js", "/icon.svg", "/manifest.webmanifest", "/icon-192.png"];
// Pages worth reading with no signal: rounds, their boards and cards, events, the lists.
var KEPT = [/^\/$/, /^\/events$/, /^\/rounds\/[^/]+$/, /^\/rounds\/[^/]+\/(cards\/(?!edit$)[^/]+|leaderboard)$/, /^\/events\/[^/]+$/, /^\/events\/[^/]+\/leaderboard$/];
var CARD = /^\/rounds\/[^/]+\/cards\/(?!edit$)[^/]+$/;
// Posts that begin or end a session on this phone.
var SESSION_POSTS = /^\/(signin|signout|signout\/everywhere|setup|join)$/;
// How long a page may take before the kept copy is shown instead.
var PATIENCE = 4000;
// How long a card page may take before its kept copy is shown instead (see cardPage).
var QUICK = 800;

function noop() { /* nothing to do */ }

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (cache) { return cache.addAll(FILES); }).then(function () { return self.skipWaiting(); }));
});

// Copies kept by an earlier worker name no viewer: nobody can be shown them. Cards it kept
// may be someone else's.
self.addEventListener("activate", function (event) {
  event.waitUntil(Promise.all([clearCards(), caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.map(function (request) {
        return cache.match(request).then(function (copy) { if (!copy || !copy.headers.get(VIEWER_HEADER)) return cache.delete(request); });
      }));
    });
  }).catch(noop)]).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST") {
    // Forgotten before the post leaves: the page it leads to never meets the old viewer's copies.
    if (SESSION_POSTS.test(url.pathname)) event.respondWith(forget().catch(noop).then(function () { return fetch(request); }));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.indexOf("/api/") === 0 || url.pathname === "/sw.js") return;
  if ((request.headers.get("Accept") || "").indexOf("text/event-stream") >= 0) return;
  if (request.mode === "navigate") {
    if (CARD.test(url.pathname)) event.respondWith(cardPage(event, request, url));
    else if (KEPT.some(function (pattern) { return pattern.test(url.pathname); })) event.respondWith(page(event, request, url));
    // Every other page (not downloads: they have a file name) still says who is signed in now:
    // a session ended elsewhere shows on the sign-in page it leads to.
    else if (!/\.[A-Za-z0-9]+$/.test(url.pathname)) event.respondWith(fetch(request).then(function (response) { return seen(response, null); }, offlinePage));
    return;
  }
  if (FILES.indexOf(url.pathname) >= 0) event.respondWith(file(request, url));
});

// Pages tell the worker what they learn: a copy card.js kept itself (the page may have loaded
// before this worker controlled it), and an API answer that says the session is over.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "hyzer-kept" && typeof data.path === "string") {
    event.waitUntil(caches.open(PAGES).then(function (cache) {
      return cache.match(self.location.origin + data.path).then(function (copy) {
        if (!copy) return;
        return observe(copy.headers).then(function (mine) { if (!mine) return cache.delete(self.location.origin + data.path); });
      });
    }).catch(noop));
  } else if (data.type === "hyzer-forget") {
    event.waitUntil(forget().catch(noop));
  }
});

// MARK: Whose pages

var state = null;
var queue = Promise.resolve();

// Runs changes to the viewer and to the kept pages one at a time.
function serial(work) {
  var run = queue.then(work, work);
  queue = run.catch(noop);
  return run;
}

function load() {
  if (state) return Promise.resolve(state);
  return caches.open(VIEWER).then(function (cache) { return cache.match(VIEWER_ENTRY); }).then(function (entry) {
    return entry ? entry.json() : null;
  }).catch(function () { return null; }).then(function (found) {
    if (!state) state = found && Array.isArray(found.retired) ? found : { tag: null, until: 0, retired: [] };
    return state;
  });
}

function save() {
  var text = JSON.stringify(state);
  return caches.open(VIEWER).then(function (cache) {
    return cache.put(VIEWER_ENTRY, new Response(text, { headers: { "Content-Type": "application/json" } }));
  });
}

// An ended session's tag is never taken up again: an answer still on its way when the session
// ended (a copy refreshed behind) is neither kept nor believed.
function retire(tag) {
  if (!tag || tag === ANONYMOUS || state.retired.indexOf(tag) >= 0) return;
  state.retired.push(tag);
  if (state.retired.length > 20) state.retired.shift();
}

function expired(s) {
  return s.until > 0 && Date.now() >= s.until;
}

// Learns the viewer a page was answered for. Resolves true when the page is the current
// viewer's (it may be kept), false when it names none or an ended session.
function observe(headers) {
  var tag = headers.get(VIEWER_HEADER);
  if (!tag) return Promise.resolve(false);
  var until = (Number(headers.get(UNTIL_HEADER)) || 0) * 1000;
  return serial(function () {
    return load().then(function (s) {
      if (s.retired.indexOf(tag) >= 0) return false;
      // The server says the session lives: its word wins over the end the phone expected.
      if (tag === s.tag) {
        if (until === s.until) return true;
        s.until = until;
        return save().then(function () { return true; });
      }
      var previous = s.tag;
      retire(s.tag);
      s.tag = tag;
      s.until = until;
      // The new viewer is remembered first: from now on no old copy is shown, even if the
      // worker stops before they are all gone. From no viewer (a sign-in or sign-out was
      // posted, or the worker is new) the cards were dropped then: any kept since are this
      // viewer's, and the page that just kept one needs it.
      var cards = previous !== null;
      return save().then(function () { return drop(tag, cards); }).then(function () { tell("hyzer-viewer-changed"); return true; });
    });
  });
}

// A sign-in or sign-out is on its way, or the session ended: nobody's pages are shown until
// a page names the viewer again.
function forget() {
  return serial(function () {
    return load().then(function (s) {
      retire(s.tag);
      s.tag = null;
      s.until = 0;
      return save().then(function () { return drop(null, true); }).then(function () { tell("hyzer-viewer-changed"); });
    });
  });
}

// Drops every kept page not of `tag`, and (`cards`) the cards kept in IndexedDB.
function drop(tag, cards) {
  var pages = caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.map(function (request) {
        return cache.match(request).then(function (copy) {
          if (!tag || !copy || copy.headers.get(VIEWER_HEADER) !== tag) return cache.delete(request);
        });
      }));
    });
  });
  return Promise.all([pages.catch(noop), cards ? clearCards() : null]);
}

// Empties outbox.js's "cards" store. A database that does not exist yet is not made here
// (its stores are outbox.js's to make).
function clearCards() {
  return new Promise(function (resolve) {
    if (!self.indexedDB) { resolve(); return; }
    var request = indexedDB.open("hyzer");
    request.onupgradeneeded = function () { request.transaction.abort(); };
    request.onerror = function () { resolve(); };
    request.onblocked = function () { resolve(); };
    request.onsuccess = function () {
      var db = request.result;
      if (!db.objectStoreNames.contains("cards")) { db.close(); resolve(); return; }
      var tx = db.transaction(["cards"], "readwrite");
      tx.objectStore("cards").clear();
      tx.oncomplete = tx.onerror = tx.onabort = function () { db.close(); resolve(); };
    };
  });
}

// Open pages drawn from a copy go again when the viewer changed (outbox.js listens).
function tell(type) {
  self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
    list.forEach(function (client) { client.postMessage({ type: type }); });
  }).catch(noop);
}

// The kept copy of `url` if the phone's viewer may see it, else null. A session past its end
// is ended here, with no signal to ask the server.
function copyFor(url) {
  return Promise.all([load(), caches.open(PAGES).then(function (cache) { return cache.match(key(url)); })]).then(function (found) {
    var s = found[0], copy = found[1];
    if (s.tag && expired(s)) return forget().then(function () { return null; });
    if (!copy || !s.tag || copy.headers.get(VIEWER_HEADER) !== s.tag) return null;
    return copy;
  });
}

// MARK: Pages

// A card page is kept once, whatever its hole: the page draws the hole from its address.
function key(url) {
  return CARD.test(url.pathname) ? url.origin + url.pathname : url.href;
}

function isKept(url) {
  return KEPT.some(function (pattern) { return pattern.test(url.pathname); });
}

// A card page opens from the phone when the network is slow or absent (a scorer on the
// course must not wait); the page then asks the server for the card as it is now (card.js).
// It is not opened from the phone at once: a session can end elsewhere (signed out
// everywhere, disabled, a new password, run out) while its copy is still the phone's, and
// only the server's answer says so. An answer within QUICK is shown as it is, and names the
// viewer; a later one that names another viewer drops the copy and the page reloads.
function cardPage(event, request, url) {
  var network = fetch(request);
  return copyFor(url).then(function (copy) {
    if (!copy) return page(event, request, url, network);
    return within(event, network.then(function (response) { return seen(response, url); }), url, QUICK, true);
  });
}

function page(event, request, url, network) {
  var answered = (network || fetch(request)).then(function (response) { return seen(response, url); });
  return within(event, answered, url, PATIENCE, false);
}

// The network's answer when it comes within `patience`, else the phone's copy; an answer
// that comes later still teaches the viewer and keeps the page.
function within(event, answered, url, patience, card) {
  var timer;
  var late = new Promise(function (resolve) { timer = setTimeout(resolve, patience); });
  return Promise.race([answered, late]).then(function (response) {
    clearTimeout(timer);
    if (response) return response;
    event.waitUntil(answered.catch(noop));
    return fromPhone(url, answered, card);
  }, function () {
    clearTimeout(timer);
    return fromPhone(url, null, card);
  });
}

// Learns the viewer of a page from the network, and keeps the page for them when it is one
// worth keeping (`url`), before it is shown.
function seen(response, url) {
  return observe(response.headers).then(function (mine) {
    if (mine && url && isKept(url) && response.ok && (response.headers.get("Content-Type") || "").indexOf("text/html") === 0) {
      keep(response.clone(), url).catch(noop);
    }
    return response;
  });
}

function keep(response, url) {
  var tag = response.headers.get(VIEWER_HEADER);
  return response.blob().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set("X-Hyzer-Kept-At", new Date().toISOString());
    // Checked again in turn: a sign-out between the answer and this write drops nothing later.
    return serial(function () {
      return load().then(function (s) {
        if (s.tag !== tag) return;
        return caches.open(PAGES).then(function (cache) { return cache.put(key(url), new Response(body, { status: 200, headers: headers })); });
      });
    });
  });
}

// The kept copy (if the viewer may see it), else what is still coming, else "no signal".
function fromPhone(url, stillComing, card) {
  return copyFor(url).then(function (copy) {
    if (!copy) return stillComing ? stillComing.catch(offlinePage) : offlinePage();
    return copy.text().then(function (html) {
      var headers = new Headers(copy.headers);
      var at = copy.headers.get("X-Hyzer-Kept-At") || "";
      if (card) return new Response(html.replace("</head>", '<meta name="hyzer-kept-copy" content="' + at + '">\n</head>'), { status: 200, headers: headers });
      var when = new Date(at || copy.headers.get("Date") || Date.now());
      var time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      var banner = '<p class="notice offline-copy" role="status">Offline — showing data from ' + time + "</p>";
      headers.set("X-Hyzer-Offline-Copy", when.toISOString());
      return new Response(html.replace("<main>", "<main>" + banner), { status: 200, headers: headers });
    });
  });
}

function offlinePage() {
  var html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Offline · Hyzer</title><link rel="stylesheet" href="/hyzer.css"></head><body class="page"><main>' +
    '<h1>No signal</h1><p>This page was not kept on this phone. Pages you opened before, and the cards you score, open with no signal.</p>' +
    '<p><a href="/">Rounds</a></p><p id="outbox-status" class="outbox-status" role="status" hidden></p></main><script src="/outbox.js"></script></body></html>';
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function file(request, url) {
  return caches.open(STATIC).then(function (cache) {
    return cache.match(url.pathname).then(function (copy) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) cache.put(url.pathname, response.clone());
        return response;
      });
      if (copy) { fresh.catch(function () { /* the kept copy serves */ }); return copy; }
      return fresh;
    });
  });
}
