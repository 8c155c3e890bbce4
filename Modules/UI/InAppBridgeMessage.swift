/// One message `joryioBridge` posts (GAP-43; the shapes are documented on ``InAppBridgeScript``).
package enum InAppBridgeMessage: Sendable, Equatable {
    /// `{type: "click", elementId, url}`: `url` as the author wrote it, `nil` when there is none.
    case click(elementId: String, url: String?)
    /// `{type: "dismiss"}`.
    case dismiss
    /// `{type: "form", formId, values}`.
    case form(formId: String, values: [String: String])

    /// Reads a message body as WebKit hands it over (a dictionary of strings, numbers and
    /// dictionaries); `nil` for anything that is not one of the three shapes.
    package init?(body: Any) {
        guard let fields = body as? [String: Any], let type = fields["type"] as? String else { return nil }
        switch type {
        case "click":
            guard let elementId = fields["elementId"] as? String else { return nil }
            self = .click(elementId: elementId, url: fields["url"] as? String)
        case "dismiss":
            self = .dismiss
        case "form":
            guard let formId = fields["formId"] as? String, let values = fields["values"] as? [String: Any] else {
                return nil
            }
            self = .form(formId: formId, values: values.compactMapValues { $0 as? String })
        default:
            return nil
        }
    }
}
