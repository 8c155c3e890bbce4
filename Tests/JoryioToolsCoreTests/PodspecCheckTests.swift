import Foundation
import JoryioToolsCore
import Testing

/// The pod installs from the git tag (PKG-6) with subspecs `Core` (the default), `UI` (depends on Core,
/// PKG-3) and `NotificationServiceExtension` (no dependencies, PKG-13) mirroring the products (PKG-2,
/// PKG-7), the deployment target of Package.swift (PKG-11) and the privacy manifest bundled (PKG-12,
/// PRIVACY-1).
@Suite("Joryio.podspec mirrors the SwiftPM products")
struct PodspecCheckTests {
    /// A package like the real one, small: Joryio over Kit (with the manifest) over Core and a
    /// system library, a Linux-only system library, a SwiftPM-only product, a test target.
    private static let packageJSON = """
        {
          "platforms": [{"platformName": "ios", "version": "14.0", "options": []},
                        {"platformName": "macos", "version": "11.0", "options": []}],
          "products": [
            {"name": "Joryio", "targets": ["Joryio"], "type": {"library": ["automatic"]}, "settings": []},
            {"name": "JoryioTesting", "targets": ["JoryioTesting"], "type": {"library": ["automatic"]}, "settings": []},
            {"name": "joryio-tools", "targets": ["joryio-tools"], "type": {"executable": null}, "settings": []}
          ],
          "targets": [
            {"name": "CLib", "type": "system", "path": "Modules/System/CLib", "dependencies": []},
            {"name": "CLinux", "type": "system", "path": "Modules/System/CLinux", "dependencies": []},
            {"name": "JoryioCore", "type": "regular", "path": "Modules/Core", "dependencies": [],
             "settings": [{"tool": "swift", "kind": {"swiftLanguageMode": {"_0": "6"}}}]},
            {"name": "JoryioKit", "type": "regular", "path": "Modules/Kit",
             "dependencies": [{"byName": ["JoryioCore", null]}, {"byName": ["CLib", null]},
                              {"target": ["CLinux", {"platformNames": ["linux", "android"]}]}],
             "resources": [{"path": "PrivacyInfo.xcprivacy", "rule": {"copy": {}}}]},
            {"name": "Joryio", "type": "regular", "path": "Modules/Joryio", "dependencies": [{"byName": ["JoryioKit", null]}]},
            {"name": "JoryioTesting", "type": "regular", "path": "Modules/TestSupport",
             "dependencies": [{"byName": ["JoryioKit", null]}]},
            {"name": "JoryioCoreTests", "type": "test", "path": "Tests/JoryioCoreTests", "dependencies": []}
          ]
        }
        """

    private static let podspecText = """
        # A comment with 'quotes' and a Modules/Fake/**/*.swift path
        Pod::Spec.new do |s|
          s.name = 'Joryio'
          s.version = '1.2.3'
          s.source = { :git => 'https://example.invalid/x.git', :tag => s.version.to_s }
          s.ios.deployment_target = '14.0'
          s.osx.deployment_target = '11.0'
          s.swift_version = '6.0'
          s.default_subspecs = 'Core'

          s.subspec 'Core' do |ss|
            ss.source_files = 'Modules/{Core,Kit}/**/*.swift',
                              'Modules/Joryio/**/*.swift'
            ss.preserve_paths = 'Modules/System/CLib'
            ss.resource_bundles = { 'JoryioPrivacy' => ['Modules/Kit/PrivacyInfo.xcprivacy'] }
          end
        end
        """

    private static let folders = [
        "Modules/Core", "Modules/Kit", "Modules/Joryio", "Modules/TestSupport", "Modules/System",
    ]

    private func problems(
        _ podspec: String = podspecText,
        package: String = packageJSON,
        folders: [String] = folders,
        version: String? = "1.2.3"
    ) throws -> [String] {
        let dump = try PackageDump(json: Data(package.utf8), origin: "package.json")
        return PodspecCheck.problems(
            podspec: Podspec(text: podspec),
            package: dump,
            moduleFolders: folders,
            sdkVersion: version
        )
    }

