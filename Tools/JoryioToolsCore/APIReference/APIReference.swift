/// The public API of a set of modules as tables: one per public type, one row per member.
///
/// Built from symbol graphs; every list is sorted, so the same graphs always give the same text
/// whatever order the files were read in.
package struct APIReference: Sendable, Equatable {
    /// The modules, sorted by name.
    package var modules: [Module]

    /// One module's tables.
    package struct Module: Sendable, Equatable {
        /// The module name.
        package var name: String
        /// Tables sorted by type path; top-level functions and variables come last.
        package var tables: [Table]
    }

    /// The members of one type (or of the module's top level, when `path` is empty).
    package struct Table: Sendable, Equatable {
        /// The type's path inside its module, such as `JoryioConfig.Storage`; `""` for top-level members.
        package var path: String
        /// The type's kind ("Class", "Structure", …), or "Extension" for an extended type of another module.
        package var kind: String
        /// The type's declaration, or `""`.
        package var declaration: String
        /// The first sentence of the type's documentation, or `""`.
        package var summary: String
        /// The module of the extended type, for an extension of another module's type.
        package var extendedModule: String?
        /// The members, sorted by name, then declaration.
        package var rows: [Row]
    }

    /// One member.
    package struct Row: Sendable, Equatable {
        /// The exact Swift name (the last path component), such as `track(_:properties:)` or `granted`.
        package var name: String
        /// The kind, such as "Instance Method".
        package var kind: String
        /// The declaration, fragments joined, such as `func flush()`.
        package var declaration: String
        /// The first sentence of its documentation, or `""`.
        package var summary: String
        /// The symbol's unique id (a tie-breaker for ordering).
        package var preciseIdentifier: String
    }

    /// Builds the tables of every module in `graphs`; graphs of the same module (a module's main
    /// graph and its extension graphs) are merged and duplicate symbols dropped.
    ///
    /// - Parameter only: For a module re-exported type by type (`@_exported import enum M.T`), the
    ///   top-level names to keep, by module; modules not listed keep every public symbol.
    package init(graphs: [SymbolGraph], only: [String: Set<String>] = [:]) {
        var symbolsByModule: [String: [String: SymbolGraph.Symbol]] = [:]
        for graph in graphs {
            let kept = only[graph.module.name]
            for symbol in graph.symbols where symbol.accessLevel == "public" || symbol.accessLevel == "open" {
                if let kept, !kept.contains(symbol.pathComponents.first ?? "") { continue }
                symbolsByModule[graph.module.name, default: [:]][symbol.identifier.precise] = symbol
            }
        }
        self.modules = symbolsByModule.keys.sorted().map { name in
            Module(name: name, tables: Self.tables(for: symbolsByModule[name].map { Array($0.values) } ?? []))
        }
    }

    private static func tables(for symbols: [SymbolGraph.Symbol]) -> [Table] {
        var tables: [String: Table] = [:]
        for symbol in symbols where symbol.isType {
            let path = symbol.pathComponents.joined(separator: ".")
            tables[path] = Table(
                path: path,
                kind: symbol.kind.displayName,
                declaration: symbol.declaration,
                summary: DocSummary.firstSentence(of: symbol.docComment),
                extendedModule: nil,
                rows: []
            )
        }
        for symbol in symbols where symbol.pathComponents.count > 1 || !symbol.isType {
            let path = symbol.pathComponents.dropLast().joined(separator: ".")
            let row = Row(
                name: symbol.pathComponents.last ?? symbol.names.title,
                kind: symbol.kind.displayName,
                declaration: symbol.declaration,
                summary: DocSummary.firstSentence(of: symbol.docComment),
                preciseIdentifier: symbol.identifier.precise
            )
            if tables[path] == nil {
                tables[path] = Table(
                    path: path,
                    kind: path.isEmpty ? "Top level" : "Extension",
                    declaration: "",
                    summary: "",
                    extendedModule: path.isEmpty ? nil : symbol.swiftExtension?.extendedModule,
                    rows: []
                )
            }
            tables[path]?.rows.append(row)
        }
        return tables.values
            .map { table in
                var sorted = table
                sorted.rows.sort {
                    ($0.name, $0.declaration, $0.kind, $0.preciseIdentifier)
                        < ($1.name, $1.declaration, $1.kind, $1.preciseIdentifier)
                }
                return sorted
            }
            .sorted { ($0.path.isEmpty ? 1 : 0, $0.path) < ($1.path.isEmpty ? 1 : 0, $1.path) }
    }

    /// The member names of one type, such as every name in the `Joryio` table of module
    /// `JoryioKit`; with no module, the type's members in every module (its declaration in one,
    /// extensions in others: `Joryio.shared` lives in each product's top module).
    package func memberNames(ofType path: String, inModule module: String? = nil) -> Set<String> {
        var names = Set<String>()
        for candidate in self.modules where module == nil || candidate.name == module {
            for table in candidate.tables where table.path == path {
                names.formUnion(table.rows.map(\.name))
            }
        }
        return names
    }
}
