internal import Foundation  // String.contains(_:) on iOS 14: the standard library's overload needs iOS 16

/// Masks secrets in log text: SDK keys, JSON Web Tokens and bearer credentials.
///
/// Applied by ``Logger`` to every message and metadata value before a sink sees it, so a secret
/// interpolated by mistake never reaches a log. SDK keys keep their prefix and last four
/// characters (`jry_sdk_…a1b2`) so a person can still tell two keys apart; a bare prefix
/// (`jry_sdk_`, `jry_sdk_ios_`), as in a hint that names the expected form, is not a key and stays.
package enum Redactor {
    /// `text` with every secret masked.
    package static func redact(_ text: String) -> String {
        guard text.contains("jry_sdk_") || text.contains("eyJ") || text.contains("Bearer ") else {
            return text
        }
        var output = ""
        output.reserveCapacity(text.count)
        var word = ""
        var redactNextWord = false
        for character in text {
            if Self.isWordCharacter(character) {
                word.append(character)
                continue
            }
            output += Self.mask(word, bearer: redactNextWord)
            redactNextWord = word == "Bearer" && character == " "
            word = ""
            output.append(character)
        }
        output += Self.mask(word, bearer: redactNextWord)
        return output
    }

    /// Whether `word` is only the prefix of a key, `jry_sdk_` or `jry_sdk_` plus one segment of
    /// lower-case letters and `_` (`jry_sdk_ios_`): a hint in a message such as "expected
    /// jry_sdk_ios_…", with nothing secret in it, so it is kept as written.
    private static func isKeyPrefix(_ word: String) -> Bool {
        let rest = word.unicodeScalars.dropFirst(8)
        guard let last = rest.last else { return true }
        return last == "_" && rest.count <= 13 && rest.dropLast().allSatisfy { ("a"..."z").contains($0) }
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "."
    }

    private static func mask(_ word: String, bearer: Bool) -> String {
        if word.hasPrefix("jry_sdk_"), !Self.isKeyPrefix(word) {
            return "jry_sdk_…" + String(word.suffix(4))
        }
        if bearer || (word.hasPrefix("eyJ") && word.split(separator: ".", omittingEmptySubsequences: false).count == 3)
        {
            return word.isEmpty ? word : "<redacted-token>"
        }
        return word
    }
}
