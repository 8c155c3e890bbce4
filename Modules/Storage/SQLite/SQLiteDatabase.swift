import CJoryioSQLite
package import Foundation
package import JoryioCore

/// A SQLite database file holding the SDK's queues, reached through one connection.
///
/// Opening it checks the file (`PRAGMA quick_check`), moves a damaged file, or one written by a newer
/// SDK, aside and starts a fresh one, then switches to WAL and applies ``SQLiteMigrations``. Several
/// ``SQLiteQueueStore``s (events, durable writes, attribute writes) share one database.
///
/// A full disk: every write transaction that fails with `SQLITE_FULL` checkpoints the write-ahead
/// log, truncates it to zero bytes and runs once more (`SQLiteConnection.writeTransaction`), so a
/// `-wal` file that grew is never what keeps the queue from shrinking.
///
/// Durability: the file uses WAL with `synchronous=NORMAL`. A committed transaction survives a crash
/// or kill of the app process; after an OS crash or power loss the last transactions before it may
/// be rolled back, but the file stays consistent. `FULL` would `fsync` on every commit, a large cost
/// on every `track()` for a risk the server-side `messageId` deduplication does not even need.
///
/// `SQLiteDatabase` is `Sendable`: every use of the connection takes a lock, so calls from several
/// threads are serialized.
package final class SQLiteDatabase: Sendable {
    /// Where the database file lives.
    package let fileURL: URL

    // Confined: the connection, which owns the sqlite3 handle (opened with SQLITE_OPEN_NOMUTEX), is
    // only reached inside `connection.withLock`, so exactly one thread uses it at a time.
    private let connection: Locked<SQLiteConnection>

    /// Opens the database at `fileURL`, creating the file and its directory when missing.
    ///
    /// A file that is not a database, fails `PRAGMA quick_check`, or has a `user_version` newer than
    /// this SDK knows is renamed (with its `-wal` and `-shm` files) to `<name>.corrupt-<millis>` or
    /// `<name>.newer-<millis>`, an error is logged, and a fresh database is created. Opening never
    /// traps on a bad file.
    ///
    /// - Parameters:
    ///   - fileURL: The database file.
    ///   - clock: Supplies the milliseconds in the name of a quarantined file.
    ///   - logger: Receives an error record when a file is quarantined.
    /// - Throws: ``StorageError`` with code `.cannotOpen` when the file cannot be opened even after
    ///   quarantine; `.schema` when a migration fails; `.io` for other failures.
    package init(fileURL: URL, clock: any Clock, logger: Logger) throws(StorageError) {
        self.fileURL = fileURL
        try FileSystem.createDirectory(fileURL.deletingLastPathComponent(), forcePrivateMode: false)
        let connection = try SQLiteDatabase.openRecovering(fileURL: fileURL, clock: clock, logger: logger)
        self.connection = Locked(connection)
        Self.excludeFromBackup(fileURL, logger: logger)
    }

    /// Closes the connection. Every later call on this database or its stores throws `.closed`.
    package func close() {
        self.connection.withLock { $0.close() }
    }

    /// Runs `body` with exclusive use of the connection.
    func withConnection<T>(_ body: (SQLiteConnection) throws(StorageError) -> T) throws(StorageError) -> T {
        try self.connection.withLockThrowing { connection throws(StorageError) in
            try body(connection)
        }
    }

    // MARK: - Diagnostics and test hooks

    /// The journal mode in effect (`wal` normally).
    package func journalMode() throws(StorageError) -> String {
        try self.withConnection { connection throws(StorageError) in
            try connection.textValue("PRAGMA journal_mode") ?? ""
        }
    }

    /// The `user_version` of the file: the schema version it was migrated to.
    package func schemaVersion() throws(StorageError) -> Int {
        try self.withConnection { connection throws(StorageError) in
            Int(try connection.intValue("PRAGMA user_version"))
        }
    }

    /// The size of the file in pages (`PRAGMA page_count`).
    package func pageCount() throws(StorageError) -> Int {
        try self.withConnection { connection throws(StorageError) in
            Int(try connection.intValue("PRAGMA page_count"))
        }
    }

    /// How many writes failed with `SQLITE_FULL` and then succeeded once the write-ahead log was
    /// checkpointed and truncated.
    package var recoveredFromFull: Int {
        (try? self.withConnection { connection throws(StorageError) in connection.recoveredFromFull }) ?? 0
    }

    /// Checkpoints the write-ahead log and truncates it to zero bytes (`PRAGMA
    /// wal_checkpoint(TRUNCATE)`). Returns whether the checkpoint completed.
    @discardableResult
    package func truncateWriteAheadLog() -> Bool {
        (try? self.withConnection { connection throws(StorageError) in connection.checkpointTruncatingWAL() }) ?? false
    }

    /// Caps the file at `pages` pages for this connection (`PRAGMA max_page_count`), so tests can
    /// provoke `SQLITE_FULL`. SQLite never sets it below the current page count.
    ///
    /// - Returns: The limit now in effect.
    @discardableResult
    package func setMaxPageCount(_ pages: Int) throws(StorageError) -> Int {
        try self.withConnection { connection throws(StorageError) in
            Int(try connection.intValue("PRAGMA max_page_count = \(max(pages, 1))"))
        }
    }

    /// Keeps a queue file out of iCloud and iTunes backups (a restored queue would resend events).
    static func excludeFromBackup(_ fileURL: URL, logger: Logger, what: String = "the queue database") {
        #if canImport(Darwin)
        var url = fileURL
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        do {
            try url.setResourceValues(values)
        } catch {
            logger.warning("could not exclude \(what) from backups")
        }
        #endif
    }
}
