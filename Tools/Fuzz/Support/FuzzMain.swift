public import Foundation
public import JoryioCore

#if JORYIO_FUZZ
/// libFuzzer's entry for a program that has its own `main` (LLVM 11 and later). SwiftPM renames
/// an executable's `main` (`<module>_main`, for testable executables), so libFuzzer's own `main`
/// is never linked; each fuzz target's `main` hands control to libFuzzer through this.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
#endif

/// The `main` of every fuzz target under Tools/Fuzz.
///
/// Built with `-sanitize=fuzzer` and `-DJORYIO_FUZZ` (`make fuzz`), it runs libFuzzer with the
/// command line. Built normally (`make build`), it replays the files and directories named on the
/// command line (a corpus or a crash file) through the target once each, so the targets compile
/// and run without the fuzzer toolchain too.
public enum FuzzMain {
    /// Runs libFuzzer or the replay over `body`, then exits.
    public static func run(_ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> Never {
        #if JORYIO_FUZZ
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        exit(LLVMFuzzerRunDriver(&argc, &argv, body))
        #else
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            for file in Self.files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                Self.call(body, with: data)
                count += 1
            }
        }
        Self.call(body, with: Data())
        print("replayed \(count) input(s) without a failure")
        exit(0)
        #endif
    }

    /// `path` itself, or the regular files directly inside it when it is a directory.
    private static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }

    private static func call(_ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt, with data: Data) {
        let bytes = [UInt8](data) + [0]
        _ = bytes.withUnsafeBufferPointer { buffer in body(buffer.baseAddress!, data.count) }
    }
}

/// Stops the run (a crash libFuzzer records) when a property the parser promises does not hold.
public func fuzzRequire(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fatalError("fuzz property failed: \(message())")
    }
}

/// Cuts a fuzz input into the choices a target makes and the bytes it parses.
public struct FuzzInput {
    private var bytes: Data

    /// The `count` bytes at `start`, copied.
    public init(_ start: UnsafePointer<UInt8>, _ count: Int) {
        self.bytes = Data(bytes: start, count: count)
    }

    /// The next byte (0 when the input is used up).
    public mutating func byte() -> UInt8 {
        guard let first = self.bytes.first else { return 0 }
        self.bytes = self.bytes.dropFirst()
        return first
    }

    /// The rest of the input.
    public var rest: Data { Data(self.bytes) }
}

extension FuzzInput {
    /// A server answer for the response classifiers: byte 1 picks the status (mostly the ones the
    /// protocol names), byte 2 the request's item count, byte 3 whether a `Retry-After` header
    /// (the bytes up to the first newline of the rest) comes with the body (the remaining bytes).
    public mutating func response() -> (response: HTTPResponse, items: Int) {
        let statuses = [200, 200, 200, 201, 204, 400, 401, 402, 403, 404, 409, 413, 422, 429, 500, 503]
        let selector = Int(self.byte())
        let status = selector < 240 ? statuses[selector % statuses.count] : 100 + selector
        let items = Int(self.byte())
        let withRetryAfter = self.byte() % 2 == 1
        var headers: [String: String] = [:]
        var body = self.rest
        if withRetryAfter {
            let line = body.prefix { $0 != 0x0A }
            headers["Retry-After"] = String(decoding: line, as: UTF8.self)
            body = body.dropFirst(line.count + 1)
        }
        return (HTTPResponse(status: status, headers: headers, body: Data(body)), items)
    }
}
