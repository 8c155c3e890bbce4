import CJoryioSQLite
internal import Foundation
internal import JoryioCore

/// A prepared statement of a ``SQLiteConnection``: typed bindings, stepping and column reads.
///
/// Not thread-safe. It only exists inside ``SQLiteConnection/withStatement(_:_:)`` (or the transient
/// variant), while the connection's lock is held; the connection resets or finalizes it afterwards.
struct SQLiteStatement {
    /// The `sqlite3_stmt`.
    let handle: OpaquePointer
    /// The `sqlite3` it belongs to, for error messages.
    let database: OpaquePointer

    /// Binds an integer to the 1-based parameter `index`.
    func bind(_ value: Int64, at index: Int32) throws(StorageError) {
        try self.check(sqlite3_bind_int64(self.handle, index, value))
    }

    /// Binds UTF-8 text to the 1-based parameter `index` (SQLite copies it).
    func bind(_ value: String, at index: Int32) throws(StorageError) {
        try self.check(sqlite3_bind_text(self.handle, index, value, -1, cjoryio_sqlite_transient()))
    }

    /// Binds a blob to the 1-based parameter `index` (SQLite copies it). Empty data binds an empty
    /// blob, not `NULL`.
    func bind(_ value: Data, at index: Int32) throws(StorageError) {
        let resultCode = value.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return sqlite3_bind_zeroblob(self.handle, index, 0)
            }
            return sqlite3_bind_blob64(
                self.handle,
                index,
                base,
                sqlite3_uint64(buffer.count),
                cjoryio_sqlite_transient()
            )
        }
        try self.check(resultCode)
    }

    /// Advances to the next row.
    ///
    /// - Returns: `true` when a row is available, `false` when the statement is done.
    /// Makes the statement ready to run again with new bindings (inside one `withStatement`).
    func reset() {
        sqlite3_reset(self.handle)
        sqlite3_clear_bindings(self.handle)
    }

    func step() throws(StorageError) -> Bool {
        let resultCode = sqlite3_step(self.handle)
        switch resultCode {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            throw SQLiteResult.error(resultCode, self.database, "step")
        }
    }

    /// The integer in `column` (0-based) of the current row.
    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(self.handle, column)
    }

    /// The text in `column` (0-based) of the current row; `NULL` reads as an empty string.
    func text(at column: Int32) -> String {
        guard let text = sqlite3_column_text(self.handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(self.handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The blob in `column` (0-based) of the current row; `NULL` and empty blobs read as empty data.
    func data(at column: Int32) -> Data {
        // sqlite3_column_blob first, then sqlite3_column_bytes, as SQLite documents.
        guard let bytes = sqlite3_column_blob(self.handle, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(self.handle, column)))
    }

    private func check(_ resultCode: Int32) throws(StorageError) {
        guard resultCode == SQLITE_OK else {
            throw SQLiteResult.error(resultCode, self.database, "bind")
        }
    }
}
