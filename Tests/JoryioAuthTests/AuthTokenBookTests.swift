import JoryioAuth
import Testing

@Suite struct AuthTokenBookTests {
    let alice = TestTokens.token(sub: "alice")
    let alice2 = TestTokens.token(sub: "alice", variant: 2)
    let bob = TestTokens.token(sub: "bob")
    let carol = TestTokens.token(sub: "carol")
    let opaque = "opaque-token-without-claims"

    @Test func emptyBookIsOffAndHasNoTokens() {
        let book = AuthTokenBook()
        #expect(!book.isEnabled)
        #expect(book.token(for: "alice") == nil)
        #expect(book.token(for: nil) == nil)
        #expect(book.currentToken == nil)
    }

    @Test func aTokenTurnsAuthenticationOnAndIsStoredForItsSub() {
        var book = AuthTokenBook()
        #expect(book.setToken(self.alice, currentUser: "alice") == .stored(userId: "alice"))
        #expect(book.isEnabled)  // AUTH-3: with or without enableSdkAuthentication
        #expect(book.token(for: "alice") == self.alice)
        #expect(book.currentToken == self.alice)
        #expect(book.nextUserIds.isEmpty)
    }

    @Test("AUTH-1: anonymous requests never carry a token; a user's token goes only with that user")
    func anonymousRequestsNeverCarryAToken() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        #expect(book.token(for: nil) == nil)
        #expect(book.token(for: "") == nil)
        #expect(book.token(for: "bob") == nil)
    }

    @Test func aNewTokenReplacesTheUsersOldOne() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        book.setToken(self.alice2, currentUser: "alice")
        #expect(book.token(for: "alice") == self.alice2)
        #expect(book.tokens.count == 1)
    }

    @Test func emptyTokenIsIgnored() {
        var book = AuthTokenBook()
        #expect(book.setToken("", currentUser: "alice") == .ignoredEmpty)
        #expect(book == AuthTokenBook())
        #expect(AuthTokenBook.SetOutcome.ignoredEmpty.userId == nil)
    }

    // MARK: - Next user (AUTH-6)

    @Test func nextUsersTokenBeforeIdentifyLeavesThePreviousUsersToken() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        #expect(book.setToken(self.bob, currentUser: "alice") == .stored(userId: "bob"))
        #expect(book.token(for: "alice") == self.alice)  // Alice's leftovers keep hers
        #expect(book.token(for: "bob") == self.bob)
        #expect(book.currentToken == self.alice)
        #expect(book.nextUserIds == ["bob"])
        book.identified("bob")  // IDENT-4: switch without reset
        #expect(book.currentToken == self.bob)
        #expect(book.token(for: "alice") == self.alice)
        #expect(book.nextUserIds.isEmpty)
    }

    @Test func nextUsersTokenAfterIdentifyIsTheCurrentToken() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        book.identified("bob")
        #expect(book.token(for: "bob") == nil)
        #expect(book.setToken(self.bob, currentUser: "bob") == .stored(userId: "bob"))
        #expect(book.currentToken == self.bob)
        #expect(book.token(for: "alice") == self.alice)
        #expect(book.nextUserIds.isEmpty)
    }

    @Test func tokenSetBeforeResetIsKeptForTheNextUsersIdentify() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        book.setToken(self.bob, currentUser: "alice")
        book.reset(currentUser: "alice")
        #expect(book.currentToken == nil)
        // Pruned with no queued item of Bob's: the next-user token is kept anyway.
        #expect(book.prune(keeping: ["alice"], currentUser: nil) == [])
        book.identified("bob")
        #expect(book.currentToken == self.bob)
    }

    @Test func tokenSetWhileNobodyIsLoggedInWaitsForThatUser() {
        var book = AuthTokenBook()
        #expect(book.setToken(self.bob, currentUser: nil) == .stored(userId: "bob"))
        #expect(book.token(for: nil) == nil)
        #expect(book.prune(keeping: [], currentUser: nil) == [])
        book.identified("bob")
        #expect(book.currentToken == self.bob)
    }

    @Test func identifyingSomeoneElseEndsTheNextUsersWait() {
        var book = AuthTokenBook()
        book.setToken(self.bob, currentUser: nil)
        book.identified("carol")
        #expect(book.token(for: "carol") == nil)
        #expect(book.token(for: "bob") == self.bob)  // until pruned
        #expect(book.prune(keeping: [], currentUser: "carol") == ["bob"])
        #expect(book.token(for: "bob") == nil)
    }

    @Test func nextUserTokenKeepsItsProtectionAcrossSeveralResets() {
        var book = AuthTokenBook()
        book.setToken(self.bob, currentUser: "alice")
        book.reset(currentUser: "alice")
        book.reset(currentUser: nil)
        #expect(book.prune(keeping: [], currentUser: nil) == [])
        #expect(book.token(for: "bob") == self.bob)
    }

    // MARK: - Unreadable tokens

    @Test func unreadableTokenIsBoundToTheCurrentUser() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        let outcome = book.setToken(self.opaque, currentUser: "alice")
        #expect(outcome == .boundToCurrentUser(userId: "alice"))
        #expect(outcome.userId == "alice")
        #expect(book.token(for: "alice") == self.opaque)
        #expect(book.unboundToken == nil)
        #expect(book.isEnabled)
    }

    @Test func unreadableTokenWithNobodyIdentifiedGoesToTheNextIdentifiedUser() {
        var book = AuthTokenBook()
        let outcome = book.setToken(self.opaque, currentUser: nil)
        #expect(outcome == .heldForNextUser)
        #expect(outcome.userId == nil)
        #expect(book.isEnabled)
        #expect(book.token(for: nil) == nil)
        #expect(book.prune(keeping: [], currentUser: nil) == [])
        #expect(book.unboundToken == self.opaque)
        book.identified("carol")
        #expect(book.token(for: "carol") == self.opaque)
        #expect(book.unboundToken == nil)
    }

    @Test func unreadableTokenReplacesAnOlderTokenOfTheNextUser() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        book.reset(currentUser: "alice")
        book.setToken(self.opaque, currentUser: nil)
        book.identified("alice")
        #expect(book.currentToken == self.opaque)  // the newest supplied token wins
    }

    @Test func readableTokenSupersedesAnEarlierUnboundOne() {
        var book = AuthTokenBook()
        book.setToken(self.opaque, currentUser: nil)
        book.setToken(self.bob, currentUser: nil)
        #expect(book.unboundToken == nil)
        book.identified("bob")
        #expect(book.currentToken == self.bob)
    }

    @Test func unboundTokenSurvivesReset() {
        var book = AuthTokenBook()
        book.setToken(self.opaque, currentUser: nil)
        book.reset(currentUser: nil)
        book.identified("dave")
        #expect(book.token(for: "dave") == self.opaque)
    }

    @Test func emptyUserIdsCountAsAnonymous() {
        var book = AuthTokenBook()
        #expect(book.setToken(self.opaque, currentUser: "") == .heldForNextUser)
        book.identified("")
        #expect(book.currentUserId == nil)
        #expect(book.unboundToken == self.opaque)
    }

    // MARK: - Reset (AUTH-5, IDENT-10)

    @Test func resetClearsTheTokenAsCurrentButKeepsItForLeftovers() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        book.reset(currentUser: "alice")
        #expect(book.currentToken == nil)
        #expect(book.currentUserId == nil)
        #expect(book.token(for: "alice") == self.alice)  // still stamped on Alice's queued items
        #expect(book.prune(keeping: ["alice"], currentUser: nil) == [])
        #expect(book.token(for: "alice") == self.alice)
        #expect(book.prune(keeping: [], currentUser: nil) == ["alice"])  // sent or dropped: gone
        #expect(book.token(for: "alice") == nil)
        #expect(book.isEnabled)
    }

    @Test func resetOfAUserWhoseTokenWasSetAsNextLosesItsProtection() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: nil)
        book.reset(currentUser: "alice")  // engine knew better: Alice was current
        #expect(book.prune(keeping: [], currentUser: nil) == ["alice"])
    }

    // MARK: - Prune

    @Test func pruneKeepsCurrentNextAndUsersWithItems() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        book.identified("bob")
        book.setToken(self.bob, currentUser: "bob")
        book.identified("carol")
        book.setToken(self.carol, currentUser: "carol")
        book.setToken(TestTokens.token(sub: "dave"), currentUser: "carol")
        // Alice has items, Bob has none, Carol is current (no items), Dave is next.
        #expect(book.prune(keeping: ["alice"], currentUser: "carol") == ["bob"])
        #expect(Set(book.tokens.keys) == ["alice", "carol", "dave"])
        #expect(book.prune(keeping: [], currentUser: "carol") == ["alice"])
        #expect(Set(book.tokens.keys) == ["carol", "dave"])
    }

    @Test func pruneIgnoresUsersWithItemsButNoToken() {
        var book = AuthTokenBook()
        #expect(book.prune(keeping: ["ghost"], currentUser: "ghost") == [])
        #expect(book.tokens.isEmpty)
    }

    // MARK: - Wipe (AUTH-6, WIPE-10)

    @Test func wipeKeepsOnlyTheWipedUsersToken() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        book.identified("bob")
        book.setToken(self.bob, currentUser: "bob")
        book.setToken(self.carol, currentUser: "bob")  // next user
        book.wiped(currentUser: "bob", keepLaunchToken: nil, usersWithItems: [])
        #expect(book.tokens == ["bob": self.bob])
        #expect(book.currentUserId == nil)
        #expect(book.nextUserIds.isEmpty)
        #expect(book.isEnabled)
        // The wiped user's token is a leftover token now: it goes once their withdrawals are out.
        #expect(book.prune(keeping: ["bob"], currentUser: nil) == [])
        #expect(book.prune(keeping: [], currentUser: nil) == ["bob"])
    }

    @Test func wipeKeepsTokensOfUsersWithWithdrawalsStillQueued() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        book.identified("bob")
        book.wiped(currentUser: "bob", keepLaunchToken: nil, usersWithItems: ["alice"])
        #expect(book.tokens == ["alice": self.alice])
    }

    @Test func wipeDeletesAnUnboundToken() {
        var book = AuthTokenBook()
        book.setToken(self.opaque, currentUser: nil)
        book.wiped(currentUser: nil, keepLaunchToken: nil, usersWithItems: [])
        #expect(book.unboundToken == nil)
        #expect(book.tokens.isEmpty)
    }

    @Test func wipeOfAUserIdentifiedWhileTrackingWasOffKeepsTheirToken() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")  // identified while opted out (IDENT-5)
        book.wiped(currentUser: "alice", keepLaunchToken: nil, usersWithItems: [])
        #expect(book.token(for: "alice") == self.alice)
    }

    @Test func preInitWipeKeepsTheTokenSuppliedForThisLaunch() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        book.setToken(self.carol, currentUser: "alice")  // an older next-user token
        book.wiped(currentUser: "alice", keepLaunchToken: self.bob, usersWithItems: [])
        #expect(book.tokens == ["alice": self.alice, "bob": self.bob])
        #expect(book.nextUserIds == ["bob"])
        #expect(book.prune(keeping: [], currentUser: nil) == ["alice"])
        book.identified("bob")
        #expect(book.currentToken == self.bob)
    }

    @Test func preInitWipeKeepsAnUnreadableLaunchTokenForTheNextUser() {
        var book = AuthTokenBook()
        book.wiped(currentUser: nil, keepLaunchToken: self.opaque, usersWithItems: [])
        #expect(book.unboundToken == self.opaque)
        #expect(book.isEnabled)
    }

    // MARK: - Whole stories

    @Test func logoutThenLoginOfTheNextUserStampsEachRequestWithItsOwnUsersToken() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: nil)
        book.identified("alice")
        book.setToken(self.bob, currentUser: "alice")  // Bob's token arrives before the logout
        book.reset(currentUser: "alice")
        book.identified("bob")
        // At send time, a leftover of Alice and a new request of Bob:
        #expect(book.token(for: "alice") == self.alice)
        #expect(book.token(for: "bob") == self.bob)
        #expect(book.prune(keeping: [], currentUser: "bob") == ["alice"])
        #expect(book.tokens == ["bob": self.bob])
    }

    @Test func reloginOfTheSameUserAfterResetUsesTheirTokenWhileTheyHaveLeftovers() {
        var book = AuthTokenBook()
        book.setToken(self.alice, currentUser: "alice")
        book.reset(currentUser: "alice")
        book.identified("alice")
        #expect(book.currentToken == self.alice)  // same sub, so valid for the new requests too
        book.reset(currentUser: "alice")
        book.prune(keeping: [], currentUser: nil)
        book.identified("alice")
        #expect(book.currentToken == nil)  // reset cleared it; the app must supply a new one
    }
}
