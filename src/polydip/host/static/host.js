// Zoom buttons for the map, the time left before the deadline, and "Back" links that go
// back a page (without script they go to the start page). Pages work without it; the pages
// hold no inline script or event attribute, so a Content-Security-Policy can forbid both.
document.querySelectorAll("[data-back]").forEach(function (a) {
  a.addEventListener("click", function (e) {
    if (window.history.length > 1) { e.preventDefault(); window.history.back(); }
  });
});
document.querySelectorAll("[data-zoom]").forEach(function (b) {
  b.addEventListener("click", function () {
    var img = document.getElementById("map");
    var w = parseFloat(img.style.width || "100") + 50 * parseInt(b.dataset.zoom, 10);
    img.style.width = Math.max(100, Math.min(400, w)) + "%";
  });
});
var t = document.getElementById("deadline");
if (t && t.dataset.left) {
  var end = Date.now() + 1000 * parseInt(t.dataset.left, 10);
  var tick = function () {
    var s = Math.max(0, Math.round((end - Date.now()) / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);
    t.textContent = new Date(end).toLocaleString() + " (" + (h ? h + " h " : "") + m + " min " + (s % 60) + " s left)";
  };
  tick(); setInterval(tick, 1000);
}
