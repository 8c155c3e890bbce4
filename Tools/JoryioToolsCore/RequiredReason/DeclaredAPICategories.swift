package import Foundation

extension RequiredReasonScanner {
    /// The `NSPrivacyAccessedAPIType` values a privacy manifest (an XML or binary property list)
    /// declares.
    ///
    /// - Throws: ``ToolError`` (invalid input) when `data` is not a property list dictionary or its
    ///   `NSPrivacyAccessedAPITypes` is not an array of dictionaries with a type.
    package static func declaredCategories(manifest data: Data, origin: String) throws(ToolError) -> Set<String> {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw ToolError(.invalidInput, "\(origin): not a property list: \(error)")
        }
        guard let dictionary = root as? [String: Any] else {
            throw ToolError(.invalidInput, "\(origin): the property list is not a dictionary")
        }
        guard let entries = dictionary["NSPrivacyAccessedAPITypes"] else { return [] }
        guard let list = entries as? [Any] else {
            throw ToolError(.invalidInput, "\(origin): NSPrivacyAccessedAPITypes is not an array")
        }
        var categories: Set<String> = []
        for entry in list {
            guard let type = (entry as? [String: Any])?["NSPrivacyAccessedAPIType"] as? String else {
                throw ToolError(
                    .invalidInput,
                    "\(origin): an NSPrivacyAccessedAPITypes entry has no NSPrivacyAccessedAPIType"
                )
            }
            categories.insert(type)
        }
        return categories
    }
}
