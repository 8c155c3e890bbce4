internal import Foundation
internal import JoryioCore

/// Checks shared by every transport in this module, so they reject the same requests the same way.
extension HTTPRequest {
    /// Why this request cannot be put on the wire, or `nil` when it can.
    ///
    /// Rejects schemes other than `http`/`https`, a missing host, a method that is not an RFC 9110
    /// token, and header names or values that could split the request (CR, LF, NUL).
    func wireProblem() -> TransportError? {
        guard let scheme = self.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return TransportError(.invalidRequest, "unsupported URL scheme \(self.url.scheme ?? "(none)")")
        }
        guard let host = self.url.host, !host.isEmpty else {
            return TransportError(.invalidRequest, "URL has no host")
        }
        guard Self.isToken(self.method) else {
            return TransportError(.invalidRequest, "invalid HTTP method")
        }
        for header in self.headers {
            guard Self.isToken(header.name) else {
                return TransportError(.invalidRequest, "invalid header name")
            }
            guard !header.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                return TransportError(.invalidRequest, "header \(header.name) contains a line break")
            }
        }
        return nil
    }

    /// Whether `text` is a non-empty RFC 9110 `token` (method and header-name syntax).
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    return true
                default:
                    return "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}
