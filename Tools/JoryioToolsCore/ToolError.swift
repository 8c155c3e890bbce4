/// Why a `joryio-tools` command failed, with the message it prints and the exit code it returns.
package struct ToolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The process exit code for a kind of failure (sysexits.h values, and 1 for a failed check).
    package struct ExitCode: Hashable, Sendable {
        /// The numeric exit status.
        package let rawValue: Int32

        /// A check ran and found problems (the lint convention; not a sysexits.h value).
        package static let checkFailed = ExitCode(rawValue: 1)
        /// The command line was wrong (`EX_USAGE`).
        package static let usage = ExitCode(rawValue: 64)
        /// An input was malformed or invalid (`EX_DATAERR`).
        package static let invalidInput = ExitCode(rawValue: 65)
        /// An input file was missing or unreadable (`EX_NOINPUT`).
        package static let noInput = ExitCode(rawValue: 66)
        /// An output file could not be written (`EX_CANTCREAT`).
        package static let cannotWrite = ExitCode(rawValue: 73)
    }

    /// The exit code the CLI returns.
    package var exitCode: ExitCode
    /// What went wrong, naming the offending value.
    package var message: String

    /// Creates an error.
    package init(_ exitCode: ExitCode, _ message: String) {
        self.exitCode = exitCode
        self.message = message
    }

    /// The message.
    package var description: String { self.message }
}
