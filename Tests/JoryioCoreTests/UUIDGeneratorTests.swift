import Foundation
import JoryioCore
import Testing

struct UUIDGeneratorTests {
    @Test func producesLowercaseVersion4UUIDs() throws {
        let generator = UUIDGenerator()
        for _ in 0..<1000 {
            let text = generator.next()
            #expect(text.count == 36)
            #expect(text == text.lowercased())
            let parsed = try #require(UUID(uuidString: text))
            #expect(parsed.uuidString.lowercased() == text)
            let bytes = parsed.uuid
            #expect(bytes.6 >> 4 == 4)
            #expect(bytes.8 >> 6 == 0b10)
        }
    }

    @Test func neverRepeats() {
        let generator = UUIDGenerator()
        let identifiers = (0..<10_000).map { _ in generator.next() }
        #expect(Set(identifiers).count == identifiers.count)
    }
}
