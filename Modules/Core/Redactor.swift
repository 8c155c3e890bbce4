/// Masks secrets in log text: SDK keys, JSON Web Tokens and bearer credentials.
///
/// Applied by ``Logger`` to every message and metadata value before a sink sees it, so a secret
/// interpolated by mistake never reaches a log. SDK keys keep their prefix and last four
/// characters (`jry_sdk_ios_…a1b2`) so a person can still tell two keys apart.
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

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "."
    }

    private static func mask(_ word: String, bearer: Bool) -> String {
        if word.hasPrefix("jry_sdk_") {
            return "jry_sdk_…" + String(word.suffix(4))
        }
        if bearer || (word.hasPrefix("eyJ") && word.split(separator: ".", omittingEmptySubsequences: false).count == 3)
        {
            return word.isEmpty ? word : "<redacted-token>"
        }
        return word
    }
}
