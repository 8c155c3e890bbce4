// The `Joryio` product: every feature. See `Joryio+Shared.swift` for the shared instance.
@_exported public import JoryioKit
