public import Foundation

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A loopback TCP port that refuses connections for as long as this value lives.
///
/// The socket is bound (so no other process can take the port) but never listens, so the kernel
/// answers every connection attempt with a reset: the "server is down" case for transport tests.
public final class RefusingPort: Sendable {
    /// The port number on 127.0.0.1.
    public let port: Int
    private let descriptor: Int32

    /// Binds a fresh loopback port; throws when no socket can be bound.
    public init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `http://127.0.0.1:<port>`, a base URL nothing answers.
    public var url: URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = self.port
        return components.url ?? URL(fileURLWithPath: "/")
    }

    deinit {
        close(self.descriptor)
    }
}
