import Foundation
import JoryioCore
import JoryioInApp
import JoryioKit
import Testing

/// The sync answer's decoder (protocol.md, "In-app messages"; decisions.md, "In-app wire format
/// (issue 16)"): real-looking answers, then hostile ones, which leave out a campaign with a
/// reason and never trap.
@Suite struct InAppWireTests {
    private let receivedAt = Date(timeIntervalSince1970: 1_800_000_000)

    private func json(_ text: String) -> JSONValue {
        JSONValue.parse(Data(text.utf8)) ?? .null
    }

    private func answer(_ text: String) -> InAppSyncAnswer? {
        try? InAppWire.decodeSyncAnswer(self.json(text), receivedAt: self.receivedAt).get()
    }

    /// One campaign with `fields` merged over a valid native modal.
    private func campaign(_ fields: String = "") -> Result<InAppCampaign, InAppWireProblem> {
        let base = #""id":"c1","type":"modal","content":{"native":{"headline":"Hi"}}"#
        return InAppWire.decodeCampaign(self.json("{\(base)\(fields.isEmpty ? "" : ",")\(fields)}"))
    }

    private func problem(_ fields: String) -> String? {
        if case .failure(let problem) = self.campaign(fields) { return problem.reason }
        return nil
    }

    @Test("INAPP-1, INAPP-18, GAP-39, GAP-45: a real-looking answer, every field read")
    func realAnswer() throws {
        let text = #"""
            {"success":true,"serverTime":"2027-01-15T08:00:00.000Z",
             "contactRules":{"maxImpressions":3,"window":86400,"minDelayBetweenMessages":60},
             "campaigns":[
              {"id":"spring-sale","type":"slideUp","priority":5,"displayDelay":2.5,
               "deliveryToken":"v1.eyJjIjoiYyJ9.c2ln","deliveryTokenExpiresAt":"2027-01-15T08:10:00.000Z",
               "expiresAt":"2027-02-01T00:00:00Z","futureField":{"x":[1,2]},
               "content":{"native":{"headline":"Spring sale","text":"20% off","imageUrl":"https://cdn.example.com/a.png",
                 "buttons":[{"id":"shop","label":"Shop now","url":"myshop://sale?id=4"},{"id":"close","label":"Later","url":null}]}},
               "triggers":[{"type":"event","name":"Product Viewed"},{"type":"pushTap","trackingId":"trk_1"},
                 {"type":"pushTap"},{"type":"attribute","key":"visits","comparison":"gte","value":3},{"type":"onSync"}],
               "caps":{"maxImpressions":2,"window":604800,"minInterval":3600}},
              {"id":"html-1","type":"fullScreen","content":{"html":"<h1>Hello</h1>"}}]}
            """#
        let answer = try #require(self.answer(text))
        #expect(answer.problems.isEmpty)
        #expect(
            answer.contactRules == InAppContactRules(maxImpressions: 3, window: 86_400, minDelayBetweenMessages: 60)
        )
        #expect(answer.campaigns.map(\.id) == ["spring-sale", "html-1"])
        let sale = answer.campaigns[0]
        #expect(sale.message.type == .slideUp)
        #expect(sale.priority == 5)
        #expect(sale.message.displayDelay == 2.5)
        #expect(sale.message.deliveryToken == "v1.eyJjIjoiYyJ9.c2ln")
        // serverTime == receivedAt: no shift.
        #expect(sale.message.deliveryTokenExpiresAt == self.receivedAt.addingTimeInterval(600))
        #expect(sale.expiresAt == Date(timeIntervalSince1970: 1_801_440_000))
        #expect(
            sale.message.content
                == .native(
                    InAppMessage.NativeContent(
                        headline: "Spring sale",
                        text: "20% off",
                        imageURL: URL(string: "https://cdn.example.com/a.png"),
                        buttons: [
                            InAppMessage.Button(id: "shop", label: "Shop now", url: URL(string: "myshop://sale?id=4")),
                            InAppMessage.Button(id: "close", label: "Later"),
                        ]
                    )
                )
        )
        #expect(
            sale.triggers == [
                .event(name: "Product Viewed"), .pushTap(trackingId: "trk_1"), .pushTap(trackingId: nil),
                .attribute(key: "visits", comparison: .greaterThanOrEqual, value: 3), .onSync,
            ]
        )
        #expect(sale.caps == InAppCaps(maxImpressions: 2, window: 604_800, minInterval: 3_600))
        let html = answer.campaigns[1]
        #expect(html.message.content == .html("<h1>Hello</h1>"))
        #expect(html.triggers.isEmpty && html.caps == InAppCaps() && html.priority == 0 && html.expiresAt == nil)
        #expect(html.message.deliveryToken == nil && html.message.displayDelay == 0)
    }

    @Test("INAPP-29: native fields arrive resolved and stay plain text: no template or markup is read on the device")
    func nativeFieldsArePlainText() throws {
        let text = #"""
            {"id":"c1","type":"modal","content":{"native":{"headline":"Hi {{ first_name }}",
             "text":"<b>20%</b> off &amp; {% if vip %}more{% endif %}",
             "buttons":[{"id":"b","label":"<i>Shop</i> {{ cta }}"}]}}}
            """#
        let campaign = try InAppWire.decodeCampaign(self.json(text)).get()
        #expect(
            campaign.message.content
                == .native(
                    InAppMessage.NativeContent(
                        headline: "Hi {{ first_name }}",
                        text: "<b>20%</b> off &amp; {% if vip %}more{% endif %}",
                        buttons: [InAppMessage.Button(id: "b", label: "<i>Shop</i> {{ cta }}")]
                    )
                )
        )
    }

    @Test("INAPP-7: times move onto the device clock by serverTime; a past expiresAt leaves the campaign out")
    func clockOffset() throws {
        // The server's clock is 100 s ahead of the device's.
        let text = #"""
            {"success":true,"serverTime":"2027-01-15T08:01:40Z","campaigns":[
             {"id":"a","type":"modal","content":{"html":"x"},"deliveryTokenExpiresAt":"2027-01-15T08:11:40Z"},
             {"id":"old","type":"modal","content":{"html":"x"},"expiresAt":"2027-01-15T08:01:39Z"}]}
            """#
        let answer = try #require(self.answer(text))
        #expect(answer.campaigns.map(\.id) == ["a"])
        #expect(answer.campaigns[0].message.deliveryTokenExpiresAt == self.receivedAt.addingTimeInterval(600))
        #expect(answer.problems == [InAppWireProblem(campaignId: "old", "expired")])
        // No (or a bad) serverTime: taken as is.
        let plain = try #require(
            self.answer(
                #"{"campaigns":[{"id":"a","type":"modal","content":{"html":"x"},"deliveryTokenExpiresAt":"2027-01-15T08:10:00Z"}],"serverTime":5}"#
            )
        )
        #expect(plain.campaigns[0].message.deliveryTokenExpiresAt == self.receivedAt.addingTimeInterval(600))
    }

    @Test("contact rules: absent or null are none; malformed ones are nil (the previous rules stay) with a problem")
    func contactRules() {
        #expect(self.answer(#"{"campaigns":[]}"#)?.contactRules == InAppContactRules.none)
        #expect(self.answer(#"{"campaigns":[],"contactRules":null}"#)?.contactRules == InAppContactRules.none)
        for rules in [#""x""#, #"{"maxImpressions":0}"#, #"{"window":-1}"#, #"{"minDelayBetweenMessages":"60"}"#] {
            let answer = self.answer(#"{"campaigns":[],"contactRules":\#(rules)}"#)
            #expect(answer?.contactRules == nil, "\(rules)")
            #expect(answer?.problems.count == 1, "\(rules)")
        }
    }

    @Test("ATTR-17: the profile snapshot: finite numbers of the keys the campaigns watch; everything else left out")
    func attributeSnapshot() {
        #expect(self.answer(#"{"campaigns":[]}"#)?.attributes == nil, "an older server: keep what is known")
        #expect(self.answer(#"{"campaigns":[],"attributes":null}"#)?.attributes == nil)
        let watching = ["spend", "visits", "plan", "vip", "x"].map {
            #"{"id":"w-\#($0)","type":"modal","content":{"native":{"headline":"H"}},"#
                + #""triggers":[{"type":"attribute","key":"\#($0)","comparison":"gte","value":1}]}"#
        }.joined(separator: ",")
        let many = (0..<1_500).map { #","k\#($0)":\#($0)"# }.joined()
        let answer = self.answer(
            #"{"campaigns":[\#(watching)],"attributes":{"spend":120.5,"visits":7,"plan":"pro","vip":true,"x":null,"#
                + #""unwatched":3\#(many)}}"#
        )
        #expect(answer?.attributes == ["spend": 120.5, "visits": 7])
        #expect(answer?.problems.isEmpty == true)
        for hostile in [#""x""#, "[1]", "3"] {
            let bad = self.answer(#"{"campaigns":[],"attributes":\#(hostile)}"#)
            #expect(bad?.attributes == nil, "\(hostile)")
            #expect(
                bad?.problems.map(\.reason) == ["attributes is not an object; the attribute values the SDK knows stay"]
            )
        }
    }

    @Test("an answer without a campaigns array is unusable")
    func unusable() {
        for text in [#"{"success":true}"#, #"{"campaigns":{}}"#, #"[]"#, #""campaigns""#] {
            #expect(throws: InAppWireProblem.self) {
                try InAppWire.decodeSyncAnswer(self.json(text), receivedAt: self.receivedAt).get()
            }
        }
    }

    @Test(
        "hostile campaigns are left out with a reason",
        arguments: [
            #""type":"hologram""#, #""type":null"#, #""content":"x""#, #""content":{}"#,
            #""content":{"native":{},"html":"x"}"#, #""content":{"native":{}}"#, #""content":{"html":""}"#,
            #""content":{"native":{"headline":7}}"#, #""content":{"native":{"imageUrl":"ftp://x/a.png"}}"#,
            #""content":{"native":{"imageUrl":"javascript:alert(1)"}}"#,
            #""content":{"native":{"imageUrl":"https://"}}"#,
            #""content":{"native":{"buttons":[{"id":"b","label":"L","url":"javascript:alert(1)"}]}}"#,
            #""content":{"native":{"buttons":[{"id":"b","label":"L","url":"http://x.com"}]}}"#,
            #""content":{"native":{"buttons":[{"id":"b","label":"L","url":"data:text/html,x"}]}}"#,
            #""content":{"native":{"buttons":[{"id":"b","label":"L","url":"https:///nohost"}]}}"#,
            #""content":{"native":{"buttons":[{"id":"b","label":"L","url":"has space:x"}]}}"#,
            #""content":{"native":{"buttons":[{"id":"b","label":"L","url":5}]}}"#,
            #""content":{"native":{"buttons":[{"id":"","label":"L"}]}}"#,
            #""content":{"native":{"buttons":[{"id":"b"}]}}"#,
            #""content":{"native":{"buttons":[{"id":"b","label":"L"},{"id":"b","label":"M"}]}}"#,
            #""content":{"native":{"buttons":{}}}"#,
            #""deliveryToken":"""#, #""deliveryToken":7"#, #""deliveryToken":"a b""#,
            #""deliveryTokenExpiresAt":"tomorrow""#, #""deliveryTokenExpiresAt":1800000000"#,
            #""expiresAt":"2027-02-30T00:00:00Z""#, #""expiresAt":"2027-01-15T08:00:00+01:00""#,
            #""displayDelay":-1"#, #""displayDelay":86401"#, #""displayDelay":"2""#, #""displayDelay":1e400"#,
            #""triggers":{}"#, #""triggers":[{"type":"event"}]"#, #""triggers":[{"type":"event","name":""}]"#,
            #""triggers":[{"name":"x"}]"#, #""triggers":[{"type":"pushTap","trackingId":""}]"#,
            #""triggers":[{"type":"attribute","key":"k","comparison":"ne","value":1}]"#,
            #""triggers":[{"type":"attribute","key":"k","comparison":"gt","value":"1"}]"#,
            #""triggers":[{"type":"attribute","comparison":"gt","value":1}]"#,
            #""triggers":[{"type":"geofence"}]"#,
            #""caps":[]"#, #""caps":{"maxImpressions":0}"#, #""caps":{"maxImpressions":1.5}"#,
            #""caps":{"maxImpressions":1000001}"#, #""caps":{"window":0}"#, #""caps":{"minInterval":-5}"#,
            #""caps":{"window":1e12}"#, #""priority":1.5"#, #""priority":"high""#, #""priority":2000000"#,
            #""priority":-9223372036854775808"#, #""caps":{"maxImpressions":-9223372036854775808}"#,
        ]
    )
    func hostileCampaign(fields: String) {
        #expect(self.problem(fields) != nil, "\(fields)")
    }

    @Test("valid edge values are kept: nulls, unknown trigger types next to known ones, zero delay, negative priority")
    func edges() throws {
        let campaign = try self.campaign(
            #""displayDelay":0,"priority":-3,"deliveryToken":null,"expiresAt":null,"caps":null,"triggers":[{"type":"geofence"},{"type":"event","name":"A"},{"type":"event","name":"A"}],"content":{"html":null,"native":{"text":"","buttons":null}}"#
        ).get()
        #expect(campaign.priority == -3)
        #expect(campaign.triggers == [.event(name: "A")])
        #expect(campaign.message.content == .native(InAppMessage.NativeContent(text: "")))
        #expect(try self.campaign(#""triggers":[]"#).get().triggers.isEmpty)
        #expect(
            try self.campaign(#""content":{"native":{"imageUrl":"http://cdn.example.com/a.png"}}"#).get().id == "c1"
        )
    }

    @Test("hostile sizes: ids, texts, HTML, buttons and triggers beyond their bounds")
    func hostileSizes() {
        let long = { (count: Int) in String(repeating: "a", count: count) }
        #expect(self.problem(#""content":{"html":"\#(long(InAppWire.maxHTMLBytes))"}"#) == nil)
        #expect(self.problem(#""content":{"html":"\#(long(InAppWire.maxHTMLBytes + 1))"}"#) != nil)
        #expect(self.problem(#""content":{"native":{"headline":"\#(long(InAppWire.maxHeadlineLength + 1))"}}"#) != nil)
        #expect(self.problem(#""content":{"native":{"text":"\#(long(InAppWire.maxTextLength + 1))"}}"#) != nil)
        #expect(self.problem(#""deliveryToken":"\#(long(InAppWire.maxTokenBytes + 1))""#) != nil)
        let buttons = (0...InAppWire.maxButtons).map { #"{"id":"b\#($0)","label":"L"}"# }.joined(separator: ",")
        #expect(self.problem(#""content":{"native":{"buttons":[\#(buttons)]}}"#) != nil)
        let triggers = (0...InAppWire.maxTriggers).map { #"{"type":"event","name":"e\#($0)"}"# }.joined(separator: ",")
        #expect(self.problem(#""triggers":[\#(triggers)]"#) != nil)
        let url = "https://x.com/" + long(InAppWire.maxURLBytes)
        #expect(self.problem(#""content":{"native":{"imageUrl":"\#(url)"}}"#) != nil)
        for id in [#""""#, #"7"#, #""\#(long(129))""#, #""a\u0000b""#, "null"] {
            let value = self.json(#"{"id":\#(id),"type":"modal","content":{"html":"x"}}"#)
            guard case .failure(let problem) = InAppWire.decodeCampaign(value) else {
                Issue.record("id \(id) accepted")
                continue
            }
            #expect(problem.campaignId == nil)
        }
    }

    @Test("an answer: non-objects, duplicate ids and campaigns beyond the limit are left out, each with a reason")
    func answerProblems() throws {
        let one = { (id: String) in #"{"id":"\#(id)","type":"banner","content":{"html":"x"}}"# }
        let list = ([one("a"), "7", "null", one("a"), #"{"id":"b","type":"x"}"#, one("c")]).joined(separator: ",")
        let answer = try #require(self.answer(#"{"campaigns":[\#(list)]}"#))
        #expect(answer.campaigns.map(\.id) == ["a", "c"])
        #expect(answer.problems.count == 4)
        #expect(answer.problems.contains(InAppWireProblem(campaignId: "a", "a second campaign with this id")))
        #expect(answer.problems.contains { $0.campaignId == "b" && $0.description.hasPrefix("campaign b: ") })
        let many = (0..<(InAppWire.maxCampaigns + 5)).map { one("c\($0)") }.joined(separator: ",")
        let big = try #require(self.answer(#"{"campaigns":[\#(many)]}"#))
        #expect(big.campaigns.count == InAppWire.maxCampaigns)
        #expect(big.problems.count == 1)
    }

    @Test("timestamps: the protocol form with 0 … 9 fraction digits and Z only")
    func timestamps() {
        #expect(InAppWire.date(timestamp: "1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        let seconds = { (text: String) in InAppWire.date(timestamp: text)?.timeIntervalSince1970 ?? 0 }
        #expect(abs(seconds("2026-11-30T19:21:59.123Z") - 1_796_066_519.123) < 1e-6)
        #expect(seconds("2024-02-29T23:59:59.5Z") == 1_709_251_199.5)
        #expect(InAppWire.date(timestamp: "1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
        for bad in [
            "2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-30T24:00:00Z", "2026-11-30T19:21:59.Z",
            "2026-11-30 19:21:59Z", "2026-11-30T19:21:59", "2026-11-30T19:21:59.1234567890Z", "x",
            "2026-11-30T19:21:5aZ", "+026-11-30T19:21:59Z",
        ] {
            #expect(InAppWire.date(timestamp: bad) == nil, "\(bad)")
        }
    }

    @Test("links: refused schemes and malformed URLs; anything else is followed")
    func links() {
        for good in ["https://example.com/a", "myshop://sale?id=4", "tel:+123", "mailto:a@b.c"] {
            #expect((try? InAppWire.link(good).get()) != nil, "\(good)")
        }
        for bad in ["", "nocolon", ":x", "1a:x", "https:x", "JavaScript:alert(1)", "FILE:///etc", "a b:c", "é:x"] {
            #expect((try? InAppWire.link(bad).get()) == nil, "\(bad)")
        }
        #expect(InAppWire.imageURL("https://cdn/a.png") != nil)
        #expect(InAppWire.imageURL("data:image/png;base64,AAAA") == nil)
    }
}
