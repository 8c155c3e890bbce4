internal import JoryioCore
internal import JoryioEcommerce
internal import JoryioKit
internal import JoryioStorage

/// The privacy facts of every module this executable links, in dependency order.
///
/// Add a module here when it declares `PrivacyFacts`; a module missing from this list is missing
/// from the manifest.
let linkedPrivacyFacts: [PrivacyFacts] = [
    .joryioStorage,
    .joryio,
    .joryioEcommerce,
]