    private func replacing(_ old: String, _ new: String) -> String {
        Self.podspecText.replacingOccurrences(of: old, with: new)
    }

    @Test("The line rules read attributes, continued lists, hashes and subspec blocks")
    func parse() {
        let podspec = Podspec(text: Self.podspecText)
        #expect(podspec.attributes["name"] == ["Joryio"])
        #expect(podspec.attributes["ios.deployment_target"] == ["14.0"])
        #expect(podspec.attributes["source"] == ["https://example.invalid/x.git"])
        #expect(podspec.subspecs.map(\.name) == ["Core"])
        let core = podspec.subspec("Core")?.attributes ?? [:]
        #expect(core["source_files"] == ["Modules/{Core,Kit}/**/*.swift", "Modules/Joryio/**/*.swift"])
        #expect(core["resource_bundles"] == ["JoryioPrivacy", "Modules/Kit/PrivacyInfo.xcprivacy"])
        #expect(podspec.attributes["source_files"] == nil, "a subspec's attributes stay in the subspec")
    }

    @Test("A podspec that mirrors the package passes")
    func matching() throws {
        #expect(try self.problems() == [])
    }

    @Test("The package dump: products, Apple-platform dependencies only, resources, language mode")
    func packageDump() throws {
        let dump = try PackageDump(json: Data(Self.packageJSON.utf8), origin: "p")
        #expect(dump.products.map(\.name) == ["Joryio", "JoryioTesting"])
        #expect(dump.closure(of: ["Joryio"]).map(\.name) == ["CLib", "Joryio", "JoryioCore", "JoryioKit"])
        #expect(dump.targets["JoryioKit"]?.resources == ["Modules/Kit/PrivacyInfo.xcprivacy"])
        #expect(dump.platforms == ["ios": "14.0", "macos": "11.0"])
        #expect(dump.languageModes == ["JoryioCore": "6"])
        #expect(throws: ToolError.self) { try PackageDump(json: Data("[]".utf8), origin: "p") }
    }

    @Test(
        "Each mismatch is reported",
        arguments: [
            ("'Modules/{Core,Kit}/**/*.swift',", "'Modules/Core/**/*.swift',", "needs Modules/Kit"),
            (
                "'Modules/Joryio/**/*.swift'", "'Modules/Joryio/**/*.swift', 'Modules/TestSupport/**/*.swift'",
                "no mirrored product needs"
            ),
            (
                "'Modules/Joryio/**/*.swift'", "'Modules/Joryio/**/*.swift', 'Tests/JoryioCoreTests/**/*.swift'",
                "not a library target folder"
            ),
            ("'Modules/Joryio/**/*.swift'", "'Modules/Joryio/*.swift'", "must be FOLDER/**/*.swift"),
            (
                "['Modules/Kit/PrivacyInfo.xcprivacy']", "['Modules/Kit/Other.plist']",
                "PrivacyInfo.xcprivacy: add it to resource_bundles"
            ),
            ("ss.preserve_paths = 'Modules/System/CLib'", "", "needs CLib"),
            ("s.ios.deployment_target = '14.0'", "s.ios.deployment_target = '13.0'", "ios.deployment_target is 13.0"),
            ("s.ios.deployment_target = '14.0'", "", "ios.deployment_target is missing"),
            ("s.osx.deployment_target = '11.0'", "s.osx.deployment_target = '12.0'", "osx.deployment_target is 12.0"),
            ("s.swift_version = '6.0'", "s.swift_version = '5.9'", "language mode 6"),
            ("s.default_subspecs = 'Core'", "s.default_subspecs = 'UI'", "default_subspecs must be 'Core'"),
            ("s.version = '1.2.3'", "s.version = '1.2.4'", "version must be the SDK's version '1.2.3'"),
            ("s.name = 'Joryio'", "s.name = 'JoryioSDK'", "name must be 'Joryio'"),
            ("s.subspec 'Core'", "s.subspec 'Main'", "has no subspec 'Core'"),
        ]
    )
    func mismatch(old: String, new: String, expected: String) throws {
        let found = try self.problems(self.replacing(old, new))
        #expect(found.contains { $0.contains(expected) }, "\(found)")
    }

