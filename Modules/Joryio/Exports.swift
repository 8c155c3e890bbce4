// `import Joryio` is all an app writes: the types the public API mentions (LogLevel, LogSink,
// JSONValue, QueueStore, JoryioTransportError …) come with it.
@_exported public import JoryioCore
@_exported public import JoryioDelivery
@_exported public import JoryioConsent
@_exported public import JoryioAuth
