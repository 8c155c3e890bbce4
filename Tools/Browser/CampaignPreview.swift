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

    /// An HTML campaign framed like a native one: the native preview's screen (the same fake app,
    /// dimming and placement for the type) with the campaign's real document in an `<iframe srcdoc>`
    /// as the card. The page itself runs nothing; its policy only lets it frame that document.
    private static func htmlCampaignPage(
        document: InAppHTMLDocument,
        type: InAppMessage.MessageType,
        appearance: InAppAppearance,
        screen: InAppNativePreview.Screen
    ) -> String {
        let preview = InAppNativePreview(
            layout: InAppNativeLayout(type: type),
            appearance: appearance,
            screen: screen
        )
        let geometry = preview.geometry
        // A web view has no intrinsic height: banners and slide-ups get a strip, the rest their maximum.
        let height: Double
        switch geometry.alignment {
        case .fill: height = screen.height
        case .top, .bottom: height = min(geometry.maxHeight, 160)
        case .center: height = geometry.maxHeight
        }
        let frame =
            "<iframe class=\"jry-card\" title=\"in-app message\" style=\"height:\(height)px;border:0\" "
            + "srcdoc=\"\(InAppNativePreview.escape(document.html))\"></iframe>\n"
        return "<!DOCTYPE html>\n<html>\n<head>\n"
            + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'\">\n"
            + "<meta charset=\"utf-8\">\n</head>\n<body>\n" + preview.markup(card: frame) + "</body>\n</html>\n"
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
