// Press (templates/_press.html): "all powers (public)" and the single powers exclude each
// other in the form. The page works without it (a form with both ticked sends in public).
(function () {
  var form = document.getElementById("press-form");
  if (!form) return;
  var pub = document.getElementById("press-public");
  var boxes = form.querySelectorAll("input[name=to]");
  if (!pub) return;
  pub.addEventListener("change", function () {
    if (pub.checked) boxes.forEach(function (b) { b.checked = false; });
  });
  boxes.forEach(function (b) {
    b.addEventListener("change", function () { if (b.checked) pub.checked = false; });
  });
})();
