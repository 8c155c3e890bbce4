internal import Foundation
internal import JoryioCore

/// Why a file could not be opened as the SDK's database.
enum SQLiteOpenFailure: Error {
    /// The file is not a database or is damaged: move it aside and start fresh.
    case damaged(StorageError)
    /// A newer SDK wrote the file (its `user_version`): move it aside and start fresh.
    case newerSchema(Int)
    /// Anything else (permissions, I/O, a failed migration): give up.
    case failed(StorageError)
}

extension SQLiteDatabase {
    /// Suffixes of the files SQLite keeps next to a database (WAL, shared memory, rollback journal).
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Opens and prepares the file; on a damaged or too-new file, quarantines it and tries once more.
    static func openRecovering(fileURL: URL, clock: any Clock, logger: Logger) throws(StorageError) -> SQLiteConnection
    {
        let reason: String
        let detail: String
        do throws(SQLiteOpenFailure) {
            return try Self.openPrepared(path: fileURL.path, logger: logger)
        } catch {
            switch error {
            case .failed(let storageError):
                throw storageError
            case .damaged(let storageError):
                reason = "corrupt"
                detail = storageError.message
            case .newerSchema(let version):
                reason = "newer"
                detail = "schema version \(version) is newer than \(SQLiteMigrations.latestVersion)"
            }
        }
        let movedTo: URL
        do throws(StorageError) {
            movedTo = try Quarantine.moveAside(
                fileURL,
                companionSuffixes: Self.companionSuffixes,
                reason: reason,
                clock: clock
            )
        } catch {
            throw StorageError(.cannotOpen, "cannot move the unusable database aside: \(error.message)")
        }
        logger.error(
            "queue database was unusable; moved it aside and started an empty one",
            ["file": fileURL.lastPathComponent, "movedTo": movedTo.lastPathComponent, "detail": detail]
        )
        do throws(SQLiteOpenFailure) {
            return try Self.openPrepared(path: fileURL.path, logger: logger)
        } catch {
            throw StorageError(.cannotOpen, "cannot open a fresh database: \(error)")
        }
    }

    /// Opens the file, checks its integrity, sets the pragmas and migrates the schema.
    ///
    /// The connection is closed again on every failure.
    private static func openPrepared(path: String, logger: Logger) throws(SQLiteOpenFailure) -> SQLiteConnection {
        let connection: SQLiteConnection
        do throws(StorageError) {
            connection = try SQLiteConnection(path: path)
        } catch {
            throw .failed(error)
        }
        do throws(SQLiteOpenFailure) {
            try Self.checkIntegrity(connection)
            try Self.classified {
                () throws(StorageError) in
                let mode = try connection.textValue("PRAGMA journal_mode = WAL") ?? ""
                if mode.lowercased() != "wal" {
                    logger.warning("queue database could not switch to WAL", ["journalMode": mode])
                }
                try connection.execute("PRAGMA synchronous = NORMAL")
            }
            let version = try Self.classified { () throws(StorageError) in
                Int(try connection.intValue("PRAGMA user_version"))
            }
            guard version <= SQLiteMigrations.latestVersion else {
                throw SQLiteOpenFailure.newerSchema(version)
            }
            try Self.classified { () throws(StorageError) in try SQLiteMigrations.migrate(connection) }
            connection.logger = logger
            return connection
        } catch {
            connection.close()
            throw error
        }
    }

    /// Throws `.damaged` unless `PRAGMA quick_check` reports `ok`.
    private static func checkIntegrity(_ connection: SQLiteConnection) throws(SQLiteOpenFailure) {
        let result = try Self.classified { () throws(StorageError) in
            try connection.textValue("PRAGMA quick_check")
        }
        guard result == "ok" else {
            throw .damaged(StorageError(.corrupt, "quick_check failed: \(String((result ?? "no result").prefix(200)))"))
        }
    }

    /// Runs `body`, turning a `.corrupt` error into `.damaged` and any other into `.failed`.
    private static func classified<T>(_ body: () throws(StorageError) -> T) throws(SQLiteOpenFailure) -> T {
        do throws(StorageError) {
            return try body()
        } catch {
            throw error.code == .corrupt ? .damaged(error) : .failed(error)
        }
    }
}
