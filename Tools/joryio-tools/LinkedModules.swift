internal import JoryioCore
internal import JoryioEcommerce
internal import JoryioGeozones
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

/// The privacy facts of separately linked products that ship a manifest of their own: never part of
/// the default (Modules/Kit) manifest; `privacy-manifest --module NAME` writes theirs (issue 19).
let separateProductPrivacyFacts: [PrivacyFacts] = [
    .joryioGeozones
]
