import Foundation
package import JoryioUI

/// Loads an HTML in-app message's document in headless Chromium with a test shim standing in for
/// WebKit's `joryio` message handler, plays taps and submissions on it, and reports what the bridge
/// posted and which CSP violations the browser reported (issue 17's browser lane).
///
/// The document is ``InAppHTMLDocument/html(instrumentedWith:)``: the shipped document plus the shim,
/// which runs first (its hash joins `script-src`, nothing else changes). The shim records every
/// `securitypolicyviolation` event from the first byte of the author's markup on, takes every DOM
/// method it uses from the prototypes before the author's markup exists (so named elements cannot
/// shadow them), and after `load` runs the steps, then the attacks, and writes its findings, base64
/// JSON, into an element whose id carries a per-run nonce; the DOM dump carries it out.
package struct BrowserProbe: Sendable {
    /// One thing the shim does after `load`, in order.
    package enum Step: Sendable, Equatable {
        /// A click (a trusted-looking `MouseEvent`, bubbling and cancelable) on the first element
        /// matching the CSS selector: for links and buttons the browser's own activation runs unless
        /// the bridge cancels it.
        case click(String)
        /// `requestSubmit()` on the form matching the selector: the `submit` event the bridge answers.
        case requestSubmit(String)
        /// `HTMLFormElement.prototype.submit` on the form: no `submit` event, straight to the
        /// browser's form submission, which `form-action 'none'` must block.
        case nativeSubmit(String)
        /// `joryioBridge.click(id, url)` as the page would call it.
        case bridgeClick(id: String, url: String?)
        /// `joryioBridge.close()`.
        case bridgeClose
        /// `joryioBridge.submit(formId, values)`.
        case bridgeSubmit(formId: String, values: [String: String])
        /// Adds a `<button data-joryio-id=id>` at the end of the document and clicks it: proves the
        /// bridge still answers whatever the author's markup did.
        case probeButton(id: String)
    }

    /// One CSP violation as the browser reported it.
    package struct Violation: Sendable, Equatable, Decodable, CustomStringConvertible {
        /// `effectiveDirective`: `script-src-elem`, `img-src`, `form-action` …
        package var directive: String
        /// `blockedURI`: `inline`, `eval`, or the URL that was refused.
        package var blocked: String

        /// A report of `directive` refusing `blocked`.
        package init(directive: String, blocked: String) {
            self.directive = directive
            self.blocked = blocked
        }

        package var description: String { "\(self.directive) \(self.blocked)" }
    }

    /// What one load reported.
    package struct Result: Sendable {
        /// What the bridge posted before the first step (during parsing and `load`): must be empty.
        package var onLoad: [InAppBridgeMessage?]
        /// What the bridge posted during each step, one list per step; `nil` for a message that is
        /// none of the three shapes.
        package var steps: [[InAppBridgeMessage?]]
        /// Every CSP violation the browser reported, in order.
        package var violations: [Violation]
        /// `document.title` at the end (the fixtures' scripts try to set it to `ran`).
        package var title: String
        /// Whether `window.joryioBridge` is still the bridge's own frozen, non-writable, non-configurable object.
        package var bridgeIntact: Bool
        /// The attacks the shim tried after the steps, by name, and whether each took effect.
        package var attacks: [String: Bool]
        /// Errors the shim met (a selector that matched nothing …).
        package var errors: [String]
        /// The location at the end: still the page itself unless something navigated.
        package var location: String

        /// The violations' directives, as a set.
        package var directives: Set<String> { Set(self.violations.map(\.directive)) }
    }

    /// A failed probe.
    package enum Failure: Error, CustomStringConvertible {
        /// The DOM came back without the shim's findings: the page navigated away or the shim never ran.
        case noFindings(String)

        package var description: String {
            switch self {
            case .noFindings(let dom): "the page reported nothing (navigated away?): \(dom.prefix(600))"
            }
        }
    }

    /// The browser.
    package let browser: HeadlessChromium

    /// A probe driving `browser`.
    package init(browser: HeadlessChromium) {
        self.browser = browser
    }

    /// Loads `document` with the shim, runs `steps`, and reports.
    package func run(_ document: InAppHTMLDocument, steps: [Step] = []) throws -> Result {
        let nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let shim = Self.shim(steps: steps, nonce: nonce)
        let dom = try self.browser.dumpDOM(of: document.html(instrumentedWith: shim))
        let marker = "id=\"joryio-probe-\(nonce)\">"
        guard let start = dom.range(of: marker),
            let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex),
            let json = Data(base64Encoded: String(dom[start.upperBound..<end.lowerBound])),
            let fields = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        else { throw Failure.noFindings(dom) }
        func messages(_ value: Any?) -> [InAppBridgeMessage?] {
            ((value as? [Any]) ?? []).map { InAppBridgeMessage(body: $0) }
        }
        let violationData = try JSONSerialization.data(withJSONObject: fields["violations"] ?? [])
        return Result(
            onLoad: messages(fields["onLoad"]),
            steps: ((fields["steps"] as? [Any]) ?? []).map(messages),
            violations: try JSONDecoder().decode([Violation].self, from: violationData),
            title: fields["title"] as? String ?? "",
            bridgeIntact: fields["bridgeIntact"] as? Bool ?? false,
            attacks: (fields["attacks"] as? [String: Bool]) ?? [:],
            errors: (fields["errors"] as? [String]) ?? [],
            location: fields["location"] as? String ?? ""
        )
    }

    /// The attacks the shim tries once the steps are done, each under the document's CSP, each of
    /// which must fail: an inserted `<script>`, an inline handler, `eval`, `new Function`, a timer from
    /// a string, a remote image, a `fetch`, a frame.
    package static let attackNames = [
        "script-element", "inline-handler", "eval", "function-constructor", "string-timer", "remote-image", "fetch",
        "frame",
    ]

    static func shim(steps: [Step], nonce: String) -> String {
        let plan = steps.map(Self.planEntry)
        let planJSON =
            (try? JSONSerialization.data(withJSONObject: plan, options: [.sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return Self.shimSource
            .replacingOccurrences(of: "PLAN_JSON", with: planJSON)
            .replacingOccurrences(of: "PROBE_NONCE", with: nonce)
    }

    private static func planEntry(_ step: Step) -> [String: Any] {
        switch step {
        case .click(let selector): ["kind": "click", "selector": selector]
        case .requestSubmit(let selector): ["kind": "requestSubmit", "selector": selector]
        case .nativeSubmit(let selector): ["kind": "nativeSubmit", "selector": selector]
        case .bridgeClick(let id, let url): ["kind": "bridgeClick", "id": id, "url": url ?? NSNull()]
        case .bridgeClose: ["kind": "bridgeClose"]
        case .bridgeSubmit(let formId, let values): ["kind": "bridgeSubmit", "formId": formId, "values": values]
        case .probeButton(let id): ["kind": "probeButton", "id": id]
        }
    }

    /// The shim. `PLAN_JSON` and `PROBE_NONCE` are replaced per run.
    static let shimSource = """
        (function () {
          "use strict";
          var uncurry = Function.prototype.bind.bind(Function.prototype.call);
          function getter(type, name) { return uncurry(Object.getOwnPropertyDescriptor(type.prototype, name).get); }
          var querySelector = uncurry(Document.prototype.querySelector);
          var createElement = uncurry(Document.prototype.createElement);
          var documentElement = getter(Document, "documentElement");
          var titleOf = getter(Document, "title");
          var appendChild = uncurry(Node.prototype.appendChild);
          var setAttribute = uncurry(Element.prototype.setAttribute);
          var setText = uncurry(Object.getOwnPropertyDescriptor(Node.prototype, "textContent").set);
          var dispatch = uncurry(EventTarget.prototype.dispatchEvent);
          var addListener = uncurry(EventTarget.prototype.addEventListener);
          var requestSubmit = uncurry(HTMLFormElement.prototype.requestSubmit);
          var nativeSubmit = uncurry(HTMLFormElement.prototype.submit);
          var setSrc = uncurry(Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src").set);
          var setFrameSrc = uncurry(Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, "src").set);
          var stringify = JSON.stringify, parse = JSON.parse, push = uncurry(Array.prototype.push);
          var encode = encodeURIComponent, unescapeText = unescape, toBase64 = btoa;
          var later = setTimeout, fetchURL = window.fetch, MouseEventType = MouseEvent, Evaluate = eval;
          var FunctionType = Function;
          var plan = PLAN_JSON;
          var posted = [], violations = [], errors = [], attacks = {};
          window.webkit = { messageHandlers: { joryio: { postMessage: function (message) {
            push(posted, parse(stringify(message)));
          } } } };
          addListener(document, "securitypolicyviolation", function (event) {
            push(violations, { directive: event.effectiveDirective, blocked: event.blockedURI });
          });
          function element(selector) {
            var found = querySelector(document, selector);
            if (!found) { throw new Error("nothing matches " + selector); }
            return found;
          }
          function click(target) {
            dispatch(target, new MouseEventType("click", { bubbles: true, cancelable: true, view: window }));
          }
          function runStep(step) {
            switch (step.kind) {
            case "click": click(element(step.selector)); break;
            case "requestSubmit": requestSubmit(element(step.selector)); break;
            case "nativeSubmit": nativeSubmit(element(step.selector)); break;
            case "bridgeClick": window.joryioBridge.click(step.id, step.url); break;
            case "bridgeClose": window.joryioBridge.close(); break;
            case "bridgeSubmit": window.joryioBridge.submit(step.formId, step.values); break;
            case "probeButton":
              var button = createElement(document, "button");
              setAttribute(button, "data-joryio-id", step.id);
              appendChild(documentElement(document), button);
              click(button);
              break;
            default: throw new Error("unknown step " + step.kind);
            }
          }
          function attack(name, body) {
            try { body(); } catch (error) { }
          }
          function runAttacks() {
            window.__jryAttack = {};
            attack("script-element", function () {
              var script = createElement(document, "script");
              setText(script, "window.__jryAttack['script-element'] = true;");
              appendChild(documentElement(document), script);
            });
            attack("inline-handler", function () {
              var target = createElement(document, "div");
              setAttribute(target, "onclick", "window.__jryAttack['inline-handler'] = true;");
              appendChild(documentElement(document), target);
              click(target);
            });
            attack("eval", function () { Evaluate("window.__jryAttack['eval'] = true;"); });
            attack("function-constructor", function () {
              new FunctionType("window.__jryAttack['function-constructor'] = true;")();
            });
            attack("string-timer", function () { later("window.__jryAttack['string-timer'] = true;", 0); });
            attack("remote-image", function () {
              var image = createElement(document, "img");
              image.onload = function () { window.__jryAttack["remote-image"] = true; };
              setSrc(image, "https://evil.example/probe.png");
            });
            attack("fetch", function () {
              fetchURL("https://evil.example/probe").then(function () { window.__jryAttack.fetch = true; }, function () { });
            });
            attack("frame", function () {
              var frame = createElement(document, "iframe");
              frame.onload = function () {
                try { if (frame.contentDocument && frame.contentDocument.body) { window.__jryAttack.frame = true; } } catch (error) { }
              };
              setFrameSrc(frame, "https://evil.example/frame");
              appendChild(documentElement(document), frame);
            });
          }
          function report(onLoad, steps) {
            ATTACK_NAMES.forEach(function (name) { attacks[name] = window.__jryAttack[name] === true; });
            var descriptor = Object.getOwnPropertyDescriptor(window, "joryioBridge");
            var bridge = descriptor && descriptor.value;
            var findings = {
              onLoad: onLoad, steps: steps, violations: violations, errors: errors, attacks: attacks,
              title: titleOf(document), location: String(window.location.href),
              bridgeIntact: !!(descriptor && !descriptor.writable && !descriptor.configurable && Object.isFrozen(bridge)
                && typeof bridge.click === "function" && typeof bridge.close === "function"
                && typeof bridge.submit === "function")
            };
            var out = createElement(document, "pre");
            setAttribute(out, "id", "joryio-probe-PROBE_NONCE");
            setText(out, toBase64(unescapeText(encode(stringify(findings)))));
            appendChild(documentElement(document), out);
          }
          addListener(window, "load", function () {
            var onLoad = posted.splice(0);
            var steps = [];
            plan.forEach(function (step) {
              try { runStep(step); } catch (error) { push(errors, String(error && error.message || error)); }
              push(steps, posted.splice(0));
            });
            runAttacks();
            later(function () { report(onLoad, steps); }, 500);
          });
        })();
        """.replacingOccurrences(
            of: "ATTACK_NAMES",
            with: "[" + attackNames.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        )
}
