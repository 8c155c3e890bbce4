package import Foundation

/// Receives one response body and streams it to a file: never more than one network chunk in
/// memory, the size cap checked on every chunk, the type decided from the `Content-Type` and the
/// first bytes (NSE-7, VIDEO-8).
///
/// A value confined to one download's delegate queue; a ``RichPushLock`` holds it.
package struct RichPushMediaReceiver {
    private let directory: URL
    private let limits: RichPushLimits
    private let name: String
    private var handle: FileHandle?
    private var partURL: URL?
    private var declared: RichPushMediaType?
    private var prefix: [UInt8] = []
    /// Body bytes written so far.
    package private(set) var byteCount = 0
    /// The largest chunk received, in bytes: what was ever held in memory at once.
    package private(set) var peakBufferedBytes = 0

    /// A receiver that writes into `directory` (created when missing) a file called `name` plus the
    /// type's extension.
    package init(directory: URL, limits: RichPushLimits, name: String) {
        self.directory = directory
        self.limits = limits
        self.name = name
    }

    /// The type known so far: the first bytes' when they show one, else the declared one.
    package var currentType: RichPushMediaType? {
        RichPushMediaType.resolve(
            declared: self.declared,
            sniffed: self.prefix.count >= RichPushMediaType.sniffLength ? RichPushMediaType.sniff(self.prefix) : nil
        )
    }

    /// The response's head: a 2xx status, its `Content-Type`, its announced length (negative when
    /// unknown). Opens the file.
    package mutating func begin(status: Int, mimeType: String?, expectedLength: Int64) throws(RichPushFailure) {
        // A redirect that reaches the body was not followed (the URL loader refused it itself).
        if (300...399).contains(status) { throw .redirectRefused }
        guard (200...299).contains(status) else { throw .httpStatus(status) }
        self.declared = RichPushMediaType(mimeType: mimeType)
        let cap = self.limits.maxBytes(for: self.declared)
        if expectedLength > Int64(cap) { throw .tooLarge(Int(clamping: expectedLength)) }
        let part = self.directory.appendingPathComponent(self.name + ".part")
        do {
            try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: part.path, contents: nil) else {
                throw RichPushFailure.file("cannot create \(part.lastPathComponent)")
            }
            self.handle = try FileHandle(forWritingTo: part)
            self.partURL = part
        } catch let failure as RichPushFailure {
            throw failure
        } catch {
            throw .file(String(describing: error))
        }
    }

    /// A chunk of the body: written to the file at once, then dropped.
    package mutating func append(_ data: Data) throws(RichPushFailure) {
        guard let handle = self.handle else { throw .file("no file open") }
        self.peakBufferedBytes = max(self.peakBufferedBytes, data.count)
        if self.prefix.count < RichPushMediaType.sniffLength {
            self.prefix += data.prefix(RichPushMediaType.sniffLength - self.prefix.count)
        }
        let total = self.byteCount + data.count
        if total > self.limits.maxBytes(for: self.currentType) { throw .tooLarge(total) }
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw .file(String(describing: error))
        }
        self.byteCount = total
    }

    /// The body is complete: closes the file and names it after its type.
    package mutating func finish() throws(RichPushFailure) -> RichPushMediaFile {
        guard let part = self.partURL else { throw .file("no file open") }
        self.close()
        guard self.byteCount > 0 else { throw .empty }
        guard
            let type = RichPushMediaType.resolve(declared: self.declared, sniffed: RichPushMediaType.sniff(self.prefix))
        else { throw .unsupportedType }
        if self.byteCount > self.limits.maxBytes(for: type) { throw .tooLarge(self.byteCount) }
        let final = self.directory.appendingPathComponent(self.name + "." + type.fileExtension)
        do {
            try? FileManager.default.removeItem(at: final)
            try FileManager.default.moveItem(at: part, to: final)
        } catch {
            throw .file(String(describing: error))
        }
        self.partURL = nil
        return RichPushMediaFile(
            url: final,
            type: type,
            byteCount: self.byteCount,
            peakBufferedBytes: self.peakBufferedBytes
        )
    }

    /// Gives up: closes and removes the partial file.
    package mutating func abandon() {
        self.close()
        if let part = self.partURL { try? FileManager.default.removeItem(at: part) }
        self.partURL = nil
    }

    private mutating func close() {
        try? self.handle?.close()
        self.handle = nil
    }
}
