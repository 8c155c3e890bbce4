import JoryioUI
import Testing

/// The pure-Swift SHA-256 behind the bridge script's CSP hash (GAP-43), against FIPS 180-4's vectors.
@Suite struct InAppSHA256Tests {
    static func hex(_ text: String) -> String {
        InAppSHA256.digest(Array(text.utf8)).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                + "mnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func knownDigests(input: String, expected: String) {
        #expect(Self.hex(input) == expected)
    }

    @Test func lengthsAroundTheBlockBoundary() {
        // 55, 56 and 64 bytes pad into one or two blocks; the digest is always 32 bytes and differs.
        let digests = [55, 56, 63, 64, 65].map { InAppSHA256.digest([UInt8](repeating: 0x61, count: $0)) }
        #expect(digests.allSatisfy { $0.count == 32 })
        #expect(Set(digests.map { $0.description }).count == digests.count)
        #expect(
            Self.hex(String(repeating: "a", count: 64))
                == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"
        )
    }
}
