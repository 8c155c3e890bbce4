import CJoryioSQLite
import Foundation
import JoryioCore
import JoryioStorage

/// The machine's limit for the SDK's write pattern: the same rows (same payload bytes), the same
/// transactions (the SDK's group-commit sizes, replayed), the same schema, `journal_mode=WAL` and
/// `synchronous=NORMAL`, on the same disk, through the sqlite3 C API with nothing in between: one
/// cached `INSERT`, `SQLITE_STATIC` blobs, no count bookkeeping, no Swift error plumbing.
enum RawSQLiteBaseline {
    struct Result {
        var rows: Int
        var transactions: Int
        var seconds: Double
        /// Process CPU time per row.
        var cpuMicrosecondsPerRow: Double
        var rowsPerSecond: Double { Double(self.rows) / self.seconds }
    }

    /// Inserts `warmup` in one transaction (not timed), then `payloads` split into `batches`.
    static func run(payloads: [Data], batches: [Int], warmup: [Data]) -> Result {
        precondition(batches.reduce(0, +) == payloads.count, "batches must cover the payloads")
        let file = makeTemporaryDirectory("raw").appendingPathComponent("raw.sqlite")
        // The SDK's own schema and index: let the SDK create the file, then close it.
        do {
            let database = try SQLiteDatabase(fileURL: file, clock: SystemClock(), logger: .disabled)
            database.close()
        } catch {
            fatalError("raw baseline: cannot create the schema: \(error)")
        }
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(file.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK, let db = handle else { fatalError("raw baseline: sqlite3_open_v2 \(opened)") }
        defer { sqlite3_close(db) }
        Self.exec(db, "PRAGMA journal_mode = WAL")
        Self.exec(db, "PRAGMA synchronous = NORMAL")
        var prepared: OpaquePointer?
        let sql = "INSERT INTO queue_records (queue, payload) VALUES (?1, ?2)"
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil) == SQLITE_OK,
            let insert = prepared
        else { fatalError("raw baseline: prepare: \(String(cString: sqlite3_errmsg(db)))") }
        defer { sqlite3_finalize(insert) }
        guard let queue = strdup("events") else { fatalError("raw baseline: out of memory") }
        defer { free(queue) }

        Self.insert(warmup[...], queue: queue, db: db, statement: insert)
        let cpuStart = processCPUMicroseconds()
        let start = Monotonic.nanoseconds()
        var index = 0
        for size in batches {
            Self.insert(payloads[index..<index + size], queue: queue, db: db, statement: insert)
            index += size
        }
        let end = Monotonic.nanoseconds()
        return Result(
            rows: payloads.count,
            transactions: batches.count,
            seconds: Monotonic.seconds(from: start, to: end),
            cpuMicrosecondsPerRow: (processCPUMicroseconds() - cpuStart) / Double(payloads.count)
        )
    }

    private static func insert(
        _ payloads: ArraySlice<Data>,
        queue: UnsafeMutablePointer<CChar>,
        db: OpaquePointer,
        statement: OpaquePointer
    ) {
        guard !payloads.isEmpty else { return }
        Self.exec(db, "BEGIN IMMEDIATE")
        for payload in payloads {
            sqlite3_bind_text(statement, 1, queue, -1, nil)  // nil destructor = SQLITE_STATIC
            let stepped = payload.withUnsafeBytes { bytes -> Int32 in
                sqlite3_bind_blob64(statement, 2, bytes.baseAddress, sqlite3_uint64(bytes.count), nil)
                return sqlite3_step(statement)
            }
            guard stepped == SQLITE_DONE else { fatalError("raw baseline: step \(stepped)") }
            sqlite3_reset(statement)
        }
        Self.exec(db, "COMMIT")
    }

    private static func exec(_ db: OpaquePointer, _ sql: String) {
        let code = sqlite3_exec(db, sql, nil, nil, nil)
        guard code == SQLITE_OK else { fatalError("raw baseline: \(sql): \(String(cString: sqlite3_errmsg(db)))") }
    }
}
