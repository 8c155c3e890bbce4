#if canImport(CJoryioCurl)
internal import Foundation
import CJoryioCurl
internal import JoryioCore

/// One request on one easy handle: configures the handle, runs `curl_easy_perform` and collects the
/// response through libcurl's callbacks.
///
/// TLS verification is never touched: `CURLOPT_SSL_VERIFYPEER` and `CURLOPT_SSL_VERIFYHOST` keep
/// libcurl's secure defaults (verify the chain and the host name) after every `curl_easy_reset`.
/// Redirects are not followed, and only `http` and `https` are allowed.
final class CurlExchange {
    private let maxResponseBytes: Int
    private let isCancelled: () -> Bool
    private var headerLines: [(name: String, value: String)] = []
    private var body = Data()
    private var bodyOverflowed = false
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// - Parameters:
    ///   - maxResponseBytes: A larger response body fails the request instead of filling memory.
    ///   - isCancelled: Polled from libcurl's progress callback; `true` aborts the transfer.
    init(maxResponseBytes: Int, isCancelled: @escaping () -> Bool) {
        self.maxResponseBytes = maxResponseBytes
        self.isCancelled = isCancelled
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        self.errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        self.errorBuffer.deallocate()
    }

    /// Sends `request` on `handle` and waits for the outcome. Call on the handle's worker thread only.
    func perform(_ request: HTTPRequest, on handle: UnsafeMutableRawPointer) -> Result<HTTPResponse, TransportError> {
        if let problem = request.wireProblem() {
            return .failure(problem)
        }
        curl_easy_reset(handle)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for line in Self.headerLines(for: request) {
            guard let appended = curl_slist_append(headerList, line) else {
                return .failure(TransportError(.other, "out of memory while building the header list"))
            }
            headerList = appended
        }
        let sendsBody = request.body != nil || Self.methodsWithBody.contains(request.method)
        let bodyCount = request.body?.count ?? 0
        // POSTFIELDS needs a non-null pointer even for an empty body.
        let bodyStorage = bodyCount > 0 ? request.body ?? Data() : Data([0])
        let context = Unmanaged.passRetained(self)
        defer { context.release() }
        let code = bodyStorage.withUnsafeBytes { bytes -> CURLcode in
            var options = CurlOptions(handle: handle)
            options.configure(
                request,
                headers: headerList,
                body: sendsBody ? bytes.baseAddress.map { ($0, bodyCount) } : nil,
                context: context.toOpaque(),
                errorBuffer: self.errorBuffer
            )
            guard options.status == CURLE_OK else { return options.status }
            return curl_easy_perform(handle)
        }
        guard code == CURLE_OK else {
            return .failure(self.error(for: code))
        }
        var status = 0
        let infoCode = cjoryio_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard infoCode == CURLE_OK else {
            return .failure(self.error(for: infoCode))
        }
        let headers = Dictionary(self.headerLines.map { ($0.name.lowercased(), $0.value) }) { $0 + ", " + $1 }
        return .success(HTTPResponse(status: status, headers: headers, body: self.body))
    }

    /// Methods that always carry a body (an empty one when the request has none).
    private static let methodsWithBody: Set<String> = ["POST", "PUT", "PATCH"]

    /// The request's header lines, plus `Expect:` (no `100-continue` round trip) and, for a body without
    /// a `Content-Type`, `Content-Type:` (drops libcurl's form-encoding default).
    private static func headerLines(for request: HTTPRequest) -> [String] {
        var lines = request.headers.map { header in
            // `Name:` would remove a header in libcurl; `Name;` sends it with an empty value.
            header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
        }
        if request.header("Expect") == nil {
            lines.append("Expect:")
        }
        if request.header("Content-Type") == nil {
            lines.append("Content-Type:")
        }
        return lines
    }

    /// The transport error for a failed `curl_easy_perform`, with libcurl's detailed message.
    private func error(for code: CURLcode) -> TransportError {
        let detail =
            self.errorBuffer.pointee != 0
            ? String(cString: self.errorBuffer) : String(cString: curl_easy_strerror(code))
        if code == CURLE_ABORTED_BY_CALLBACK && self.isCancelled() {
            return TransportError(.cancelled, "transport closed during the request")
        }
        if code == CURLE_WRITE_ERROR && self.bodyOverflowed {
            return TransportError(.other, "response body larger than \(self.maxResponseBytes) bytes")
        }
        return TransportError(CurlErrorMapping.code(for: code), "curl error \(code.rawValue): \(detail)")
    }

    // MARK: - libcurl callbacks (called on the worker thread, inside curl_easy_perform)

    /// Appends body bytes; returning less than `count` makes libcurl fail with `CURLE_WRITE_ERROR`.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard self.body.count + bytes.count <= self.maxResponseBytes else {
            self.bodyOverflowed = true
            return 0
        }
        self.body.append(contentsOf: bytes)
        return bytes.count
    }

    /// Records one header line; a new status line (after a `1xx` or a redirect) starts over.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        if let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"),
            let last = self.headerLines.popLast()
        {
            // An obsolete folded continuation line (RFC 9110 §5.5) extends the previous value.
            let continuation = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            self.headerLines.append((last.name, last.value + " " + continuation))
            return
        }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            self.headerLines.removeAll()
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            self.headerLines.append((name, value))
        }
    }

    /// Whether libcurl should abort the transfer.
    func shouldAbort() -> Bool {
        self.isCancelled()
    }
}
#endif
