@_exported public import struct JoryioCore.AlwaysAvailableStorage
@_exported public import protocol JoryioCore.Cancellable
@_exported public import protocol JoryioCore.Clock
@_exported public import struct JoryioCore.DeviceFacts
@_exported public import protocol JoryioCore.DeviceFactsProvider
@_exported public import struct JoryioCore.HTTPRequest
@_exported public import struct JoryioCore.HTTPResponse
@_exported public import protocol JoryioCore.IdentifierGenerator
@_exported public import protocol JoryioCore.Scheduler
@_exported public import protocol JoryioCore.StorageAvailability
// `import JoryioTesting` in a test file brings the doubles and the SDK seams they implement or
// return: transports and their requests and responses, the scheduler and clock protocols, ids and
// device facts. Scoped, so a test file that also imports Foundation or Combine can still qualify
// Swift's own `Clock` where it needs it.
@_exported public import protocol JoryioCore.Transport
@_exported public import struct JoryioCore.TransportError
