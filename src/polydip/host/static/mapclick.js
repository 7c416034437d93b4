// Orders on the map, on a player's page: click (or tap) one of your units, and the panel
// under the map offers its legal orders (the picker's very choices, in full names); click a
// province to move there; for a support or a convoy: "Support" (or "Convoy"), the unit
// supported, then its destination. The chosen order is drawn at once in an overlay on the
// map and set in the picker's form, which "Add the picked orders" submits as before: the
// server stays the only judge, and the form carries the phase it was made for.
//
// The overlay is an <svg> over the map's picture with the same coordinates: the provinces'
// shapes copied from the served map (only their outlines and ids: nothing of that file is
// put into the page as it is), a ring over each of the power's units, and the lines drawn.
// The data (host/mapclick.py) sits in the page as JSON (#mapclick-data's data-orders): per unit, where it is drawn and its
// choices with the provinces they name and the points their line joins.
(function () {
  "use strict";
  var dataEl = document.getElementById("mapclick-data");
  var img = document.getElementById("map"), frame = document.getElementById("map-frame");
  var picker = document.getElementById("picker");
  if (!dataEl || !img || !frame || !picker) return;
  var data;
  try { data = JSON.parse(dataEl.getAttribute("data-orders") || "null"); } catch (e) { return; }
  if (!data || !data.units) return;
  var NS = "http://www.w3.org/2000/svg";
  var R = data.r || 10, HIT = 1.5;  // a unit's ring: its symbol's radius times HIT
  var TYPES = {"H": "Hold", "-": "Move", "S": "Support", "C": "Convoy", "R": "Retreat",
               "D": "Disband", "B": "Build", "W": "Waive"};
  var PICK = {"-": "a province to move to", "R": "a province to retreat to",
              "S": "the unit to support", "C": "the army to convoy",
              "B": "a province to build in"};
  var units = data.units, byKey = {};
  units.forEach(function (u) { byKey[u.key] = u; });

  var el = function (name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  };
  var selectOf = function (key) {
    var found = null;
    picker.querySelectorAll("select[data-unit]").forEach(function (s) {
      if (s.dataset.unit === key) found = s;
    });
    return found;
  };
  var name = function (prov) { return (data.names && data.names[prov]) || prov; };

  // ---- the overlay: provinces, units' rings, lines; placed over the picture ----
  frame.classList.add("mapclick");
  var overlay = el("svg", {"class": "mapclick-overlay", id: "map-overlay",
                           "aria-hidden": "true", preserveAspectRatio: "none"});
  var defs = el("defs", {}, overlay);
  var head = el("marker", {id: "mc-head", viewBox: "0 0 10 10", refX: "8", refY: "5",
                           markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse"},
                defs);
  el("path", {d: "M0,0 L10,5 L0,10 z", "class": "mc-head"}, head);
  var provs = el("g", {"class": "mc-provs"}, overlay);
  var drawn = el("g", {"class": "mc-lines"}, overlay);
  var rings = el("g", {"class": "mc-units"}, overlay);
  var provEls = {};
  units.forEach(function (u) {
    if (!u.at) return;
    el("circle", {cx: u.at[0], cy: u.at[1], r: R * HIT, "class": "mc-unit",
                  "data-key": u.key, "data-province": u.prov || ""}, rings);
  });
  frame.appendChild(overlay);
  var size = function (w, h) { overlay.setAttribute("viewBox", "0 0 " + w + " " + h); };
  size(data.width, parseFloat(img.getAttribute("height")) || data.width);
  var follow = function () {  // the overlay covers the picture at every zoom
    overlay.style.left = img.offsetLeft + "px";
    overlay.style.top = img.offsetTop + "px";
    overlay.style.width = img.offsetWidth + "px";
    overlay.style.height = img.offsetHeight + "px";
  };
  follow();
  if (window.ResizeObserver) new window.ResizeObserver(follow).observe(img);
  img.addEventListener("load", follow);
  window.addEventListener("resize", follow);

  // the provinces' shapes, from the map the page shows (its own copy, checked by ETag)
  window.fetch(img.getAttribute("src"), {credentials: "same-origin"}).then(function (r) {
    return r.ok ? r.text() : "";
  }).then(function (text) {
    if (!text) return;
    var doc = new window.DOMParser().parseFromString(text, "image/svg+xml");
    var root = doc.documentElement;
    if (!root || root.localName !== "svg") return;
    var box = (root.getAttribute("viewBox") || "").split(/[\s,]+/).map(parseFloat);
    if (box.length === 4 && isFinite(box[2]) && isFinite(box[3])) size(box[2], box[3]);
    doc.querySelectorAll(".province[data-province]").forEach(function (p) {
      var id = p.getAttribute("data-province"), shape;
      if (p.localName === "path" && p.getAttribute("d")) {
        shape = el("path", {d: p.getAttribute("d"),
                            "fill-rule": p.getAttribute("fill-rule") || "nonzero"});
      } else if (p.localName === "polygon" && p.getAttribute("points")) {
        shape = el("polygon", {points: p.getAttribute("points")});
      } else {
        return;
      }
      shape.setAttribute("class", "mc-prov");
      shape.setAttribute("data-province", id);
      provs.appendChild(shape);
      provEls[id] = shape;
    });
    follow();
    marks();
  }).catch(function () { /* no shapes: the panel's buttons still offer every order */ });

  // ---- the panel under the map ----
  var panel = document.createElement("div");
  panel.id = "mapclick-panel";
  panel.className = "mapclick-panel";
  var say = document.createElement("p");
  say.id = "mapclick-say";
  say.setAttribute("aria-live", "polite");
  var buttons = document.createElement("div");
  buttons.className = "mc-buttons";
  var list = document.createElement("div");
  list.className = "mc-choices";
  list.id = "mapclick-choices";
  panel.appendChild(say); panel.appendChild(buttons); panel.appendChild(list);
  frame.parentNode.insertBefore(panel, frame.nextSibling);

  var state = {key: null, type: null, aux: null};
  var button = function (text, parent, act, cls) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) b.className = cls;
    b.addEventListener("click", act);
    parent.appendChild(b);
    return b;
  };
  var offer = function (choices) {  // the choices as buttons, each picks its order
    list.textContent = "";
    choices.forEach(function (c) {
      button(c.full, list, function () { choose(c); }, "mc-choice")
        .setAttribute("data-order", c.text);
    });
  };
  var typesOf = function (u) {
    var seen = [];
    u.choices.forEach(function (c) { if (c.type && seen.indexOf(c.type) < 0) seen.push(c.type); });
    return seen;
  };
  var show = function (text) { say.textContent = text; };
  var reset = function (text) {
    state = {key: null, type: null, aux: null};
    buttons.textContent = "";
    list.textContent = "";
    show(text || "Click one of your units on the map.");
    sendButton();
    marks();
  };
  var select = function (key) {
    var u = byKey[key];
    state = {key: key, type: null, aux: null};
    buttons.textContent = "";
    typesOf(u).forEach(function (t) {
      var of = u.choices.filter(function (c) { return c.type === t; });
      button(TYPES[t] || t, buttons, function () {
        if (of.length === 1 && !PICK[t]) { choose(of[0]); return; }
        state.type = t; state.aux = null;
        show(u.name + ": " + (TYPES[t] || t).toLowerCase() + " — "
             + (PICK[t] ? "click " + PICK[t] + " on the map, or choose:" : "choose:"));
        offer(of);
        marks();
      }, "mc-type").setAttribute("data-type", t);
    });
    button("Cancel", buttons, function () { reset(); }, "mc-cancel");
    sendButton();
    show(u.name + ": click a province to move there, or choose:");
    offer(u.choices);
    marks();
  };
  var choose = function (c) {
    var key = state.key || keyOf(c);
    var s = key === null ? null : selectOf(key);
    if (!s) return;
    s.value = c.text;
    s.dispatchEvent(new Event("change", {bubbles: true}));
    var li = null;
    document.querySelectorAll("#unit-orders li[data-unit]").forEach(function (l) {
      if (l.dataset.unit === key) li = l;
    });
    if (li) li.textContent = c.full + " (picked, not sent yet)";
    picked += 1;
    reset(c.full + ": picked. “Add the picked orders” sends it.");
  };
  var picked = 0;  // picks not sent yet: the panel offers to send them
  var sendButton = function () {
    if (!picked) return;
    button("Add the picked orders", buttons, function () {
      if (picker.requestSubmit) picker.requestSubmit(); else picker.submit();
    }, "mc-send").id = "mapclick-send";
  };
  var keyOf = function (c) {  // the unit (or build site) whose choices hold `c`
    var k = null;
    units.forEach(function (u) { if (u.choices.indexOf(c) >= 0) k = u.key; });
    return k;
  };
  var choicesAt = function (prov) {  // what a click on `prov` picks, in the state
    var u = byKey[state.key];
    return u.choices.filter(function (c) {
      if (state.type === "S" || state.type === "C") {
        if (state.aux === null) return c.type === state.type && c.aux === prov;
        return c.type === state.type && c.aux === state.aux
          && (c.to === prov || (c.to === null && prov === state.aux));
      }
      var t = state.type || (c.type === "R" ? "R" : "-");
      return c.type === t && c.to === prov;
    });
  };
  var mine = function (x, y) {  // the power's units drawn under (x, y), and those that
    // share a space with them (a LAD ocean): the player says which
    var hit = units.filter(function (u) {
      return u.at && Math.hypot(u.at[0] - x, u.at[1] - y) <= R * HIT;
    });
    return units.filter(function (u) {
      return u.at && hit.some(function (h) { return h === u || (h.prov && h.prov === u.prov); });
    });
  };
  var which = function (found) {  // units sharing a space: the player says which
    buttons.textContent = "";
    show("Several of your units are here: which one?");
    list.textContent = "";
    found.forEach(function (u) { button(u.name, list, function () { select(u.key); }, "mc-which"); });
    button("Cancel", buttons, function () { reset(); }, "mc-cancel");
  };
  var clickProvince = function (prov) {
    var u = byKey[state.key];
    var got = choicesAt(prov);
    if ((state.type === "S" || state.type === "C") && state.aux === null) {
      if (!got.length) { show(u.name + " cannot " + TYPES[state.type].toLowerCase()
                              + " a unit in " + name(prov) + "; choose:"); return; }
      state.aux = prov;
      var ends = got.map(function (c) { return c.to; });
      show(u.name + ": " + TYPES[state.type].toLowerCase() + " the unit in " + name(prov)
           + " — click its destination" + (ends.indexOf(null) >= 0 ? " (or it again, to hold)" : "")
           + ", or choose:");
      offer(got);
      marks();
      return;
    }
    if (got.length === 1) { choose(got[0]); return; }
    if (got.length > 1) { show("Which one?"); offer(got); return; }
    show(u.name + ": no order of it goes to " + name(prov) + "; choose:");
  };
  var point = function (e) {
    var m = overlay.getScreenCTM();
    if (!m) return null;
    var p = overlay.createSVGPoint();
    p.x = e.clientX; p.y = e.clientY;
    return p.matrixTransform(m.inverse());
  };
  overlay.addEventListener("click", function (e) {
    var t = e.target && e.target.closest ? e.target.closest("[data-province]") : null;
    var prov = t ? t.getAttribute("data-province") : "";
    var p = point(e);
    var here = p ? mine(p.x, p.y) : [];
    if (state.key && state.type) { if (prov) clickProvince(prov); return; }  // a step: a place
    if (here.length > 1) { which(here); return; }
    if (here.length === 1) { select(here[0].key); return; }
    if (state.key && prov) { clickProvince(prov); return; }  // a unit, then where it moves
    var builds = [];  // an adjustment phase: a click on a build site offers its builds
    units.forEach(function (u) {
      u.choices.forEach(function (c) { if (c.type === "B" && c.to === prov) builds.push(c); });
    });
    if (builds.length) {
      state = {key: null, type: null, aux: null};
      show(name(prov) + ": build");
      offer(builds);
      return;
    }
    show("Click one of your units" + (prov ? " (" + name(prov) + " holds none)" : "") + ".");
  });

  // ---- what is shown: the provinces a click may pick, and the picked orders' lines ----
  var marks = function () {
    Object.keys(provEls).forEach(function (id) { provEls[id].classList.remove("mc-target"); });
    rings.querySelectorAll(".mc-unit").forEach(function (c) {
      c.classList.toggle("mc-selected", c.getAttribute("data-key") === state.key);
    });
    if (!state.key) return;
    var u = byKey[state.key];
    u.choices.forEach(function (c) {
      var t = state.type, id = null;
      if (t === "S" || t === "C") {
        if (c.type !== t) return;
        id = state.aux === null ? c.aux : (c.aux === state.aux ? (c.to || c.aux) : null);
      } else if (c.type === (t || "-") || (!t && c.type === "R")) {
        id = c.to;
      }
      if (id && provEls[id]) provEls[id].classList.add("mc-target");
    });
  };
  var draw = function (key, text) {
    drawn.querySelectorAll("g").forEach(function (g) {
      if (g.getAttribute("data-key") === key) drawn.removeChild(g);
    });
    var u = byKey[key];
    if (!u || !text) return;
    var c = u.choices.filter(function (x) { return x.text === text; })[0];
    if (!c || !c.line.length) return;
    var g = el("g", {"class": "mc-order", "data-key": key, "data-order": c.text}, drawn);
    var pts = c.line, w = R * 0.45;
    var line = function (a0, b0, arrow, dash) {  // off the symbols at both ends
      var dx = b0[0] - a0[0], dy = b0[1] - a0[1], n = Math.hypot(dx, dy) || 1;
      var da = Math.min(R * 1.2, n / 3), db = Math.min(arrow ? R * 0.5 : R * 1.2, n / 3);
      var a = [a0[0] + dx * da / n, a0[1] + dy * da / n];
      var b = [b0[0] - dx * db / n, b0[1] - dy * db / n];
      [["mc-halo", w + 3], ["mc-line", w]].forEach(function (s) {
        var l = el("line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], "class": s[0],
                            "stroke-width": s[1]}, g);
        if (dash) l.setAttribute("stroke-dasharray", (w * 2) + " " + (w * 1.5));
        if (arrow && s[0] === "mc-line") l.setAttribute("marker-end", "url(#mc-head)");
      });
    };
    if (pts.length === 1 || c.type === "H" || c.type === "D" || c.type === "W") {
      el("circle", {cx: pts[0][0], cy: pts[0][1], r: R * 1.9, "class": "mc-line mc-ring",
                    "stroke-width": w}, g);
      if (c.type === "D") line([pts[0][0] - R, pts[0][1] - R], [pts[0][0] + R, pts[0][1] + R]);
      return;
    }
    if (c.type === "S" || c.type === "C") {
      line(pts[0], pts[1], pts.length === 2, true);
      if (pts.length > 2) line(pts[1], pts[2], true, true);
      return;
    }
    line(pts[0], pts[pts.length - 1], true, false);
  };
  picker.addEventListener("change", function (e) {  // the picker's choices are drawn too
    var s = e.target;
    if (s && s.dataset && s.dataset.unit !== undefined) draw(s.dataset.unit, s.value);
  });
  picker.querySelectorAll("select[data-unit]").forEach(function (s) {
    if (s.value) draw(s.dataset.unit, s.value);  // kept by the browser across a reload
  });
  reset();
})();
