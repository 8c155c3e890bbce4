#if canImport(CJoryioCurl)
import CJoryioCurl

/// libcurl's process-wide initialisation, done once before any handle exists.
enum CurlGlobal {
    /// The `CURLcode` of `curl_global_init`; a `static let`, so it runs once, thread-safely, on first use.
    private static let initResult: UInt32 = curl_global_init(Int(CURL_GLOBAL_DEFAULT)).rawValue

    /// Runs `curl_global_init(CURL_GLOBAL_DEFAULT)` if it has not run yet.
    /// - Returns: Whether libcurl initialised successfully.
    @discardableResult
    static func ensureInitialized() -> Bool {
        Self.initResult == CURLE_OK.rawValue
    }
}
#endif
