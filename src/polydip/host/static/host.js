// The map's zoom and view (kept across reloads), the time left before the deadline, and
// "Back" links that go back a page (without script they go to the start page). Pages work without it; the pages
// hold no inline script or event attribute, so a Content-Security-Policy can forbid both.
document.querySelectorAll("[data-back]").forEach(function (a) {
  a.addEventListener("click", function (e) {
    if (window.history.length > 1) { e.preventDefault(); window.history.back(); }
  });
});
(function () {
  // The map: zoom in % of the frame's width. Zoom, the view's centre and the phase are
  // kept per map (sessionStorage, keyed by the map's address, the same for a page and
  // the page a submit returns), so a submit or a reload shows the same view; a new phase
  // keeps the zoom and opens on the power's units again. The first view opens on them
  // (data-focus: their box in fractions of the picture), zoomed so that they fit and, on
  // a narrow screen, so that province names are legible (data-label-px at >= 9 px).
  // (MIN..MAX: the zoom's range; FIT_MAX: the most the first view zooms to fit.)
  var img = document.getElementById("map"), frame = document.getElementById("map-frame");
  if (!img || !frame) return;
  var MIN = 100, MAX = 800, FIT_MAX = 250, STEP = 1.25, LEGIBLE_PX = 9, NARROW = 600;
  var key = "polydip-map:" + img.getAttribute("src");
  var shown = document.getElementById("zoom-level");
  var zoom = MIN;
  var load = function () {
    try { return JSON.parse(window.sessionStorage.getItem(key) || "null"); } catch (e) { return null; }
  };
  var placed = false;  // nothing is saved before the view is placed (a page left early)
  var save = function () {
    var w = img.offsetWidth, h = img.offsetHeight;
    if (!placed || !w || !h) return;
    var v = {zoom: zoom, phase: img.dataset.phase || "",
             cx: (frame.scrollLeft + frame.clientWidth / 2) / w,
             cy: (frame.scrollTop + frame.clientHeight / 2) / h};
    try { window.sessionStorage.setItem(key, JSON.stringify(v)); } catch (e) { /* full or off */ }
  };
  var setZoom = function (z) {
    zoom = Math.max(MIN, Math.min(MAX, Math.round(z)));
    img.style.width = zoom + "%";
    if (shown) shown.textContent = zoom + "%";
  };
  var centre = function (cx, cy) {  // the view's centre at (cx, cy), fractions of the picture
    frame.scrollLeft = cx * img.offsetWidth - frame.clientWidth / 2;
    frame.scrollTop = cy * img.offsetHeight - frame.clientHeight / 2;
  };
  var box = (img.dataset.focus || "").split(",").map(parseFloat);
  var hasBox = box.length === 4 && box.every(function (x) { return isFinite(x); });
  var focusZoom = function () {  // the units' box fits the frame; names legible when narrow
    var pw = parseFloat(img.getAttribute("width")), ph = parseFloat(img.getAttribute("height"));
    var fw = frame.clientWidth, ratio = pw && ph ? ph / pw : 1;
    var z = 100 / Math.max(box[2] - box[0], 0.01);
    var fh = frame.clientHeight || window.innerHeight;
    z = Math.min(z, 100 * fh / (fw * ratio * Math.max(box[3] - box[1], 0.01)));
    z = Math.min(z, FIT_MAX);  // a lone unit: still some of the board around it
    var px = parseFloat(img.dataset.labelPx || "0");
    if (px && pw && fw < NARROW) z = Math.max(z, 100 * LEGIBLE_PX * pw / (px * fw));
    return z;
  };
  var saved = load();
  var place = function () {
    placed = true;
    // the same phase, or a map that has no units to open on (the GM's, a past phase)
    if (saved && (saved.phase === (img.dataset.phase || "") || !hasBox) && isFinite(saved.cx)) {
      centre(saved.cx, saved.cy);
    } else if (hasBox) {
      centre((box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
    }
  };
  if (saved && isFinite(saved.zoom)) setZoom(saved.zoom);
  else if (hasBox) setZoom(focusZoom());
  else setZoom(MIN);
  // with the picture's size in its attributes the layout is known before it loads
  if (img.getAttribute("height") || (img.complete && img.offsetHeight > 1)) place();
  else img.addEventListener("load", place, {once: true});
  document.querySelectorAll("[data-zoom]").forEach(function (b) {
    b.addEventListener("click", function () {
      var w = img.offsetWidth, h = img.offsetHeight;
      var cx = (frame.scrollLeft + frame.clientWidth / 2) / w;
      var cy = (frame.scrollTop + frame.clientHeight / 2) / h;
      setZoom(zoom * (parseInt(b.dataset.zoom, 10) > 0 ? STEP : 1 / STEP));
      centre(cx, cy);  // zoom about the view's centre
      save();
    });
  });
  var pending = 0;
  frame.addEventListener("scroll", function () {
    if (!pending) pending = window.setTimeout(function () { pending = 0; save(); }, 150);
  });
  window.addEventListener("pagehide", save);
})();
var t = document.getElementById("deadline");
if (t && t.dataset.left && !document.getElementById("live")) {  // (live.js counts then)
  var end = Date.now() + 1000 * parseInt(t.dataset.left, 10);
  var tick = function () {
    var s = Math.max(0, Math.round((end - Date.now()) / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);
    t.textContent = new Date(end).toLocaleString() + " (" + (h ? h + " h " : "") + m + " min " + (s % 60) + " s left)";
  };
  tick(); setInterval(tick, 1000);
}
