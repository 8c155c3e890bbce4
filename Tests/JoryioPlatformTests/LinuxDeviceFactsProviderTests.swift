#if os(Linux)
import Foundation
import JoryioCore
import JoryioPlatform
import Testing

@Suite struct LinuxDeviceFactsProviderTests {
    /// A host made of fixture files, a fixed environment and a fixed kernel.
    static func host(
        files: [String: String],
        links: [String: String] = [:],
        environment: [String: String] = [:],
        kernel: LinuxHost.Kernel? = LinuxHost.Kernel(name: "Linux", release: "6.1.0-18-amd64", machine: "aarch64")
    ) -> LinuxHost {
        LinuxHost(
            environment: { environment },
            readFile: { files[$0] },
            readLink: { links[$0] },
            kernel: { kernel }
        )
    }

    @Test func realHostGivesPlausibleFacts() throws {
        let provider = LinuxDeviceFactsProvider(appVersion: "1.2.3", buildNumber: "45")
        let facts = provider.current()
        #expect(facts.platform == "linux")
        #expect(!facts.osName.isEmpty)
        #expect(!facts.osVersion.isEmpty)
        #expect(!facts.model.isEmpty)
        #expect(facts.model.allSatisfy { $0.isASCII && !$0.isWhitespace })
        #expect(facts.appVersion == "1.2.3")
        #expect(facts.buildNumber == "45")
        #expect(facts.bundleId == ProcessInfo.processInfo.processName)
        #expect(facts.screenWidth == nil && facts.screenHeight == nil)
        #expect(TimeZone(identifier: facts.timezone) != nil, "\(facts.timezone)")
        let bcp47 = try Regex("^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?$")
        #expect(facts.locale.wholeMatch(of: bcp47) != nil, "\(facts.locale)")
        #expect(!facts.languages.isEmpty)
        #expect(facts.languages.allSatisfy { $0.wholeMatch(of: bcp47) != nil })
        #expect(facts.language == String(facts.languages[0].prefix { $0 != "-" }))
        // When /etc/os-release exists, its NAME is what we report.
        if let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
            let system = OSRelease.operatingSystem(in: OSRelease.parse(text))
        {
            #expect(facts.osName == system.name)
            #expect(facts.osVersion == system.version)
        }
        let properties = facts.sessionStartProperties()
        #expect(Set(properties.keys).isSubset(of: Set(DeviceFacts.PropertyKey.allCases.map(\.rawValue))))
        #expect(properties["country"] == nil)
    }

    @Test func fixtureHost() {
        let host = Self.host(
            files: ["/etc/os-release": "NAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\n", "/etc/timezone": "Etc/UTC\n"],
            links: ["/etc/localtime": "../usr/share/zoneinfo/Europe/Paris"],
            environment: ["LANG": "fr_FR.UTF-8", "LANGUAGE": "fr_FR:en"]
        )
        let provider = LinuxDeviceFactsProvider(appVersion: nil, buildNumber: nil, bundleId: "worker", host: host)
        #expect(
            provider.current()
                == DeviceFacts(
                    platform: "linux",
                    model: "aarch64",
                    osName: "Ubuntu",
                    osVersion: "24.04",
                    bundleId: "worker",
                    locale: "fr-FR",
                    language: "fr",
                    languages: ["fr-FR", "en"],
                    timezone: "Europe/Paris"
                )
        )
    }

    @Test func fallsBackToUsrLibThenUname() {
        let usrLib = Self.host(files: ["/usr/lib/os-release": "NAME=Fedora\nVERSION_ID=40\n"])
        let fromUsrLib = LinuxDeviceFactsProvider(appVersion: nil, buildNumber: nil, bundleId: nil, host: usrLib)
        #expect(fromUsrLib.current().osName == "Fedora")
        #expect(fromUsrLib.current().osVersion == "40")

        for broken in [[:], ["/etc/os-release": "garbage\u{0}\u{FFFD}"], ["/etc/os-release": "NAME=Gentoo\n"]] {
            let host = Self.host(files: broken)
            let facts = LinuxDeviceFactsProvider(appVersion: nil, buildNumber: nil, bundleId: nil, host: host).current()
            #expect(facts.osName == "Linux")
            #expect(facts.osVersion == "6.1.0-18-amd64")
        }

        let noKernel = Self.host(files: [:], kernel: nil)
        let facts = LinuxDeviceFactsProvider(appVersion: nil, buildNumber: nil, bundleId: nil, host: noKernel).current()
        #expect(facts.osName == "Linux")
        #expect(facts.model == "")
        #expect(facts.sessionStartProperties()["$model"] == nil)
        #expect(facts.sessionStartProperties()["$os_version"] == nil)
    }

    @Test func timeZoneSources() {
        let link = ["/etc/localtime": "/usr/share/zoneinfo/Asia/Tokyo"]
        func zone(_ env: [String: String], _ links: [String: String], _ files: [String: String] = [:]) -> String {
            let host = Self.host(files: files, links: links, environment: env)
            return LinuxDeviceFactsProvider(appVersion: nil, buildNumber: nil, bundleId: nil, host: host).current()
                .timezone
        }
        #expect(zone(["TZ": ":America/New_York"], link) == "America/New_York")
        #expect(zone([:], link) == "Asia/Tokyo")
        #expect(zone([:], [:], ["/etc/timezone": "# comment\nEurope/Lisbon\n"]) == "Europe/Lisbon")
        #expect(
            zone([:], ["/etc/localtime": "/nonsense"], ["/etc/timezone": "Not/AZone"]) == TimeZone.current.identifier
        )
    }

    @Test func localeChangesAreSeenAtEachCall() {
        let environment = Locked(["LANG": "de_DE.UTF-8"])
        let host = LinuxHost(
            environment: { environment.value },
            readFile: { _ in nil },
            readLink: { _ in nil },
            kernel: { nil }
        )
        let provider = LinuxDeviceFactsProvider(appVersion: nil, buildNumber: nil, bundleId: nil, host: host)
        #expect(provider.current().locale == "de-DE")
        environment.withLock { $0 = ["LANG": "es_MX.UTF-8", "TZ": "America/Mexico_City"] }
        #expect(provider.current().locale == "es-MX")
        #expect(provider.current().timezone == "America/Mexico_City")
    }
}
#endif
