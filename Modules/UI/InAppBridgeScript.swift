/// The one script an HTML message runs (INAPP-25, GAP-43): `joryioBridge`.
///
/// It wires the author's markup to the message handler `joryio`
/// (`window.webkit.messageHandlers.joryio.postMessage`), and exposes the same calls as
/// `window.joryioBridge` for the author's markup to name in attributes. The author's own scripts never
/// run (the document's CSP allows this script's hash only), so nothing else can call it; it installs
/// itself once even if an author pastes its exact text (a copy would match the hash).
///
/// Messages it posts, one JavaScript object each (``InAppBridgeMessage`` reads them):
/// - `{type: "click", elementId: String, url: String | null}`: a link, a button or a
///   `data-joryio-action` element was tapped. `elementId` is the element's `data-joryio-id`, else its
///   `id`, else `""`; `url` is `data-joryio-url`, else a link's `href` attribute as written, else `null`.
/// - `{type: "dismiss"}`: a `data-joryio-action="close"` element was tapped, or `joryioBridge.close()`.
/// - `{type: "form", formId: String, values: {name: String}}`: a `<form data-jry-form="id">` was
///   submitted; the browser's own submission is cancelled (and `form-action 'none'` blocks it anyway,
///   INAPP-52). Values are the form's entries as strings (a file input gives its file name; for a
///   repeated name the last entry wins). Forms without `data-jry-form` are cancelled silently.
///
/// `data-joryio-action` values: `close` (dismiss), `click` and `open` (a click; `open` names its URL in
/// `data-joryio-url` or `href`). Any other value is a click. Without WebKit's handler (a desktop
/// browser running the fixtures) each message is dispatched as a `joryio-bridge` `CustomEvent` on
/// `window` instead.
///
/// The text is hashed byte for byte into the CSP (``InAppHTMLDocument/scriptHash``): any edit here
/// changes the hash with it, and it must never contain `</script`.
package enum InAppBridgeScript {
    /// The script's text, placed verbatim between `<script>` and `</script>`.
    package static let source = """
        (function () {
          "use strict";
          if (window.joryioBridge) { return; }
          function post(message) {
            var handlers = window.webkit && window.webkit.messageHandlers;
            if (handlers && handlers.joryio) { handlers.joryio.postMessage(message); return; }
            window.dispatchEvent(new CustomEvent("joryio-bridge", { detail: message }));
          }
          function text(value) { return typeof value === "string" ? value : ""; }
          function elementId(element) {
            return element.getAttribute("data-joryio-id") || element.id || "";
          }
          function elementURL(element) {
            var url = element.getAttribute("data-joryio-url");
            if (url === null && element.tagName === "A") { url = element.getAttribute("href"); }
            return url === null ? null : url;
          }
          function formValues(form) {
            var values = {};
            new FormData(form).forEach(function (value, name) {
              values[name] = typeof value === "string" ? value : text(value && value.name);
            });
            return values;
          }
          var bridge = Object.freeze({
            click: function (id, url) {
              post({ type: "click", elementId: text(id), url: typeof url === "string" ? url : null });
            },
            close: function () { post({ type: "dismiss" }); },
            submit: function (formId, values) {
              var strings = {};
              Object.keys(values || {}).forEach(function (key) { strings[key] = String(values[key]); });
              post({ type: "form", formId: text(formId), values: strings });
            }
          });
          Object.defineProperty(window, "joryioBridge", { value: bridge, writable: false, configurable: false });
          document.addEventListener("click", function (event) {
            var target = event.target instanceof Element ? event.target : null;
            var element = target && target.closest("[data-joryio-action], a[href], button");
            if (!element) { return; }
            var form = element.tagName === "BUTTON" ? element.form : null;
            var action = element.getAttribute("data-joryio-action");
            if (action === null && form && form.hasAttribute("data-jry-form") && element.type === "submit") {
              return;
            }
            event.preventDefault();
            if (action === "close") { bridge.close(); return; }
            bridge.click(elementId(element), elementURL(element));
          }, true);
          document.addEventListener("submit", function (event) {
            var form = event.target;
            event.preventDefault();
            if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-jry-form")) { return; }
            post({ type: "form", formId: form.getAttribute("data-jry-form"), values: formValues(form) });
          }, true);
        })();
        """
}
