// Live pages (host/live.py): the page follows its game by itself. It listens to the game's
// stream of server-sent events (EventSource); without one, or when it fails for good, it
// polls the small live.json instead. It says "live", "reconnecting" or "polling"; a change
// says "updated" with what changed. Which powers have ordered and are ready is shown in
// place; the countdown follows a moved deadline and says "processing" at zero. A new phase
// reloads the page (a form made for the phase that is gone is never posted: the server
// would refuse it anyway), unless something typed is unsent: then the page says so, and
// its forms reload instead of posting. Other scripts may listen for "polydip:live" events
// on the document (detail: the live state).
(function () {
  var box = document.getElementById("live");
  if (!box) return;
  var stateEl = document.getElementById("live-state");
  var noteEl = document.getElementById("live-updated");
  var reloadEl = document.getElementById("live-reload");
  var dl = document.getElementById("deadline");
  var mode = box.dataset.mode, phaseId = box.dataset.phaseId;
  var KEY = "polydip-live-updated:" + location.pathname;
  var POLL_MS = 5000;
  var last = null, endAt = null, gone = false, es = null, pollTimer = 0, failures = 0;

  var say = function (text, state) { stateEl.textContent = text; box.dataset.state = state || text; };
  var updated = function (what) {
    noteEl.textContent = "updated " + new Date().toLocaleTimeString() + ": " + what;
    box.dataset.updated = what;
  };
  try {  // a reload made by a new phase says so
    var was = window.sessionStorage.getItem(KEY);
    if (was) { window.sessionStorage.removeItem(KEY); updated(was); }
  } catch (e) { /* storage off */ }

  var phaseForms = function () {
    return Array.prototype.filter.call(document.forms, function (f) { return f.elements.phase; });
  };
  var dirty = function () {  // something typed or picked and not sent
    return phaseForms().some(function (f) {
      return Array.prototype.some.call(f.elements, function (el) {
        if (el.type === "hidden") return false;
        if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
        if (el.tagName === "SELECT") {  // (no option marked selected: the first is)
          var def = 0;
          Array.prototype.forEach.call(el.options, function (o, i) { if (o.defaultSelected) def = i; });
          return el.selectedIndex !== def;
        }
        return "defaultValue" in el && el.value !== el.defaultValue;
      });
    });
  };
  var reload = function (what) {
    try { window.sessionStorage.setItem(KEY, what); } catch (e) { /* storage off */ }
    window.location.reload();
  };
  var stopForms = function (what) {  // a form of the gone phase reloads the new one instead
    phaseForms().forEach(function (f) {
      f.addEventListener("submit", function (e) { e.preventDefault(); reload(what); });
    });
  };

  var two = function (n) { return (n < 10 ? "0" : "") + n; };
  var tick = function () {
    if (!dl || endAt === null) return;
    var s = Math.round((endAt - Date.now()) / 1000);
    if (s <= 0) {
      dl.textContent = "processing…";
      if (!gone && mode !== "phase") say("processing");
      return;
    }
    var h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);
    dl.textContent = new Date(endAt).toLocaleString() + " (" + (h ? h + " h " : "") +
      (h ? two(m) : m) + " min " + two(s % 60) + " s left)";
  };
  if (dl && dl.dataset.left) endAt = Date.now() + 1000 * parseInt(dl.dataset.left, 10);
  tick();
  window.setInterval(tick, 1000);

  var marks = function (powers) {
    var byName = {};
    powers.forEach(function (p) { byName[p.name] = p; });
    box.querySelectorAll("[data-power]").forEach(function (el) {
      var p = byName[el.dataset.power];
      if (!p) return;
      var text = p.ready ? "ready" : p.ordered ? "ordered" : "\u2013";  // (a dash: none yet)
      el.querySelector(".mark").textContent = text;
      el.title = p.ready ? "ready" : p.ordered ? "has ordered" : "no orders yet";
      el.dataset.mark = p.ready ? "ready" : p.ordered ? "ordered" : "none";
    });
  };
  var changes = function (a, b) {
    var out = [];
    if (a.deadline !== b.deadline) out.push("the deadline moved");
    var key = function (st) { return JSON.stringify(st.powers); };
    if (key(a) !== key(b)) out.push("orders or readiness changed");
    if (a.events !== b.events) out.push(b.event_kind === "message" ? "a new message" : b.event_kind || "news");
    return out.join(", ") || "changed";
  };

  var apply = function (st) {
    if (last && last.version === st.version) return;
    var before = last;
    last = st;
    marks(st.powers);
    if (st.phase_id !== phaseId || (before && (st.status !== before.status || st.paused !== before.paused))) {
      if (gone) return;
      gone = true;
      var what = st.phase_id !== phaseId ? "the game is now at " + st.phase :
        st.status !== "active" ? "the game is " + st.status : st.paused ? "the game is paused" : "the game resumed";
      if (mode === "phase" || dirty()) {  // (a past phase stays; unsent text is not lost)
        updated(what + (mode === "phase" ? "" : "; what you typed here was not sent"));
        reloadEl.hidden = false;
        stopForms(what);
        if (endAt !== null && dl) { endAt = null; dl.textContent = "passed"; }
        return;
      }
      reload(what);
      return;
    }
    if (st.seconds_left === null || st.seconds_left === undefined) endAt = null;
    else endAt = Date.now() + 1000 * st.seconds_left;
    tick();
    if (!before) return;
    updated(changes(before, st));
    if (mode === "gm" && !dirty()) { reload(changes(before, st)); return; }  // its orders table
    document.dispatchEvent(new CustomEvent("polydip:live", {detail: st}));
  };
  var live = function () {
    if (!gone && !(endAt !== null && endAt <= Date.now())) say("live");
  };

  var poll = function () {
    if (pollTimer) return;
    var once = function () {
      var req = new XMLHttpRequest();
      req.open("GET", box.dataset.poll);
      req.onload = function () {
        if (req.status === 200) {
          try { apply(JSON.parse(req.responseText)); } catch (e) { /* a bad answer: next time */ }
          if (!gone && !(endAt !== null && endAt <= Date.now())) {
            say("live (checking every " + POLL_MS / 1000 + " s)", "polling");
          }
        } else if (req.status === 404) {
          say("this link no longer works", "gone");
          window.clearInterval(pollTimer);
        } else {
          say("reconnecting");
        }
      };
      req.onerror = function () { say("reconnecting"); };
      req.send();
    };
    once();
    pollTimer = window.setInterval(once, POLL_MS);
  };

  if (!window.EventSource) { poll(); return; }
  var connect = function () {
    es = new window.EventSource(box.dataset.stream);
    es.addEventListener("state", function (e) {
      failures = 0;
      try { apply(JSON.parse(e.data)); } catch (err) { return; }
      live();
    });
    es.onopen = function () { live(); };
    es.onerror = function () {
      failures += 1;
      if (es.readyState === window.EventSource.CLOSED || failures > 5) {
        // refused (too many streams, a link gone) or failing for good: poll instead
        es.close();
        poll();
      } else {
        say("reconnecting");  // the browser reconnects by itself
      }
    };
  };
  connect();
  window.addEventListener("pagehide", function () { if (es) es.close(); });
})();
