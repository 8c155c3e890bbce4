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
/// Links are `<a>` and `<area>` in any namespace (SVG's `<a>` too, with `href` or `xlink:href`): the
/// bridge cancels the browser's navigation for every one of them, and a link with no URL posts
/// nothing. The web view's navigation policy refuses whatever gets past it.
///
/// Clobbering: the author's markup cannot run code, but named elements can shadow DOM properties
/// (`<input name="getAttribute">` makes `form.getAttribute` that input; `<img name="querySelector">`
/// shadows `document.querySelector`). The bridge therefore takes every DOM method and getter it uses
/// from the prototypes while it installs, in the head, before any author element exists, and never
/// reads a property of an element or a form by name.
///
/// The text is hashed byte for byte into the CSP (``InAppHTMLDocument/scriptHash``): any edit here
/// changes the hash with it, and it must never contain `</script`.
package enum InAppBridgeScript {
    /// The script's text, placed verbatim between `<script>` and `</script>`.
    package static let source = """
        (function () {
          "use strict";
          if (window.joryioBridge) { return; }
          var uncurry = Function.prototype.bind.bind(Function.prototype.call);
          function getter(type, name) { return uncurry(Object.getOwnPropertyDescriptor(type.prototype, name).get); }
          var getAttribute = uncurry(Element.prototype.getAttribute);
          var getAttributeNS = uncurry(Element.prototype.getAttributeNS);
          var hasAttribute = uncurry(Element.prototype.hasAttribute);
          var closest = uncurry(Element.prototype.closest);
          var localName = getter(Element, "localName");
          var idOf = getter(Element, "id");
          var formOf = getter(HTMLButtonElement, "form");
          var buttonType = getter(HTMLButtonElement, "type");
          var targetOf = getter(Event, "target");
          var preventDefault = uncurry(Event.prototype.preventDefault);
          var addListener = uncurry(EventTarget.prototype.addEventListener);
          var dispatch = uncurry(EventTarget.prototype.dispatchEvent);
          var forEachEntry = uncurry(FormData.prototype.forEach);
          var keysOf = Object.keys;
          var ElementType = Element, ButtonType = HTMLButtonElement, FormType = HTMLFormElement;
          var FormDataType = FormData, EventType = CustomEvent;
          var handlers = window.webkit && window.webkit.messageHandlers;
          var handler = handlers && handlers.joryio ? handlers.joryio : null;
          function post(message) {
            if (handler) { handler.postMessage(message); return; }
            dispatch(window, new EventType("joryio-bridge", { detail: message }));
          }
          function text(value) { return typeof value === "string" ? value : ""; }
          function isLink(element) { var name = localName(element); return name === "a" || name === "area"; }
          function elementId(element) { return getAttribute(element, "data-joryio-id") || idOf(element) || ""; }
          function elementURL(element) {
            var url = getAttribute(element, "data-joryio-url");
            if (url === null && isLink(element)) {
              url = getAttribute(element, "href");
              if (url === null) { url = getAttributeNS(element, "http://www.w3.org/1999/xlink", "href"); }
            }
            return url;
          }
          function formValues(form) {
            var values = {};
            forEachEntry(new FormDataType(form), function (value, name) {
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
              keysOf(values || {}).forEach(function (key) { strings[key] = String(values[key]); });
              post({ type: "form", formId: text(formId), values: strings });
            }
          });
          Object.defineProperty(window, "joryioBridge", { value: bridge, writable: false, configurable: false });
          addListener(document, "click", function (event) {
            var target = targetOf(event);
            var element = target instanceof ElementType ? closest(target, "[data-joryio-action], a, area, button") : null;
            if (!element) { return; }
            var action = getAttribute(element, "data-joryio-action");
            if (action === null && element instanceof ButtonType) {
              var form = formOf(element);
              if (form && hasAttribute(form, "data-jry-form") && buttonType(element) === "submit") { return; }
            }
            preventDefault(event);
            if (action === "close") { bridge.close(); return; }
            var url = elementURL(element);
            if (action === null && isLink(element) && url === null) { return; }
            bridge.click(elementId(element), url);
          }, true);
          addListener(document, "submit", function (event) {
            var form = targetOf(event);
            preventDefault(event);
            if (!(form instanceof FormType) || !hasAttribute(form, "data-jry-form")) { return; }
            post({ type: "form", formId: getAttribute(form, "data-jry-form"), values: formValues(form) });
          }, true);
        })();
        """
}
