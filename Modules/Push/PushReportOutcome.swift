package import JoryioFeature

/// What the answer to one receipt or click means: the reports' table, shared with in-app reports
/// (protocol.md, "SDK handling of the version 2 endpoints", push receipts and clicks).
package typealias PushReportOutcome = ReportOutcome

/// Builds the one request that carries a ``PushReport`` (protocol.md 5.11): `POST` to the kind's
/// endpoint with the common headers.
package typealias PushReportRequestBuilder = ReportRequestBuilder
