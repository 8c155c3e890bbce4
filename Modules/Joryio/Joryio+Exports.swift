// In-app messaging's public protocols (`InAppMessagePresenter`, `InAppMessageViewDelegate`).
@_exported public import JoryioInApp
// The `Joryio` product: every feature. See `Joryio+Shared.swift` for the shared instance.
@_exported public import JoryioKit
// Push's public types (`PushRegistrationResult`, `PushPlatform`, `PushAuthorization`) for apps that
// import only `Joryio`.
@_exported public import JoryioPush
