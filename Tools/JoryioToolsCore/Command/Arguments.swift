/// A parsed command line: repeatable `--name value` options, `--flag`s and positional arguments.
package struct Arguments: Sendable, Equatable {
    /// Option values by name (without `--`), in command-line order.
    package var options: [String: [String]] = [:]
    /// Flags that were given.
    package var flags: Set<String> = []
    /// Everything that is not an option, a flag or an option's value.
    package var positional: [String] = []

    /// Parses `arguments` where `valued` names the options that take a value and `flags` the ones
    /// that do not. `--` ends option parsing.
    ///
    /// - Throws: ``ToolError`` (usage) for an unknown option or a missing value.
    package init(_ arguments: [String], valued: Set<String>, flags: Set<String>) throws(ToolError) {
        var index = 0
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !onlyPositional, argument.hasPrefix("-"), argument != "-" else {
                self.positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            let name = argument == "-h" ? "help" : String(argument.drop { $0 == "-" })
            if flags.contains(name) {
                self.flags.insert(name)
            } else if valued.contains(name) {
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw ToolError(.usage, "option \(argument) needs a value")
                }
                self.options[name, default: []].append(arguments[index])
                index += 1
            } else {
                throw ToolError(.usage, "unknown option \(argument)")
            }
        }
    }

    /// The single value of an option, or `nil` when it was not given.
    ///
    /// - Throws: ``ToolError`` (usage) when it was given more than once.
    package func single(_ name: String) throws(ToolError) -> String? {
        let values = self.options[name] ?? []
        guard values.count <= 1 else {
            throw ToolError(.usage, "option --\(name) may be given only once")
        }
        return values.first
    }
}
