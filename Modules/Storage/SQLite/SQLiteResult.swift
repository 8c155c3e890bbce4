import CJoryioSQLite
internal import JoryioCore

/// Maps SQLite result codes to ``StorageError``.
enum SQLiteResult {
    /// The ``StorageError/Code`` for a (primary or extended) SQLite result code.
    ///
    /// `SQLITE_FULL` is `.full`; `SQLITE_CORRUPT` and `SQLITE_NOTADB` are `.corrupt`; failures to open
    /// the file are `.cannotOpen`; SQL that does not fit the file's schema is `.schema`; the rest
    /// (I/O, busy, out of memory, read-only) is `.io`.
    static func code(for resultCode: Int32) -> StorageError.Code {
        switch resultCode & 0xff {
        case SQLITE_FULL:
            .full
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            .corrupt
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            .cannotOpen
        case SQLITE_ERROR, SQLITE_SCHEMA, SQLITE_MISMATCH, SQLITE_CONSTRAINT:
            .schema
        default:
            .io
        }
    }

    /// A ``StorageError`` for `resultCode`, with SQLite's message when a handle is available.
    ///
    /// SQLite's messages describe the failure and the SQL involved, never bound values, so they
    /// contain no personal data.
    static func error(_ resultCode: Int32, _ handle: OpaquePointer?, _ context: String) -> StorageError {
        let message: String
        if let handle, let text = sqlite3_errmsg(handle) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(resultCode) {
            message = String(cString: text)
        } else {
            message = "unknown error"
        }
        return StorageError(Self.code(for: resultCode), "\(context): \(message) (SQLite \(resultCode))")
    }
}
