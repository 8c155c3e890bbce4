package import Foundation

/// The part of a `swift-symbolgraph-extract` symbol graph the API reference needs.
///
/// Everything else in the file (relationships, locations, availability, generics) is ignored, so
/// the reader keeps working as the format grows.
package struct SymbolGraph: Decodable, Sendable, Equatable {
    /// The module the graph describes (for an extension graph `A@B`, the extending module `A`).
    package var module: Module
    /// The symbols at or above the graph's minimum access level.
    package var symbols: [Symbol]

    /// The module of a graph.
    package struct Module: Decodable, Sendable, Equatable {
        /// The module name, such as `Joryio`.
        package var name: String
    }

    /// One declaration.
    package struct Symbol: Decodable, Sendable, Equatable {
        /// The kind, such as `swift.method` / "Instance Method".
        package var kind: Kind
        /// The symbol's unique id.
        package var identifier: Identifier
        /// The path from the module to the symbol, such as `["Joryio", "track(_:properties:)"]`.
        package var pathComponents: [String]
        /// The display names.
        package var names: Names
        /// The documentation comment, if any.
        package var docComment: DocComment?
        /// The declaration, split into fragments whose spellings join to the source form.
        package var declarationFragments: [Fragment]?
        /// `public`, `open`, … (graphs extracted at `-minimum-access-level public` hold only those).
        package var accessLevel: String
        /// Set when the symbol is declared in an extension.
        package var swiftExtension: SwiftExtension?

        /// A symbol kind.
        package struct Kind: Decodable, Sendable, Equatable {
            /// The stable identifier, such as `swift.struct`.
            package var identifier: String
            /// The human name, such as `Structure`.
            package var displayName: String
        }

        /// A symbol id.
        package struct Identifier: Decodable, Sendable, Equatable {
            /// The mangled, unique name.
            package var precise: String
        }

        /// Display names.
        package struct Names: Decodable, Sendable, Equatable {
            /// The name with argument labels, such as `track(_:properties:)`.
            package var title: String
        }

        /// A documentation comment, line by line.
        package struct DocComment: Decodable, Sendable, Equatable {
            /// The comment's lines without the `///`.
            package var lines: [Line]

            /// One line of a comment.
            package struct Line: Decodable, Sendable, Equatable {
                /// The text.
                package var text: String
            }
        }

        /// One piece of a declaration.
        package struct Fragment: Decodable, Sendable, Equatable {
            /// The source text of the piece.
            package var spelling: String
        }

        /// Extension facts.
        package struct SwiftExtension: Decodable, Sendable, Equatable {
            /// The module of the extended type.
            package var extendedModule: String
        }
    }

    /// Decodes a graph from the JSON `swift-symbolgraph-extract` writes.
    ///
    /// - Parameter origin: the file name, for the error message.
    package init(json data: Data, origin: String) throws(ToolError) {
        do {
            self = try JSONDecoder().decode(SymbolGraph.self, from: data)
        } catch {
            throw ToolError(.invalidInput, "\(origin): not a symbol graph: \(error)")
        }
    }
}

extension SymbolGraph.Symbol {
    /// The declaration as one line of Swift, such as `func track(_ name: String, properties: [String : Any]? = nil)`.
    package var declaration: String {
        let joined = (self.declarationFragments ?? []).map(\.spelling).joined()
        return joined.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }

    /// Whether the symbol declares a type (and so gets a table of its own).
    package var isType: Bool {
        Self.typeKinds.contains(self.kind.identifier)
    }

    private static let typeKinds: Set<String> = [
        "swift.class", "swift.struct", "swift.enum", "swift.protocol", "swift.actor", "swift.typealias",
        "swift.associatedtype",
    ]
}
