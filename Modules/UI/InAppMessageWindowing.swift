package import JoryioKit

/// A rectangle in points, as a plain value (`CGRect` is not needed to decide anything).
package struct InAppRect: Sendable, Equatable {
    /// The left edge.
    package var x: Double
    /// The top edge.
    package var y: Double
    /// The width.
    package var width: Double
    /// The height.
    package var height: Double

    /// A rectangle.
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the point lies inside, as `CGRect.contains` decides: the left and top edges are
    /// inside, the right and bottom edges outside; an empty or negative-sized rectangle contains
    /// nothing.
    package func contains(x pointX: Double, y pointY: Double) -> Bool {
        guard self.width > 0, self.height > 0 else { return false }
        return pointX >= self.x && pointX < self.x + self.width && pointY >= self.y && pointY < self.y + self.height
    }
}

/// Which window a message is shown in and who gets a touch (INAPP-44).
package enum InAppMessageWindowing {
    /// The window a message gets.
    package enum WindowKind: Sendable, Equatable {
        /// Touches outside the message reach the app (banner, slide-up, custom).
        case passThrough
        /// Every touch is the message's (modal, full-screen).
        case blocking
    }

    /// Who receives a touch.
    package enum TouchTarget: Sendable, Equatable {
        /// The message's views.
        case message
        /// The app behind: the message's window does not take it.
        case app
    }

    /// The window for `type`, from ``InAppNativeLayout/touches`` (one table for native and HTML
    /// messages: an HTML message of a type takes touches as a native one does).
    package static func windowKind(for type: InAppMessage.MessageType) -> WindowKind {
        switch InAppNativeLayout(type: type).touches {
        case .insideMessageOnly: .passThrough
        case .blockEverything: .blocking
        }
    }

    /// Who gets a touch at the point: in a blocking window, always the message; in a pass-through
    /// window, the message only inside `messageFrame` (both in the window's coordinates), the app
    /// otherwise (INAPP-44).
    package static func touchTarget(
        x: Double,
        y: Double,
        messageFrame: InAppRect,
        window: WindowKind
    ) -> TouchTarget {
        switch window {
        case .blocking: .message
        case .passThrough: messageFrame.contains(x: x, y: y) ? .message : .app
        }
    }
}
