// The `JoryioAnalytics` product: tracking, identity, consent, attributes, subscriptions and SDK
// auth, without push, in-app or e-commerce code. The API is the same `Joryio.shared` as `import Joryio`.
@_exported public import JoryioKit
