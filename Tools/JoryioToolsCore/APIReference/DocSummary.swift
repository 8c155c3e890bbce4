/// The first sentence of a documentation comment, for a table cell.
package enum DocSummary {
    /// The first sentence of the comment's first paragraph, on one line; `""` without a comment.
    ///
    /// A sentence ends at `.`, `!` or `?` followed by a space or the end of the paragraph, outside a
    /// code span, and not after `e.g` or `i.e`.
    package static func firstSentence(of comment: SymbolGraph.Symbol.DocComment?) -> String {
        guard let comment else { return "" }
        var paragraph: [Substring] = []
        for line in comment.lines {
            let text = line.text.trimmingWhitespace
            if text.isEmpty {
                if paragraph.isEmpty { continue }
                break
            }
            paragraph.append(text)
        }
        return self.firstSentence(of: paragraph.joined(separator: " "))
    }

    /// The first sentence of one paragraph of text.
    package static func firstSentence(of text: String) -> String {
        let characters = Array(text)
        var inCode = false
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "`" {
                inCode.toggle()
            } else if !inCode, character == "." || character == "!" || character == "?" {
                let atEnd = index + 1 == characters.count
                let beforeSpace = !atEnd && characters[index + 1] == " "
                if atEnd || beforeSpace, !self.endsWithAbbreviation(characters[..<index]) {
                    return String(characters[...index])
                }
            }
            index += 1
        }
        return text
    }

    private static func endsWithAbbreviation(_ prefix: ArraySlice<Character>) -> Bool {
        let tail = String(prefix.suffix(4)).lowercased()
        return tail.hasSuffix("e.g") || tail.hasSuffix("i.e") || tail.hasSuffix(" vs") || tail.hasSuffix(" cf")
    }
}