    @Test("A folder in two subspecs, and subspecs without a product yet, are reported")
    func duplicatesAndEarlySubspecs() throws {
        let extra = """
              s.subspec 'UI' do |ss|
                ss.source_files = 'Modules/Kit/**/*.swift'
              end
            end
            """
        let text = String(Self.podspecText.dropLast("end".count)) + extra
        let found = try self.problems(text)
        #expect(found.contains { $0.contains("Modules/Kit is in subspecs 'Core' and 'UI'") }, "\(found)")
        #expect(found.contains { $0.contains("subspec 'UI' exists but the package has no JoryioUI product") })
        #expect(found.contains { $0.contains("subspec 'UI' must depend on 'Joryio/Core'") })
    }

    @Test("Placeholder UI and NotificationServiceExtension subspecs (no sources yet) pass before their products")
    func placeholderSubspecs() throws {
        let extra = """
              s.subspec 'UI' do |ss|
                ss.dependency 'Joryio/Core'
              end
              s.subspec 'NotificationServiceExtension' do |ss|
              end
            end
            """
        let text = String(Self.podspecText.dropLast("end".count)) + extra
        #expect(try self.problems(text).isEmpty)
    }

    @Test("A new product or Modules folder without a subspec fails the check (issues 15 and 17)")
    func newProductOrFolder() throws {
        let withUI = Self.packageJSON.replacingOccurrences(
            of: "\"products\": [",
            with:
                "\"products\": [{\"name\": \"JoryioUI\", \"targets\": [\"JoryioUI\"], \"type\": {\"library\": [\"automatic\"]}},"
        ).replacingOccurrences(
            of: "\"targets\": [\n",
            with:
                "\"targets\": [\n{\"name\": \"JoryioUI\", \"type\": \"regular\", \"path\": \"Modules/UI\", \"dependencies\": [{\"byName\": [\"Joryio\", null]}]},\n"
        )
        let found = try self.problems(package: withUI, folders: Self.folders + ["Modules/UI"])
        #expect(found.contains { $0.contains("product JoryioUI has no subspec 'UI'") }, "\(found)")
        #expect(found.contains { $0.contains("Modules/UI is in no subspec") }, "\(found)")

        let stray = try self.problems(folders: Self.folders + ["Modules/NotificationServiceExtension"])
        #expect(
            stray == [
                "Modules/NotificationServiceExtension is in no subspec and in no SwiftPM-only product: give it a product and a subspec"
            ]
        )
    }

    @Test("Brace expansion and the recursive-folder shape")
    func patterns() {
        #expect(PodspecCheck.expandBraces("M/{A,B}/**/*.swift") == ["M/A/**/*.swift", "M/B/**/*.swift"])
        #expect(PodspecCheck.expandBraces("M/A/**/*.swift") == ["M/A/**/*.swift"])
        #expect(PodspecCheck.recursiveFolder("Modules/Kit/**/*.swift") == "Modules/Kit")
        #expect(PodspecCheck.recursiveFolder("Modules/**/*.swift") == "Modules")
        #expect(PodspecCheck.recursiveFolder("Modules/Kit/*.swift") == nil)
        #expect(PodspecCheck.recursiveFolder("Modules/*/**/*.swift") == nil)
        #expect(PodspecCheck.sdkVersion(inSource: "  package static let sdkVersion = \"0.1.0\"\n") == "0.1.0")
        #expect(PodspecCheck.sdkVersion(inSource: "let other = 1") == nil)
    }

    @Test("PKG-4: only JoryioUI's folder imports WebKit, so the Joryio product links no web view")
    func webKitOnlyInUI() throws {
        let modules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Modules")
        let files = (FileManager.default.enumerator(at: modules, includingPropertiesForKeys: nil)?.allObjects ?? [])
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 100, "the sources were found")
        let importers = try files.filter { file in
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n").contains { line in
                line.split(separator: " ").contains("import") && line.hasSuffix(" WebKit")
            }
        }
        .map { String($0.path.dropFirst(modules.path.count + 1)) }
        #expect(!importers.isEmpty && importers.allSatisfy { $0.hasPrefix("UI/") }, "\(importers)")
    }
}
