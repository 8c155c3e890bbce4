import CJoryioZlib
internal import Foundation

/// The zlib streaming loops behind ``Gzip``.
///
/// The `z_stream` lives on the heap because zlib keeps a pointer back to it and rejects a stream that
/// moved between calls. `deflateEnd` / `inflateEnd` always run, in `defer`.
enum ZlibStream {
    /// zlib counts input in `UInt32`; larger buffers are fed in slices of at most this size.
    private static let maxSlice = Int(UInt32.max)

    static func deflate(_ input: UnsafeRawBufferPointer, level: Int32, chunkSize: Int) throws(GzipError) -> Data {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deinitialize(count: 1).deallocate() }
        let initStatus = cjoryio_deflate_init_gzip(stream, level)
        guard initStatus == Z_OK else {
            throw GzipError(.zlib, "deflateInit2 failed (\(initStatus))")
        }
        defer { deflateEnd(stream) }

        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        var output = Data()
        var offset = 0
        while true {
            offset += Self.feed(stream, from: input, at: offset)
            let flush = offset == input.count ? Z_FINISH : Z_NO_FLUSH
            stream.pointee.next_out = chunk
            stream.pointee.avail_out = UInt32(chunkSize)
            let status = CJoryioZlib.deflate(stream, flush)
            let produced = chunkSize - Int(stream.pointee.avail_out)
            output.append(chunk, count: produced)
            switch status {
            case Z_STREAM_END:
                return output
            case Z_OK:
                continue
            case Z_BUF_ERROR where produced > 0:
                continue
            default:
                throw GzipError(.zlib, "deflate failed (\(status))\(Self.message(stream))")
            }
        }
    }

    static func inflate(
        _ input: UnsafeRawBufferPointer,
        maxOutputBytes: Int,
        chunkSize: Int
    ) throws(GzipError) -> Data {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deinitialize(count: 1).deallocate() }
        let initStatus = cjoryio_inflate_init_gzip(stream)
        guard initStatus == Z_OK else {
            throw GzipError(.zlib, "inflateInit2 failed (\(initStatus))")
        }
        defer { inflateEnd(stream) }

        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        var output = Data()
        var offset = 0
        while true {
            offset += Self.feed(stream, from: input, at: offset)
            // Leave room for one byte past the limit, so exceeding it is detected, not truncated.
            let room = min(chunkSize, maxOutputBytes - output.count + 1)
            stream.pointee.next_out = chunk
            stream.pointee.avail_out = UInt32(room)
            let status = CJoryioZlib.inflate(stream, Z_NO_FLUSH)
            let produced = room - Int(stream.pointee.avail_out)
            guard output.count + produced <= maxOutputBytes else {
                throw GzipError(.outputTooLarge, "decompressed size exceeds \(maxOutputBytes) bytes")
            }
            output.append(chunk, count: produced)
            switch status {
            case Z_STREAM_END:
                return output
            case Z_OK:
                continue
            case Z_BUF_ERROR where stream.pointee.avail_in > 0 || offset < input.count:
                continue
            case Z_BUF_ERROR:
                throw GzipError(.invalidData, "truncated gzip stream")
            case Z_DATA_ERROR, Z_NEED_DICT:
                throw GzipError(.invalidData, "corrupt gzip stream\(Self.message(stream))")
            default:
                throw GzipError(.zlib, "inflate failed (\(status))\(Self.message(stream))")
            }
        }
    }

    /// Points the stream at the next slice of `input` once the previous one is used up.
    /// - Returns: The number of bytes newly handed to zlib.
    private static func feed(
        _ stream: UnsafeMutablePointer<z_stream>,
        from input: UnsafeRawBufferPointer,
        at offset: Int
    ) -> Int {
        guard stream.pointee.avail_in == 0, offset < input.count, let base = input.baseAddress else { return 0 }
        let count = min(input.count - offset, Self.maxSlice)
        // zlib's `next_in` is not const-qualified, but zlib never writes through it.
        let slice = base.advanced(by: offset).assumingMemoryBound(to: Bytef.self)
        stream.pointee.next_in = UnsafeMutablePointer(mutating: slice)
        stream.pointee.avail_in = UInt32(count)
        return count
    }

    /// zlib's own message, if it left one, as `": …"`.
    private static func message(_ stream: UnsafeMutablePointer<z_stream>) -> String {
        guard let message = stream.pointee.msg else { return "" }
        return ": " + String(cString: message)
    }
}
