@_exported public import struct JoryioAuth.JoryioAuthError
@_exported public import enum JoryioConsent.TrackingConsent
@_exported public import enum JoryioCore.JSONValue
// `import Joryio` (or `import JoryioAnalytics`) is all an app writes. It brings `Joryio`,
// `JoryioConfig`, `JoryioEvent`, `JoryioEventPlugin` and exactly the types their public API
// mentions, below. The SDK's internal seams (`Clock`, `Scheduler`, `Cancellable`, `Transport`,
// `HTTPRequest` …) are not re-exported: they would clash with Swift's `Clock` and Combine's
// `Scheduler` and `Cancellable` in every file of the app. Tests reach them through `JoryioTesting`.
@_exported public import enum JoryioCore.LogLevel
@_exported public import struct JoryioCore.LogRecord
@_exported public import protocol JoryioCore.LogSink
@_exported public import struct JoryioCore.NoOpLogSink
@_exported public import struct JoryioCore.QueueAppendResult
@_exported public import struct JoryioCore.QueueRecord
@_exported public import protocol JoryioCore.QueueStore
@_exported public import struct JoryioCore.StandardErrorLogSink
@_exported public import struct JoryioCore.StorageError
@_exported public import enum JoryioDelivery.JoryioTransportError
