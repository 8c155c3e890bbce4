package import Foundation
internal import JoryioCore
internal import JoryioInApp
package import JoryioKit
package import JoryioUI

/// Pictures of in-app campaigns (issue 17, item 5): each campaign on a phone-sized screen in light and
/// dark mode, as a page that headless Chromium screenshots to PNG.
///
/// A native campaign is ``InAppNativePreview``'s HTML rendering of its view model, wrapped in the same
/// ``InAppHTMLDocument`` (and so the same CSP) as an HTML campaign. An HTML campaign is its real
/// document, loaded into an `<iframe srcdoc>` placed where the built-in presenter puts that type,
/// over a stand-in app screen. Either page runs no script of its own.
package enum CampaignPreview {
    /// The colour schemes a campaign is drawn in.
    package static let schemes: [InAppAppearance.ColorScheme] = [.light, .dark]

    /// The campaigns in `data`: one campaign object as the sync answer carries it, an array of them,
    /// or a whole sync answer (`{"campaigns": [...]}`). Each is read by the SDK's own decoder.
    package static func campaigns(from data: Data) -> Result<[InAppMessage], PreviewError> {
        guard let json = JSONValue.parse(data) else { return .failure(PreviewError("the file is not JSON")) }
        let list: [JSONValue]
        if let campaigns = json["campaigns"]?.arrayValue {
            list = campaigns
        } else if let array = json.arrayValue {
            list = array
        } else {
            list = [json]
        }
        guard !list.isEmpty else { return .failure(PreviewError("no campaigns in the file")) }
        var messages: [InAppMessage] = []
        for (index, value) in list.enumerated() {
            switch InAppWire.decodeCampaign(value) {
            case .success(let campaign): messages.append(campaign.message)
            case .failure(let problem): return .failure(PreviewError("campaign \(index + 1): \(problem)"))
            }
        }
        return .success(messages)
    }

    /// The page that pictures `message` under `appearance` on `screen`.
    package static func page(
        for message: InAppMessage,
        appearance: InAppAppearance,
        screen: InAppNativePreview.Screen = .phone
    ) -> String {
        switch message.content {
        case .native(let content):
            let layout = InAppNativeLayout(type: message.type, content: content)
            let preview = InAppNativePreview(layout: layout, appearance: appearance, screen: screen)
            return InAppHTMLDocument(authorHTML: preview.markup).html
        case .html(let markup):
            return self.htmlCampaignPage(
                document: InAppHTMLDocument(authorHTML: markup),
                type: message.type,
                appearance: appearance,
                screen: screen
            )
        }
    }

    /// The file name stem of `message`'s pictures: its id with anything but letters, digits, `.`, `_`
    /// and `-` replaced, so a campaign id cannot name a path.
    package static func fileStem(_ message: InAppMessage) -> String {
        let safe = message.id.unicodeScalars.map { scalar -> String in
            let allowed =
                (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)))
                || "._-".unicodeScalars.contains(scalar)
            return allowed ? String(scalar) : "_"
        }
        let stem = safe.joined()
        return stem.hasPrefix(".") ? "_" + stem.dropFirst() : stem
    }

    /// One picture written.
    package struct Picture: Sendable, Equatable {
        /// The PNG.
        package var png: URL
        /// The page it was taken of.
        package var page: String
    }

    /// How the PNGs are named.
    package enum Naming: Sendable, Equatable {
        /// `<stem>-light.png`, `<stem>-dark.png`.
        case plain
        /// DocC's image variants: `<stem>@<scale>x.png` and `<stem>~dark@<scale>x.png`, which a
        /// catalogue shows by the reader's appearance.
        case docc
    }

    /// The file name of `message`'s picture in `scheme`.
    package static func fileName(
        _ message: InAppMessage,
        _ scheme: InAppAppearance.ColorScheme,
        naming: Naming,
        scale: Int
    ) -> String {
        let stem = self.fileStem(message)
        switch naming {
        case .plain: return "\(stem)-\(scheme.rawValue).png"
        case .docc: return stem + (scheme == .dark ? "~dark" : "") + "@\(scale)x.png"
        }
    }

    /// Screenshots every message in both schemes into `folder`, named by `naming`, at `scale`
    /// device pixels per point.
    package static func render(
        _ messages: [InAppMessage],
        to folder: URL,
        browser: HeadlessChromium,
        scale: Int = 2,
        naming: Naming = .plain,
        screen: InAppNativePreview.Screen = .phone
    ) throws -> [Picture] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var pictures: [Picture] = []
        for message in messages {
            for scheme in self.schemes {
                let page = self.page(for: message, appearance: InAppAppearance(colorScheme: scheme), screen: screen)
                let png = folder.appendingPathComponent(self.fileName(message, scheme, naming: naming, scale: scale))
                try browser.screenshot(
                    of: page,
                    width: Int(screen.width),
                    height: Int(screen.height),
                    scale: scale,
                    dark: scheme == .dark,
                    to: png
                )
                pictures.append(Picture(png: png, page: page))
            }
        }
        return pictures
    }

    private static func htmlCampaignPage(
        document: InAppHTMLDocument,
        type: InAppMessage.MessageType,
        appearance: InAppAppearance,
        screen: InAppNativePreview.Screen
    ) -> String {
        // Where the presenter puts this type: the geometry of an empty native message of the type.
        let frame = InAppNativePreview(
            layout: InAppNativeLayout(type: type, content: InAppMessage.NativeContent()),
            appearance: appearance,
            screen: screen
        ).geometry
        let dark = appearance.colorScheme == .dark
        let height: Double
        var position = "left: \((screen.width - frame.width) / 2)px;"
        switch frame.alignment {
        case .fill:
            height = screen.height
            position = "left: 0; top: 0;"
        case .top(let inset):
            height = min(frame.maxHeight, 160)
            position += " top: \(inset)px;"
        case .bottom(let inset):
            height = min(frame.maxHeight, 160)
            position += " bottom: \(inset)px;"
        case .center:
            height = frame.maxHeight
            position += " top: \((screen.height - height) / 2)px;"
        }
        let dimmed = type == .modal
        let radius = type == .fullScreen ? 0 : (type == .banner || type == .slideUp ? 12 : 16)
        let background = dark ? "#000000" : "#f2f2f7"
        let bar = dark ? "#2c2c2e" : "#d1d1d6"
        let card = dark ? "#1c1c1e" : "#ffffff"
        let source = self.attributeEscaped(document.html)
        return """
            <!DOCTYPE html>
            <html>
            <head>
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'">
            <meta charset="utf-8">
            <style>
            html, body { margin: 0; width: \(screen.width)px; height: \(screen.height)px; overflow: hidden; background: \(background); }
            .app { position: absolute; inset: \(screen.safeTop + 16)px 16px \(screen.safeBottom)px 16px; }
            .app div { background: \(bar); border-radius: 10px; height: 64px; margin-bottom: 12px; }
            .app div:first-child { height: 28px; width: 55%; }
            .dim { position: absolute; inset: 0; background: rgba(0, 0, 0, 0.4); }
            iframe { position: absolute; \(position) width: \(frame.width)px; height: \(height)px; border: 0;
              border-radius: \(radius)px; background: \(card); box-shadow: 0 8px 28px rgba(0, 0, 0, 0.25);
              color-scheme: \(dark ? "dark" : "light"); }
            </style>
            </head>
            <body>
            <div class="app"><div></div><div></div><div></div><div></div><div></div></div>
            \(dimmed ? "<div class=\"dim\"></div>" : "")
            <iframe title="in-app message" srcdoc="\(source)"></iframe>
            </body>
            </html>

            """
    }

    private static func attributeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// A campaign file that cannot be previewed.
package struct PreviewError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}
