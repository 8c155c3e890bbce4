/// The open questions of the specification (`GAP-n`, SPEC §6) and the ones `docs/decisions.md`
/// names: the project rule is that every decision the spec leaves open is recorded there
/// with its GAP id.
///
/// A GAP is **defined** by a list item of the spec that opens with it in bold, with its title or
/// alone: `- **GAP-n Title.** …` or `- **GAP-n** Text …`. It is **named** by `docs/decisions.md`
/// when the ID appears anywhere in it, as a standalone token (the rules of ``RuleCitations``): a
/// heading, a bullet's lead-in or a sentence all count, since a decision may answer several GAPs.
package enum GapDecisions {
    /// One GAP the spec defines.
    package typealias Gap = SpecRules.Item

    /// The GAPs `spec` defines, in order; a GAP defined twice is listed at its first line.
    package static func defined(inSpec spec: String) -> [Gap] {
        SpecRules.defined(inSpec: spec, families: ["GAP"])
    }

    /// The GAP IDs `decisions` names anywhere.
    package static func named(inDecisions decisions: String) -> Set<String> {
        Set(RuleCitations.citations(in: decisions, path: "", families: ["GAP"]).map(\.id))
    }
}
