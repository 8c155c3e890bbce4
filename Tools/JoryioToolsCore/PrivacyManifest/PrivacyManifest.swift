package import JoryioCore

/// The merged, validated content of a `PrivacyInfo.xcprivacy`: the facts of every module it covers.
///
/// Entries are sorted by key and purposes and reasons are sorted and unique, so the rendered files
/// do not depend on the order modules or facts were listed in.
package struct PrivacyManifest: Sendable, Equatable {
    /// `NSPrivacyTracking`. Always `false` for this SDK (PRIVACY-6); `true` only if a fact says so.
    package var tracking: Bool
    /// `NSPrivacyCollectedDataTypes`, one entry per data type.
    package var collectedData: [PrivacyFacts.CollectedData]
    /// `NSPrivacyAccessedAPITypes`, one entry per API category.
    package var accessedAPIs: [PrivacyFacts.AccessedAPI]

    /// Validates every fact against ``PrivacyVocabulary`` and merges them.
    ///
    /// The same data type declared by two modules becomes one entry: linked or tracking if either
    /// says so, with the union of their purposes. The same API category becomes one entry with the
    /// union of the reasons.
    ///
    /// - Throws: ``ToolError`` with ``ToolError/ExitCode/invalidInput`` naming the module and the
    ///   first unknown or empty value.
    package init(merging facts: [PrivacyFacts]) throws(ToolError) {
        var collected: [PrivacyFacts.DataType: PrivacyFacts.CollectedData] = [:]
        var accessed: [PrivacyFacts.APICategory: Set<String>] = [:]
        for module in facts {
            try Self.validate(module)
            for entry in module.collectedData {
                var merged =
                    collected[entry.type]
                    ?? PrivacyFacts.CollectedData(
                        entry.type,
                        linked: false,
                        tracking: false,
                        purposes: []
                    )
                merged.linked = merged.linked || entry.linked
                merged.tracking = merged.tracking || entry.tracking
                merged.purposes = Array(Set(merged.purposes + entry.purposes)).sorted()
                collected[entry.type] = merged
            }
            for entry in module.accessedAPIs {
                accessed[entry.category, default: []].formUnion(entry.reasons)
            }
        }
        self.collectedData = collected.values.sorted { $0.type < $1.type }
        self.accessedAPIs = accessed.map { PrivacyFacts.AccessedAPI($0.key, reasons: $0.value.sorted()) }
            .sorted { $0.category < $1.category }
        self.tracking = self.collectedData.contains { $0.tracking }
    }

    private static func validate(_ facts: PrivacyFacts) throws(ToolError) {
        let module = facts.module
        guard !module.trimmingWhitespace.isEmpty else {
            throw ToolError(.invalidInput, "privacy facts: a module name is empty")
        }
        for entry in facts.collectedData {
            let type = entry.type.rawValue
            guard !type.trimmingWhitespace.isEmpty else {
                throw ToolError(.invalidInput, "privacy facts of \(module): a collected data type is empty")
            }
            guard PrivacyVocabulary.dataTypes.contains(type) else {
                throw ToolError(
                    .invalidInput,
                    "privacy facts of \(module): unknown collected data type \"\(type)\" (not in Apple's NSPrivacyCollectedDataType list)"
                )
            }
            guard !entry.purposes.isEmpty else {
                throw ToolError(.invalidInput, "privacy facts of \(module): \(type) has no purposes")
            }
            for purpose in entry.purposes {
                guard !purpose.rawValue.trimmingWhitespace.isEmpty else {
                    throw ToolError(.invalidInput, "privacy facts of \(module): \(type) has an empty purpose")
                }
                guard PrivacyVocabulary.purposes.contains(purpose.rawValue) else {
                    throw ToolError(
                        .invalidInput,
                        "privacy facts of \(module): \(type) has unknown purpose \"\(purpose.rawValue)\""
                    )
                }
            }
        }
        for entry in facts.accessedAPIs {
            let category = entry.category.rawValue
            guard !category.trimmingWhitespace.isEmpty else {
                throw ToolError(.invalidInput, "privacy facts of \(module): an accessed API category is empty")
            }
            guard let allowed = PrivacyVocabulary.reasonsByAPICategory[category] else {
                throw ToolError(
                    .invalidInput,
                    "privacy facts of \(module): unknown accessed API category \"\(category)\""
                )
            }
            guard !entry.reasons.isEmpty else {
                throw ToolError(.invalidInput, "privacy facts of \(module): \(category) has no reasons")
            }
            for reason in entry.reasons {
                guard !reason.trimmingWhitespace.isEmpty else {
                    throw ToolError(.invalidInput, "privacy facts of \(module): \(category) has an empty reason")
                }
                guard allowed.contains(reason) else {
                    throw ToolError(
                        .invalidInput,
                        "privacy facts of \(module): reason \"\(reason)\" is not allowed for \(category) (allowed: \(allowed.sorted().joined(separator: ", ")))"
                    )
                }
            }
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and newlines.
    var trimmingWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = self.firstIndex(where: { !isSpace($0) }),
            let last = self.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return Substring(self[first...last])
    }
}
