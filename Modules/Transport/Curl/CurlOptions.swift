#if canImport(CJoryioCurl)
internal import Foundation
import CJoryioCurl
internal import JoryioCore

/// Typed `curl_easy_setopt` calls on one handle, remembering the first failure in ``status``.
struct CurlOptions {
    private let handle: UnsafeMutableRawPointer
    /// `CURLE_OK`, or the first option that libcurl refused.
    private(set) var status = CURLE_OK

    init(handle: UnsafeMutableRawPointer) {
        self.handle = handle
    }

    /// Sets every option for `request` on a freshly reset handle.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - headers: The header list; must stay alive until the transfer ends.
    ///   - body: The body bytes and count, or `nil` for a request without a body; the bytes must stay
    ///     alive until the transfer ends (`CURLOPT_POSTFIELDS` does not copy).
    ///   - context: An unmanaged ``CurlExchange`` that receives the callbacks.
    ///   - errorBuffer: `CURL_ERROR_SIZE` bytes for libcurl's detailed message.
    mutating func configure(
        _ request: HTTPRequest,
        headers: UnsafeMutablePointer<curl_slist>?,
        body: (bytes: UnsafeRawPointer, count: Int)?,
        context: UnsafeMutableRawPointer,
        errorBuffer: UnsafeMutablePointer<CChar>
    ) {
        self.set(CURLOPT_URL, request.url.absoluteString)
        self.set(CURLOPT_NOSIGNAL, 1)
        self.record(cjoryio_curl_allow_only_http(self.handle))
        self.record(cjoryio_curl_open_sockets_close_on_exec(self.handle))
        self.set(CURLOPT_FOLLOWLOCATION, 0)
        self.set(CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout))
        self.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        self.record(cjoryio_curl_setopt_slist(self.handle, CURLOPT_HTTPHEADER, headers))

        switch (request.method, body) {
        case ("GET", nil):
            self.set(CURLOPT_HTTPGET, 1)
        case ("HEAD", nil):
            self.set(CURLOPT_NOBODY, 1)
        case (let method, nil):
            self.set(CURLOPT_CUSTOMREQUEST, method)
        case (let method, let body?):
            self.record(cjoryio_curl_setopt_off_t(self.handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            self.set(CURLOPT_POSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: body.bytes))
            if method != "POST" {
                self.set(CURLOPT_CUSTOMREQUEST, method)
            }
        }

        // Non-capturing closures become C function pointers; the exchange arrives through userdata.
        self.record(
            cjoryio_curl_setopt_write_function(self.handle) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let exchange = Unmanaged<CurlExchange>.fromOpaque(userdata).takeUnretainedValue()
                return exchange.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
            }
        )
        self.set(CURLOPT_WRITEDATA, pointer: context)
        self.record(
            cjoryio_curl_setopt_header_function(self.handle) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let exchange = Unmanaged<CurlExchange>.fromOpaque(userdata).takeUnretainedValue()
                exchange.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
                return size * count
            }
        )
        self.set(CURLOPT_HEADERDATA, pointer: context)
        self.set(CURLOPT_NOPROGRESS, 0)
        self.record(
            cjoryio_curl_setopt_xferinfo_function(self.handle) { userdata, _, _, _, _ in
                guard let userdata else { return 0 }
                return Unmanaged<CurlExchange>.fromOpaque(userdata).takeUnretainedValue().shouldAbort() ? 1 : 0
            }
        )
        self.set(CURLOPT_XFERINFODATA, pointer: context)
    }

    /// `CURLOPT_TIMEOUT_MS` for `timeout` seconds: at least 1 ms (0 would mean "no timeout").
    static func milliseconds(_ timeout: TimeInterval) -> Int {
        let milliseconds = (timeout * 1000).rounded(.up)
        guard milliseconds.isFinite else { return milliseconds > 0 ? Int(Int32.max) : 1 }
        return Int(min(max(milliseconds, 1), Double(Int32.max)))
    }

    private mutating func set(_ option: CURLoption, _ value: Int) {
        self.record(cjoryio_curl_setopt_long(self.handle, option, value))
    }

    /// libcurl copies string options, so the C string only has to live for the call.
    private mutating func set(_ option: CURLoption, _ value: String) {
        let code = value.withCString { cjoryio_curl_setopt_string(self.handle, option, $0) }
        self.record(code)
    }

    private mutating func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) {
        self.record(cjoryio_curl_setopt_pointer(self.handle, option, pointer))
    }

    private mutating func record(_ code: CURLcode) {
        if self.status == CURLE_OK {
            self.status = code
        }
    }
}
#endif
