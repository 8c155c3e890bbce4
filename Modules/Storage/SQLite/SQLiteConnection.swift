import CJoryioSQLite
internal import JoryioCore

/// One open `sqlite3` handle with its cached prepared statements.
///
/// Not thread-safe, and deliberately not `Sendable`: ``SQLiteDatabase`` keeps it inside a `Locked`,
/// so exactly one thread uses it at a time (the handle is opened with `SQLITE_OPEN_NOMUTEX`).
final class SQLiteConnection {
    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private var lastDataVersion: Int64?

    /// Where the connection reports a full disk it recovered from (set by ``SQLiteDatabase``).
    var logger: Logger = .disabled

    /// How many write transactions failed with `SQLITE_FULL` and then succeeded after the
    /// write-ahead log was checkpointed and truncated (see ``writeTransaction(_:)``).
    private(set) var recoveredFromFull = 0

    /// Row counts cached by stores, keyed by queue name.
    ///
    /// Emptied by ``dropCachesIfChangedElsewhere()`` whenever another connection has committed,
    /// because the counts may no longer be true.
    var cachedCounts: [String: Int] = [:]

    /// Opens (and creates) the database file at `path`.
    ///
    /// - Throws: ``StorageError`` with code `.cannotOpen`. The handle SQLite allocates even for a
    ///   failed open is closed before throwing.
    init(path: String) throws(StorageError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let resultCode = sqlite3_open_v2(path, &handle, flags, nil)
        guard resultCode == SQLITE_OK, let handle else {
            let error = SQLiteResult.error(resultCode, handle, "open")
            sqlite3_close(handle)
            throw StorageError(.cannotOpen, error.message)
        }
        guard sqlite3_db_readonly(handle, "main") == 0 else {
            sqlite3_close(handle)
            throw StorageError(.cannotOpen, "open: the database file is read-only")
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        _ = cjoryio_sqlite_db_config_defensive(handle, 1)
        self.handle = handle
    }

    deinit {
        self.close()
    }

    /// Finalizes every cached statement and closes the handle. Later calls throw `.closed`.
    func close() {
        guard let handle = self.handle else { return }
        for statement in self.statements.values {
            sqlite3_finalize(statement)
        }
        self.statements.removeAll()
        self.cachedCounts.removeAll()
        // Every statement is finalized, so this cannot fail with SQLITE_BUSY.
        sqlite3_close(handle)
        self.handle = nil
    }

    /// Runs SQL without results (several statements may be separated by `;`).
    func execute(_ sql: String) throws(StorageError) {
        let handle = try self.openHandle()
        let resultCode = sqlite3_exec(handle, sql, nil, nil, nil)
        guard resultCode == SQLITE_OK else {
            throw SQLiteResult.error(resultCode, handle, "execute")
        }
    }

    /// Runs `body` with the statement for `sql`, prepared once and reused on every later call.
    ///
    /// The statement is reset and its bindings cleared when `body` returns or throws, so a read never
    /// keeps a transaction open.
    func withStatement<T>(
        _ sql: String,
        _ body: (SQLiteStatement) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        let handle = try self.openHandle()
        let statement: OpaquePointer
        if let cached = self.statements[sql] {
            statement = cached
        } else {
            statement = try Self.prepare(sql, on: handle, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
            self.statements[sql] = statement
        }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        return try body(SQLiteStatement(handle: statement, database: handle))
    }

    /// Runs `body` with a statement for `sql` that is finalized afterwards (for one-off SQL).
    func withTransientStatement<T>(
        _ sql: String,
        _ body: (SQLiteStatement) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        let handle = try self.openHandle()
        let statement = try Self.prepare(sql, on: handle, flags: 0)
        defer { sqlite3_finalize(statement) }
        return try body(SQLiteStatement(handle: statement, database: handle))
    }

    /// The first column of the first row of `sql`, as text (for pragmas).
    func textValue(_ sql: String) throws(StorageError) -> String? {
        try self.withTransientStatement(sql) { statement throws(StorageError) in
            try statement.step() ? statement.text(at: 0) : nil
        }
    }

    /// The first column of the first row of `sql`, as an integer (for pragmas).
    func intValue(_ sql: String) throws(StorageError) -> Int64 {
        try self.withTransientStatement(sql) { statement throws(StorageError) in
            try statement.step() ? statement.int64(at: 0) : 0
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it (or `COMMIT`) fails.
    ///
    /// - Parameter immediate: Take the write lock up front (`BEGIN IMMEDIATE`), for transactions
    ///   that write; reads use a deferred transaction for a consistent snapshot.
    func transaction<T>(immediate: Bool, _ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        try self.execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do throws(StorageError) {
            let result = try body()
            try self.execute("COMMIT")
            return result
        } catch {
            // SQLite may already have rolled back by itself (for example after SQLITE_FULL).
            if let handle = self.handle, sqlite3_get_autocommit(handle) == 0 {
                sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            }
            throw error
        }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`); when that fails with `SQLITE_FULL`,
    /// checkpoints and truncates the write-ahead log and runs it once more.
    ///
    /// In WAL mode every write, a `DELETE` included, appends pages to the `-wal` file, which keeps
    /// the size it grew to. On a full disk that file may be what holds the space: its frames are
    /// copied into the database (which needs no new space when the pages already exist there, as
    /// for deletes) and the file is cut to zero bytes (`PRAGMA wal_checkpoint(TRUNCATE)`), and the
    /// retry writes into the space that freed. When the checkpoint cannot complete either (the
    /// database itself must grow, or the disk is full for good), the first error is thrown and
    /// nothing is retried; the callers log it (once per failing streak).
    ///
    /// `body` must be safe to run twice: everything it did the first time was rolled back.
    func writeTransaction<T>(_ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        do throws(StorageError) {
            return try self.transaction(immediate: true, body)
        } catch {
            guard error.code == .full, self.checkpointTruncatingWAL() else { throw error }
            let result = try self.transaction(immediate: true, body)
            self.recoveredFromFull += 1
            if self.recoveredFromFull == 1 {
                self.logger.warning(
                    "the disk was full; truncating the queue database's write-ahead log made room (later times at debug)"
                )
            } else {
                self.logger.debug("the disk was full; truncating the write-ahead log made room")
            }
            return result
        }
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)`: copies every frame of the write-ahead log into the
    /// database and truncates the log to zero bytes. Returns whether it completed.
    func checkpointTruncatingWAL() -> Bool {
        guard let handle = self.handle else { return false }
        var logFrames: Int32 = 0
        var checkpointed: Int32 = 0
        let resultCode = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &checkpointed)
        guard resultCode == SQLITE_OK else {
            self.logger.debug(
                "cannot checkpoint the write-ahead log: \(SQLiteResult.error(resultCode, handle, "checkpoint").message)"
            )
            return false
        }
        return true
    }

    /// The rowid of the last row this connection inserted.
    func lastInsertRowID() throws(StorageError) -> Int64 {
        sqlite3_last_insert_rowid(try self.openHandle())
    }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` of this connection changed.
    func changes() throws(StorageError) -> Int {
        Int(sqlite3_changes(try self.openHandle()))
    }

    /// Empties ``cachedCounts`` when another connection has committed since the last call.
    ///
    /// Uses `PRAGMA data_version`, which changes only for commits made by other connections.
    func dropCachesIfChangedElsewhere() throws(StorageError) {
        let version = try self.withStatement("PRAGMA data_version") { statement throws(StorageError) in
            try statement.step() ? statement.int64(at: 0) : 0
        }
        if version != self.lastDataVersion {
            self.cachedCounts.removeAll()
            self.lastDataVersion = version
        }
    }

    private func openHandle() throws(StorageError) -> OpaquePointer {
        guard let handle = self.handle else {
            throw StorageError(.closed, "the database was closed")
        }
        return handle
    }

    private static func prepare(
        _ sql: String,
        on handle: OpaquePointer,
        flags: UInt32
    ) throws(StorageError) -> OpaquePointer {
        var statement: OpaquePointer?
        let resultCode = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard resultCode == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteResult.error(resultCode, handle, "prepare")
        }
        return statement
    }
}
