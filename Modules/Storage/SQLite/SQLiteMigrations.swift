internal import JoryioCore

/// The schema of the SDK's SQLite file, as an ordered list of steps tracked by `PRAGMA user_version`.
///
/// Append a step to change the schema; never edit a released one. Only SQL that SQLite 3.31 accepts
/// (no `RETURNING`, no `DROP COLUMN`).
enum SQLiteMigrations {
    /// One schema change: after it has run, `user_version` is `version`.
    struct Step {
        /// The `user_version` this step produces.
        var version: Int
        /// The statements to run, separated by `;`.
        var sql: String
    }

    /// Every step, oldest first.
    static let steps: [Step] = [
        Step(
            version: 1,
            sql: """
                CREATE TABLE queue_records (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    queue TEXT NOT NULL,
                    payload BLOB NOT NULL
                );
                CREATE INDEX queue_records_by_queue ON queue_records (queue, id);
                """
        ),
        // Issue 12: how far the event journal has been read, stored with the events read from it.
        Step(
            version: 2,
            sql: """
                CREATE TABLE queue_marks (
                    name TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                """
        ),
    ]

    /// The newest schema version this SDK knows.
    static var latestVersion: Int {
        Self.steps.last?.version ?? 0
    }

    /// Runs every step newer than the file's `user_version`, each in its own write transaction.
    ///
    /// The version is read again inside each transaction, so two connections migrating the same
    /// file at once do not apply a step twice.
    ///
    /// - Throws: ``StorageError`` (`.schema` when a step's SQL fails).
    static func migrate(_ connection: SQLiteConnection) throws(StorageError) {
        for step in Self.steps {
            try connection.transaction(immediate: true) { () throws(StorageError) in
                guard try connection.intValue("PRAGMA user_version") < step.version else { return }
                try connection.execute(step.sql)
                try connection.execute("PRAGMA user_version = \(step.version)")
            }
        }
    }
}
