// Zoom buttons for the map, and the time left before the deadline. Pages work without it.
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
