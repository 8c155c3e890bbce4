internal import Foundation
internal import JoryioCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// The transport result for a finished data task.
    ///
    /// - Parameters:
    ///   - data: The body the task received.
    ///   - response: The task's response.
    ///   - error: The task's error.
    ///   - timedOut: Whether the transport's own deadline cancelled the task.
    ///   - deadline: The request's timeout, for the message.
    /// - Returns: The response, or the mapped error.
    static func outcome(
        data: Data?,
        response: URLResponse?,
        error: (any Error)?,
        timedOut: Bool,
        _ deadline: TimeInterval
    ) -> Result<HTTPResponse, TransportError> {
        if let error {
            if timedOut {
                return .failure(TransportError(.timeout, "no complete response within \(deadline) s"))
            }
            let urlCode = Self.urlErrorCode(error)
            let detail = urlCode.map { "URLError \($0.rawValue)" } ?? String(describing: type(of: error))
            return .failure(TransportError(Self.transportCode(for: urlCode), detail))
        }
        guard let response = response as? HTTPURLResponse else {
            return .failure(TransportError(.other, "not an HTTP response"))
        }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in response.allHeaderFields {
            headers[name] = value
        }
        return .success(HTTPResponse(status: response.statusCode, headers: headers, body: data ?? Data()))
    }

    /// The `URLError.Code` of `error`, whether it arrives as `URLError` or as an `NSError` in its domain.
    private static func urlErrorCode(_ error: any Error) -> URLError.Code? {
        if let urlError = error as? URLError {
            return urlError.code
        }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain ? URLError.Code(rawValue: nsError.code) : nil
    }

    /// How a `URLError.Code` maps onto ``TransportError/Code``.
    ///
    /// On Linux, FoundationNetworking reports a connection closed without a response as
    /// `.badServerResponse` (libcurl's `CURLE_GOT_NOTHING`); Apple platforms report
    /// `.networkConnectionLost`. Both mean `.connectionLost`.
    static func transportCode(for code: URLError.Code?) -> TransportError.Code {
        switch code {
        case .timedOut?:
            return .timeout
        case .cannotConnectToHost?, .cannotFindHost?, .dnsLookupFailed?, .notConnectedToInternet?,
            .internationalRoamingOff?, .dataNotAllowed?, .callIsActive?:
            return .cannotConnect
        case .networkConnectionLost?, .badServerResponse?, .zeroByteResource?, .cannotParseResponse?,
            .cannotDecodeRawData?, .cannotDecodeContentData?:
            return .connectionLost
        case .secureConnectionFailed?, .serverCertificateHasBadDate?, .serverCertificateUntrusted?,
            .serverCertificateHasUnknownRoot?, .serverCertificateNotYetValid?, .clientCertificateRejected?,
            .clientCertificateRequired?:
            return .tls
        case .badURL?, .unsupportedURL?, .appTransportSecurityRequiresSecureConnection?:
            return .invalidRequest
        case .cancelled?:
            return .cancelled
        default:
            return .other
        }
    }
}
