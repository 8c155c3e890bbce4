import Foundation
import JoryioToolsCore
import Testing

/// `joryio-tools check-nse`: the extension product depends on nothing (PKG-13, NSE-3, STORE-9).
@Suite("The Notification Service Extension product stands alone")
struct ExtensionProductCheckTests {
    static func package(
        productTargets: String = #"["JoryioNotificationServiceExtension"]"#,
        dependencies: String = "[]",
        settings: String = #"[{"tool": "swift", "kind": {"swiftLanguageMode": {"_0": "6"}}}]"#,
        resources: String = "[]",
        type: String = "regular"
    ) throws -> PackageDump {
        let json = """
            {
              "products": [
                {"name": "JoryioNotificationServiceExtension", "targets": \(productTargets),
                 "type": {"library": ["automatic"]}}
              ],
              "targets": [
                {"name": "CJoryioSQLite", "type": "system", "path": "Modules/System/CJoryioSQLite", "dependencies": []},
                {"name": "JoryioCore", "type": "regular", "path": "Modules/Core", "dependencies": []},
                {"name": "JoryioNotificationServiceExtension", "type": "\(type)",
                 "path": "Modules/NotificationServiceExtension", "dependencies": \(dependencies),
                 "settings": \(settings), "resources": \(resources)}
              ]
            }
            """
        return try PackageDump(json: Data(json.utf8), origin: "dump.json")
    }

    @Test("PKG-13: one target, no dependency, no library: no problem")
    func standsAlone() throws {
        #expect(ExtensionProductCheck.problems(package: try Self.package()).isEmpty)
    }

    @Test("PKG-13 / NSE-3: any dependency fails, on any platform")
    func dependencies() throws {
        let core = try Self.package(dependencies: #"[{"byName": ["JoryioCore", null]}]"#)
        #expect(ExtensionProductCheck.problems(package: core).count == 1)
        let linuxOnly = try Self.package(
            dependencies: #"[{"target": ["CJoryioSQLite", {"platformNames": ["linux"]}]}]"#
        )
        #expect(ExtensionProductCheck.problems(package: linuxOnly).first?.contains("CJoryioSQLite") == true)
        let product = try Self.package(dependencies: #"[{"product": ["Other", "other-package", null, null]}]"#)
        #expect(ExtensionProductCheck.problems(package: product).first?.contains("Other") == true)
    }

    @Test("STORE-9: a linked library (sqlite3), unsafe flags or resources fail")
    func settings() throws {
        let linked = try Self.package(
            settings: #"[{"tool": "linker", "kind": {"linkedLibrary": {"_0": "sqlite3"}}}]"#
        )
        #expect(ExtensionProductCheck.problems(package: linked).first?.contains("linkedLibrary") == true)
        let flags = try Self.package(settings: #"[{"tool": "swift", "kind": {"unsafeFlags": {"_0": ["-lz"]}}}]"#)
        #expect(ExtensionProductCheck.problems(package: flags).count == 1)
        let resources = try Self.package(resources: #"[{"path": "x.db", "rule": {"copy": {}}}]"#)
        #expect(ExtensionProductCheck.problems(package: resources).count == 1)
    }

    @Test("NSE-1: the product JoryioNotificationServiceExtension lists only its own target, a Swift one")
    func productShape() throws {
        let extra = try Self.package(productTargets: #"["JoryioNotificationServiceExtension", "JoryioCore"]"#)
        #expect(ExtensionProductCheck.problems(package: extra).count == 1)
        #expect(ExtensionProductCheck.problems(package: try Self.package(type: "system")).count == 1)
        let none = try PackageDump(json: Data(#"{"products": [], "targets": []}"#.utf8), origin: "x")
        #expect(
            ExtensionProductCheck.problems(package: none) == ["no library product JoryioNotificationServiceExtension"]
        )
    }

    @Test("NSE-3: imports are read in every form; only OS frameworks pass")
    func imports() {
        let source = """
            #if canImport(UserNotifications)
            @preconcurrency public import UserNotifications
            #endif
            internal import Foundation
            import struct JoryioCore.Locked
            @_exported import SQLite3
            package import FoundationNetworking
            // import JoryioKit (a comment)
            let important = 1
            """
        #expect(
            ExtensionProductCheck.imports(in: source)
                == ["UserNotifications", "Foundation", "JoryioCore", "SQLite3", "FoundationNetworking"]
        )
        let problems = ExtensionProductCheck.importProblems([("Modules/X/A.swift", source)])
        #expect(
            problems == [
                "Modules/X/A.swift imports JoryioCore: the extension product may import only the OS's frameworks",
                "Modules/X/A.swift imports SQLite3: the extension product may import only the OS's frameworks",
            ]
        )
    }
}
