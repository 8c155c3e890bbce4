import JoryioPlatform
import Testing

@Suite struct OSReleaseTests {
    @Test func parsesDebian() {
        let text = """
            PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
            NAME="Debian GNU/Linux"
            VERSION_ID="12"
            VERSION="12 (bookworm)"
            ID=debian
            HOME_URL="https://www.debian.org/"
            """
        let fields = OSRelease.parse(text)
        #expect(fields["NAME"] == "Debian GNU/Linux")
        #expect(fields["VERSION_ID"] == "12")
        #expect(fields["ID"] == "debian")
        #expect(fields["PRETTY_NAME"] == "Debian GNU/Linux 12 (bookworm)")
        #expect(OSRelease.operatingSystem(in: fields)?.name == "Debian GNU/Linux")
        #expect(OSRelease.operatingSystem(in: fields)?.version == "12")
    }

    @Test func quotingCommentsAndEscapes() {
        let text = """
            # a comment line with NAME="Nope"
               # an indented comment

            NAME='Single Quoted'
            VERSION_ID="22.04" # trailing comment
            ESCAPED="say \\"hi\\" \\\\ \\$HOME \\`x\\` \\n"
            EMPTY=""
            SPACES=  padded value  \r
            NAME2="unterminated
            BROKEN="closed" trailing garbage
            =novalue
            1BAD=digit first
            BAD-KEY=dash
            lower_ok=yes
            NAME="Last Wins"
            """
        let fields = OSRelease.parse(text)
        #expect(fields["NAME"] == "Last Wins")
        #expect(fields["VERSION_ID"] == "22.04")
        #expect(fields["ESCAPED"] == #"say "hi" \ $HOME `x` \n"#)
        #expect(fields["EMPTY"] == nil)
        #expect(fields["SPACES"] == "padded value")
        #expect(fields["NAME2"] == nil)
        #expect(fields["BROKEN"] == nil)
        #expect(fields["1BAD"] == nil)
        #expect(fields["BAD-KEY"] == nil)
        #expect(fields["lower_ok"] == "yes")
        #expect(fields[""] == nil)
    }

    @Test func garbageYieldsNothingUsable() {
        let inputs = [
            "", "\n\n\n", "\u{0}\u{1}\u{2}", "=====", "NAME", "\u{FFFD}\u{FFFD}=x",
            String(repeating: "A", count: 100_000), "NAME=\"" + String(repeating: "x", count: 10_000) + "\"",
            "VERSION_ID=\u{7}\u{1B}[31m", "NAME=\"a\u{0}b\"\nVERSION_ID=1\r\n",
        ]
        for input in inputs {
            let fields = OSRelease.parse(input)
            #expect(fields.values.allSatisfy { !$0.isEmpty && $0.count <= OSRelease.maximumValueLength })
            #expect(
                fields.values.allSatisfy { $0.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control } }
            )
        }
        #expect(OSRelease.parse("NAME=\"a\u{0}b\"\nVERSION_ID=1\r\n") == ["NAME": "ab", "VERSION_ID": "1"])
        #expect(OSRelease.parse("VERSION_ID=\u{7}\u{1B}[31m") == ["VERSION_ID": "[31m"])
    }

    @Test func versionFallbacks() {
        // Arch: rolling, no VERSION_ID.
        let arch = OSRelease.parse("NAME=\"Arch Linux\"\nBUILD_ID=rolling\nID=arch\n")
        #expect(OSRelease.operatingSystem(in: arch)?.name == "Arch Linux")
        #expect(OSRelease.operatingSystem(in: arch)?.version == "rolling")
        // NAME defaults to "Linux" (os-release(5)).
        #expect(OSRelease.operatingSystem(in: ["VERSION_ID": "3"])?.name == "Linux")
        // No version at all: the caller falls back to uname.
        #expect(OSRelease.operatingSystem(in: ["NAME": "Gentoo"]) == nil)
        #expect(OSRelease.operatingSystem(in: [:]) == nil)
    }
}
