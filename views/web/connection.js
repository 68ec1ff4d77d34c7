// The device's own connection state, in the app's words (served inside every page).
//
// The server sends a heartbeat at least every second while the page's session is live. When no
// message has arrived for LIMIT ms, the socket closed, or the browser says it is offline, a
// cover is shown over the whole screen: it says the device is reconnecting and takes every tap,
// so no tap is made on a screen the server may no longer match (a tap on it says it was not
// sent). When messages arrive again the server has drawn the screen anew and the cover goes.
(function () {
  "use strict";
  var LIMIT = 2500;
  var Native = window.WebSocket;
  var state = { open: 0, ever: false, last: 0, taps: 0 };
  var cover = null;

  function make() {
    cover = document.createElement("div");
    cover.id = "vc-offline";
    cover.setAttribute("role", "alertdialog");
    cover.setAttribute("aria-live", "assertive");
    cover.setAttribute("aria-label", "Connection lost");
    cover.style.cssText = [
      "position:fixed", "inset:0", "z-index:2147483647", "display:none",
      "align-items:center", "justify-content:center", "background:rgba(13,7,8,0.86)",
      "font-family:Roboto,Arial,sans-serif", "color:#f3e9e3", "text-align:center",
      "padding:24px", "box-sizing:border-box"].join(";");
    cover.innerHTML =
      '<div style="max-width:420px;background:#241316;border:2px solid #e0b84f;' +
      'border-radius:14px;padding:22px">' +
      '<div style="font-size:24px;font-weight:700;margin-bottom:10px">Reconnecting…</div>' +
      '<div id="vc-offline-text" style="font-size:18px;line-height:1.4">This device lost its ' +
      "connection to the table. Your taps are not sent until it is back; the screen is " +
      "drawn again from the table then.</div>" +
      '<div id="vc-offline-tap" style="font-size:18px;font-weight:700;color:#ff8a8a;' +
      'margin-top:12px;min-height:1.4em"></div></div>';
    var refuse = function (e) {
      e.preventDefault();
      e.stopPropagation();
      state.taps += 1;
      var note = document.getElementById("vc-offline-tap");
      if (note) note.textContent = "Not sent: this device is offline.";
    };
    ["pointerdown", "pointerup", "click", "touchstart", "mousedown", "keydown"].forEach(
      function (kind) { cover.addEventListener(kind, refuse, true); });
    document.body.appendChild(cover);
  }

  function offline() {
    if (!state.ever) return false; // still loading: Flutter's own splash shows
    if (state.open < 1 || navigator.onLine === false) return true;
    return Date.now() - state.last > LIMIT;
  }

  function update() {
    if (!document.body) return;
    if (!cover) make();
    var show = offline();
    var shown = cover.style.display !== "none";
    if (state.ever) {
      document.documentElement.setAttribute("data-vc-connection", show ? "offline" : "live");
    }
    if (show === shown) return;
    cover.style.display = show ? "flex" : "none";
    if (!show) {
      var note = document.getElementById("vc-offline-tap");
      if (note) note.textContent = "";
    }
  }

  function Watched(url, protocols) {
    var ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    var opened = false;
    ws.addEventListener("open", function () {
      opened = true; state.open += 1; state.ever = true; state.last = Date.now(); update();
    });
    ws.addEventListener("message", function () { state.last = Date.now(); update(); });
    ws.addEventListener("close", function () {
      if (opened) { opened = false; state.open -= 1; }
      update();
    });
    return ws;
  }
  Watched.prototype = Native.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (k) { Watched[k] = Native[k]; });
  window.WebSocket = Watched;
  window.addEventListener("offline", update);
  window.addEventListener("online", update);
  window.vcConnection = state;
  setInterval(update, 250);
})();
