extension InAppNativePreview {
    /// The inline style sheet: every number and colour comes from `style` and ``geometry``.
    func css(_ style: InAppNativeStyle) -> String {
        let screen = self.screen
        let dark = self.appearance.colorScheme == .dark
        let full = self.layout.placement == .full
        let geometry = self.geometry
        let headline = style.font(.headline)
        let body = style.font(.body)
        let label = style.font(.button)
        let padding = style.contentPadding
        let closeInset = full ? 16 : 10.0
        let closeTop = (full ? screen.safeTop : 0) + closeInset
        var rules: [String] = []

        // The screen and the fake app behind the message.
        let appBackground = dark ? InAppRGBA.black : InAppRGBA(242, 242, 247)
        let rowBackground = dark ? InAppRGBA(28, 28, 30) : InAppRGBA.white
        let bar = dark ? InAppRGBA(84, 84, 88, alpha: 0.65) : InAppRGBA(60, 60, 67, alpha: 0.18)
        rules.append("html,body{margin:0;padding:0;background:\(appBackground.css)}")
        rules.append(
            ".jry-screen{position:relative;overflow:hidden;width:\(px(screen.width));height:\(px(screen.height));"
                + "background:\(appBackground.css);color-scheme:\(dark ? "dark" : "light");"
                + "font-family:-apple-system,BlinkMacSystemFont,\"SF Pro Text\",\"Helvetica Neue\",Arial,sans-serif;"
                + "-webkit-font-smoothing:antialiased;text-rendering:optimizeLegibility}"
        )
        rules.append(".jry-screen *{box-sizing:border-box}")
        rules.append(
            ".jry-app{position:absolute;inset:0;padding:0 \(px(16 + screen.safeRight)) 0 \(px(16 + screen.safeLeft))}"
        )
        rules.append(
            ".jry-status{height:\(px(screen.safeTop));display:flex;align-items:center;padding-left:16px;"
                + "font-size:17px;font-weight:600;color:\(style.color(.primaryText).css)}"
        )
        rules.append(
            ".jry-title{margin:8px 0 12px;font-size:34px;line-height:41px;font-weight:700;"
                + "color:\(style.color(.primaryText).css)}"
        )
        rules.append(".jry-list{border-radius:10px;overflow:hidden;background:\(rowBackground.css)}")
        rules.append(
            ".jry-row-app{display:flex;align-items:center;gap:12px;height:60px;padding:0 16px;"
                + "border-bottom:0.5px solid \(bar.css)}"
        )
        rules.append(".jry-row-app i{width:36px;height:36px;border-radius:8px;background:\(bar.css)}")
        rules.append(".jry-row-app b{display:block;height:12px;border-radius:6px;background:\(bar.css)}")

        // What lies behind the message, and where it sits.
        rules.append(".jry-dim{position:absolute;inset:0;background:\(style.color(.dimming).css)}")
        let passThrough = self.layout.touches == .insideMessageOnly
        var slot = "position:absolute;left:0;right:0;display:flex;justify-content:center;"
        slot += passThrough ? "pointer-events:none;" : ""
        switch geometry.alignment {
        case .top(let inset): slot += "top:\(px(inset));align-items:flex-start"
        case .bottom(let inset): slot += "bottom:\(px(inset));align-items:flex-end"
        case .center: slot += "top:\(px(screen.safeTop));bottom:\(px(screen.safeBottom));align-items:center"
        case .fill: slot += "top:0;bottom:0;align-items:stretch"
        }
        rules.append(".jry-slot{\(slot)}")

        // The card.
        var card = "position:relative;display:flex;flex-direction:column;overflow:hidden;pointer-events:auto;"
        card += "width:\(px(geometry.width));max-height:\(px(geometry.maxHeight));"
        card += "background:\(style.color(self.layout.background).css);"
        card += "border-radius:\(px(self.layout.size.cornerRadius))"
        if let shadow = style.shadow {
            card += ";box-shadow:0 \(px(shadow.offsetY)) \(px(shadow.radius)) \(shadow.color.css)"
            card += dark ? ",0 0 0 0.5px rgba(255, 255, 255, 0.08)" : ",0 1px 3px rgba(0, 0, 0, 0.08)"
        }
        if full {
            card += ";height:\(px(screen.height))"
        }
        rules.append(".jry-card{\(card)}")
        rules.append(".jry-scroll{flex:1 1 auto;min-height:0;overflow-y:auto}")
        let contentTop = full ? screen.safeTop + closeInset + style.closeSize + 8 : padding
        let sides =
            full ? "\(px(padding + screen.safeRight)) \(px(padding)) \(px(padding + screen.safeLeft))" : px(padding)
        rules.append(
            ".jry-content{display:flex;flex-direction:column;gap:\(px(style.spacing / 2));"
                + "padding:\(px(padding)) \(sides)}"
        )
        rules.append(".jry-clear{padding-top:\(px(contentTop));padding-right:\(px(closeInset + style.closeSize + 8))}")
        rules.append(
            ".jry-row{flex-direction:row;align-items:flex-start;gap:12px;"
                + "padding-right:\(px(closeInset + style.closeSize + 8))}"
        )
        rules.append(".jry-texts{display:flex;flex-direction:column;gap:\(px(style.spacing / 2));min-width:0}")
        rules.append(
            ".jry-headline{margin:0;font-size:\(px(headline.pointSize));line-height:\(px(headline.lineHeight));"
                + "font-weight:\(headline.weight.rawValue);color:\(style.color(.primaryText).css);"
                + "overflow-wrap:anywhere}"
        )
        rules.append(
            ".jry-text{margin:0;font-size:\(px(body.pointSize));line-height:\(px(body.lineHeight));"
                + "font-weight:\(body.weight.rawValue);color:\(style.color(.secondaryText).css);"
                + "white-space:pre-line;overflow-wrap:anywhere}"
        )

        // The image placeholder.
        rules.append(
            ".jry-image{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:4px;"
                + "width:100%;height:100%;background:\(style.placeholder.css);color:\(style.color(.secondaryText).css);"
                + "font-size:13px;line-height:16px;text-align:center;overflow:hidden;overflow-wrap:anywhere}"
        )
        rules.append(
            ".jry-image svg{width:28px;height:28px;flex:none;fill:none;stroke:currentColor;stroke-width:1.5;"
                + "stroke-linecap:round;stroke-linejoin:round}"
        )
        switch style.image {
        case .hero(let ratio):
            let top = full ? "padding-top:\(px(screen.safeTop));background:\(style.placeholder.css);" : ""
            rules.append(".jry-hero{\(top)}")
            rules.append(".jry-hero .jry-image{aspect-ratio:\(number(ratio))}")
        case .thumbnail(let side):
            rules.append(
                ".jry-thumb{flex:none;width:\(px(side));height:\(px(side));border-radius:8px;overflow:hidden}"
            )
            rules.append(".jry-thumb span{display:none}")
            rules.append(".jry-thumb svg{width:22px;height:22px}")
        }

        // The buttons and the close control.
        let horizontal = style.buttonAxis == .horizontal
        let direction = horizontal ? (style.primaryButtonTrailing ? "row-reverse" : "row") : "column"
        let bottom = full ? padding + screen.safeBottom : padding
        rules.append(
            ".jry-buttons{flex:none;display:flex;flex-direction:\(direction);gap:\(px(style.buttonSpacing));"
                + "padding:0 \(px(padding)) \(px(bottom))}"
        )
        if style.separatesButtons {
            rules.append(".jry-buttons{padding-top:\(px(padding));border-top:0.5px solid \(style.separator.css)}")
        }
        rules.append(
            ".jry-button{\(horizontal ? "flex:1 1 0;min-width:0;" : "width:100%;")min-height:\(px(style.buttonHeight));"
                + "margin:0;padding:0 16px;border:0;border-radius:\(px(style.buttonCornerRadius));"
                + "font:inherit;font-size:\(px(label.pointSize));line-height:\(px(label.lineHeight));"
                + "font-weight:\(label.weight.rawValue);overflow-wrap:anywhere;cursor:pointer}"
        )
        rules.append(
            ".jry-primary{background:\(style.color(.tint).css);color:\(style.color(.onTint).css)}"
        )
        rules.append(".jry-secondary{background:transparent;color:\(style.color(.tint).css)}")
        rules.append(
            ".jry-close{position:absolute;top:\(px(closeTop));right:\(px(closeInset + (full ? screen.safeRight : 0)));"
                + "width:\(px(style.closeSize));height:\(px(style.closeSize));margin:0;padding:0;border:0;"
                + "border-radius:50%;background:\(style.closeFill.css);display:flex;align-items:center;"
                + "justify-content:center;cursor:pointer}"
        )
        rules.append(
            ".jry-close svg{width:\(px(style.closeSize * 0.4));height:\(px(style.closeSize * 0.4));fill:none;"
                + "stroke:\(style.color(.closeControl).css);"
                + "stroke-width:2;stroke-linecap:round}"
        )
        return rules.joined(separator: "\n") + "\n"
    }
}

/// `value` in CSS pixels: an integer without decimals, else at most two.
private func px(_ value: Double) -> String {
    number(value) + "px"
}

private func number(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    if hundredths % 100 == 0 {
        return String(hundredths / 100)
    }
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = abs(hundredths)
    let fraction = magnitude % 100
    let decimals = fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0\(fraction)" : String(fraction))
    return "\(sign)\(magnitude / 100).\(decimals)"
}
