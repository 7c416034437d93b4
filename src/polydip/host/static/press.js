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

// New messages without a reload: the section asks for this link's own messages (only what
// it may read) every 10 s, and at once when the live page says something changed, and
// redraws the list when there are more. Texts are set as text, never as markup.
(function () {
  var section = document.getElementById("press");
  var list = document.getElementById("press-messages");
  if (!section || !list || !section.dataset.poll) return;
  var shown = function () { return list.querySelectorAll(".press-message").length; };
  var el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  var draw = function (view) {
    list.textContent = "";
    view.phases.slice().reverse().forEach(function (ph) {
      list.appendChild(el("h3", "press-phase", ph.phase));
      var ol = el("ol", "press-list");
      ph.messages.slice().reverse().forEach(function (x) {
        var pub = x.recipients === "GLOBAL";
        var li = el("li", "press-message" + (pub ? " public" : ""));
        li.dataset.id = x.id;
        var head = el("span", "press-head");
        head.appendChild(el("strong", "press-sender", x.sender));
        if (x.sender_player) head.appendChild(document.createTextNode(" (" + x.sender_player + ")"));
        head.appendChild(document.createTextNode(" \u2192 "));
        head.appendChild(el("span", "press-to", pub ? "all powers" : x.recipients.join(", ")));
        li.appendChild(head);
        li.appendChild(el("div", "press-text", x.text));
        ol.appendChild(li);
      });
      list.appendChild(ol);
    });
    var note = document.getElementById("press-new");
    if (!note) {
      note = el("p", "note", "");
      note.id = "press-new";
      list.parentNode.insertBefore(note, list);
    }
    note.textContent = "New message at " + new Date().toLocaleTimeString() + ".";
  };
  var busy = false;
  var check = function () {
    if (busy) return;
    busy = true;
    var req = new XMLHttpRequest();
    req.open("GET", section.dataset.poll);
    req.onload = function () {
      busy = false;
      if (req.status !== 200) return;
      try {
        var view = JSON.parse(req.responseText);
        if (view.messages && view.messages.length > shown()) draw(view);
      } catch (e) { /* a bad answer: next time */ }
    };
    req.onerror = function () { busy = false; };
    req.send();
  };
  window.setInterval(check, 10000);
  document.addEventListener("polydip:live", check);
})();
