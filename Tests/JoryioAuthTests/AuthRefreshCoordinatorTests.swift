import JoryioAuth
import Testing

@Suite struct AuthRefreshCoordinatorTests {
    typealias Action = AuthRefreshCoordinator.Action

    let old = TestTokens.token(sub: "alice", variant: 1)
    let new = TestTokens.token(sub: "alice", variant: 2)

    private func rejected(
        _ userId: String?,
        _ reason: AuthRejection = .expired,
        current: String? = "alice",
        used: String? = nil,
        newest: String? = nil
    ) -> AuthRefreshCoordinator.Input {
        .rejected(userId: userId, reason: reason, currentUser: current, tokenUsed: used, newestToken: newest)
    }

    private func ask(_ reason: JoryioAuthError.Reason, _ userId: String = "alice") -> Action {
        .askHandler(JoryioAuthError(reason: reason, userId: userId))
    }

    // MARK: - Current user (AUTH-9, AUTH-14)

    @Test func currentUsersRejectionAsksTheHandlerAndKeepsTheItems() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        let actions = coordinator.handle(self.rejected("alice", used: self.old, newest: self.old))
        #expect(actions == [self.ask(.expired), .waitForToken(userId: "alice")])
        #expect(coordinator.waitingUsers == ["alice"])
    }

    @Test(arguments: [
        (AuthRejection.missing, JoryioAuthError.Reason.missing),
        (.subMismatch, .subMismatch),
        (.expired, .expired),
        (.invalid, .invalid),
        (.unknown("revoked"), .unknown),
    ])
    func everyReasonReachesTheHandler(rejection: AuthRejection, reason: JoryioAuthError.Reason) {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        let actions = coordinator.handle(self.rejected("alice", rejection, used: self.old, newest: self.old))
        #expect(actions == [self.ask(reason), .waitForToken(userId: "alice")])
    }

    @Test func newTokenRetriesTheKeptItems() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        _ = coordinator.handle(self.rejected("alice", used: self.old, newest: self.old))
        #expect(coordinator.handle(.tokenSet(for: "alice")) == [.retry(userId: "alice")])
        #expect(coordinator.handle(.accepted(userId: "alice")) == [])
        #expect(coordinator.waitingUsers.isEmpty)
        #expect(coordinator.handle(.tokenSet(for: "alice")) == [])  // nothing waits any more
    }

    @Test func tokenForSomeoneElseDoesNotRetry() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        _ = coordinator.handle(self.rejected("alice", used: self.old, newest: self.old))
        #expect(coordinator.handle(.tokenSet(for: "bob")) == [])
        #expect(coordinator.handle(.tokenSet(for: nil)) == [])
    }

    @Test func missingTokenAsksToo() {
        // Sent without a token (or withheld under enableSdkAuthentication, GAP-34).
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        let actions = coordinator.handle(self.rejected("alice", .missing, used: nil, newest: nil))
        #expect(actions == [self.ask(.missing), .waitForToken(userId: "alice")])
    }

    // MARK: - Single flight (GAP-36)

    @Test func manyRequestsFailingTogetherAskOnce() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        var all: [Action] = []
        for reason in [AuthRejection.expired, .expired, .invalid, .expired] {
            all += coordinator.handle(self.rejected("alice", reason, used: self.old, newest: self.old))
        }
        #expect(all.filter { if case .askHandler = $0 { true } else { false } }.count == 1)
        #expect(all.filter { $0 == .waitForToken(userId: "alice") }.count == 4)
    }

    @Test func rejectionWithAnOlderTokenRetriesAtOnceWithoutAsking() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        _ = coordinator.handle(self.rejected("alice", used: self.old, newest: self.old))
        _ = coordinator.handle(.tokenSet(for: "alice"))
        // Requests sent with the old token are still coming back:
        #expect(
            coordinator.handle(self.rejected("alice", used: self.old, newest: self.new)) == [.retry(userId: "alice")]
        )
        // Sent before any token existed, and one exists now:
        #expect(
            coordinator.handle(self.rejected("alice", .missing, used: nil, newest: self.new)) == [
                .retry(userId: "alice")
            ]
        )
    }

    @Test func secondRoundAsksAgainAfterTheNewTokenIsRejectedToo() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        _ = coordinator.handle(self.rejected("alice", used: self.old, newest: self.old))
        _ = coordinator.handle(.tokenSet(for: "alice"))
        let actions = coordinator.handle(self.rejected("alice", .invalid, used: self.new, newest: self.new))
        #expect(actions == [self.ask(.invalid), .waitForToken(userId: "alice")])
    }

    // MARK: - Bound (GAP-36)

    @Test func stopsAskingAfterThreeRequestsWithoutSuccessButRetriesOnEveryNewToken() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        var asks = 0
        for round in 0..<6 {
            let token = "token-\(round)"
            let actions = coordinator.handle(self.rejected("alice", used: token, newest: token))
            asks += actions.filter { if case .askHandler = $0 { true } else { false } }.count
            #expect(actions.last == .waitForToken(userId: "alice"))
            #expect(coordinator.handle(.tokenSet(for: "alice")) == [.retry(userId: "alice")])
        }
        #expect(asks == AuthRefreshCoordinator.defaultMaximumHandlerRequests)
        #expect(asks == 3)
    }

    @Test func anAcceptedRequestRestartsTheCount() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice", maximumHandlerRequests: 1)
        _ = coordinator.handle(self.rejected("alice", used: "t1", newest: "t1"))
        _ = coordinator.handle(.tokenSet(for: "alice"))
        #expect(
            coordinator.handle(self.rejected("alice", used: "t2", newest: "t2")) == [.waitForToken(userId: "alice")]
        )
        _ = coordinator.handle(.tokenSet(for: "alice"))
        _ = coordinator.handle(.accepted(userId: "alice"))
        #expect(
            coordinator.handle(self.rejected("alice", used: "t3", newest: "t3"))
                == [self.ask(.expired), .waitForToken(userId: "alice")]
        )
    }

    @Test func withoutAnyTokenTheHandlerIsNeverAskedTwice() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        var asks = 0
        for _ in 0..<50 {
            let actions = coordinator.handle(self.rejected("alice", used: self.old, newest: self.old))
            asks += actions.filter { if case .askHandler = $0 { true } else { false } }.count
        }
        #expect(asks == 1)
    }

    // MARK: - Leftovers (AUTH-8) and anonymous (GAP-35)

    @Test(arguments: [AuthRejection.missing, .subMismatch, .expired, .invalid, .unknown("x")])
    func departedUsersItemsAreDroppedWithoutAsking(reason: AuthRejection) {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "bob")
        let actions = coordinator.handle(
            self.rejected("alice", reason, current: "bob", used: self.old, newest: self.old)
        )
        #expect(actions == [.dropLeftovers(userId: "alice")])
        #expect(coordinator.waitingUsers.isEmpty)
    }

    @Test func departedUsersItemsAreDroppedAfterLogoutToo() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: nil)
        let actions = coordinator.handle(self.rejected("alice", current: nil, used: self.old, newest: self.old))
        #expect(actions == [.dropLeftovers(userId: "alice")])
    }

    @Test func departedUserWithANewerTokenIsRetriedOnceThenDropped() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "bob")
        #expect(
            coordinator.handle(self.rejected("alice", current: "bob", used: self.old, newest: self.new))
                == [.retry(userId: "alice")]
        )
        #expect(
            coordinator.handle(self.rejected("alice", current: "bob", used: self.new, newest: self.new))
                == [.dropLeftovers(userId: "alice")]
        )
    }

    @Test func anonymousRequestsAreDroppedWithoutAsking() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: nil)
        #expect(coordinator.handle(self.rejected(nil, .missing, current: nil)) == [.dropLeftovers(userId: nil)])
        #expect(coordinator.handle(self.rejected("", .missing, current: "alice")) == [.dropLeftovers(userId: nil)])
    }

    @Test func userIdentifiedWhileOptedOutCountsAsCurrent() {
        // AUTH-12: the engine reports the kept user as current for their unsubscribe.
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: nil)
        let actions = coordinator.handle(self.rejected("alice", .missing, current: "alice"))
        #expect(actions == [self.ask(.missing), .waitForToken(userId: "alice")])
    }

    // MARK: - User changes

    @Test func userChangeRetriesTheDepartedUsersWaitingItemsOnce() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        _ = coordinator.handle(self.rejected("alice", used: self.old, newest: self.old))
        #expect(coordinator.handle(.currentUserChanged("bob")) == [.retry(userId: "alice")])
        #expect(coordinator.waitingUsers.isEmpty)
        #expect(coordinator.handle(.currentUserChanged("bob")) == [])
        // The retried items come back rejected: dropped now, Alice is departed.
        #expect(
            coordinator.handle(self.rejected("alice", current: "bob", used: self.old, newest: self.old))
                == [.dropLeftovers(userId: "alice")]
        )
    }

    @Test func rejectionNamingANewCurrentUserActsAsAUserChange() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        _ = coordinator.handle(self.rejected("alice", used: self.old, newest: self.old))
        let actions = coordinator.handle(self.rejected("bob", current: "bob", used: "b", newest: "b"))
        #expect(actions == [.retry(userId: "alice"), self.ask(.expired, "bob"), .waitForToken(userId: "bob")])
    }

    @Test func reloginOfTheSameUserStartsAFreshCount() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice", maximumHandlerRequests: 1)
        _ = coordinator.handle(self.rejected("alice", used: "t1", newest: "t1"))
        _ = coordinator.handle(.currentUserChanged(nil))
        _ = coordinator.handle(.currentUserChanged("alice"))
        #expect(
            coordinator.handle(self.rejected("alice", used: "t1", newest: "t1"))
                == [self.ask(.expired), .waitForToken(userId: "alice")]
        )
    }

    // MARK: - Handler set and cleared (AUTH-10, AUTH-11)

    @Test func withoutAHandlerItemsWaitAndTheRequestIsOwed() {
        var coordinator = AuthRefreshCoordinator(hasHandler: false, currentUser: "alice")
        #expect(
            coordinator.handle(self.rejected("alice", .invalid, used: self.old, newest: self.old))
                == [.waitForToken(userId: "alice")]
        )
        #expect(
            coordinator.handle(self.rejected("alice", used: self.old, newest: self.old)) == [
                .waitForToken(userId: "alice")
            ]
        )
        // The owed request uses the latest reason, once.
        #expect(coordinator.handle(.handlerSet(true)) == [self.ask(.expired)])
        #expect(coordinator.handle(.handlerSet(true)) == [])
    }

    @Test func tokenArrivingWithoutAHandlerSettlesTheOwedRequest() {
        var coordinator = AuthRefreshCoordinator(hasHandler: false, currentUser: "alice")
        _ = coordinator.handle(self.rejected("alice", used: self.old, newest: self.old))
        #expect(coordinator.handle(.tokenSet(for: "alice")) == [.retry(userId: "alice")])
        #expect(coordinator.handle(.handlerSet(true)) == [])
    }

    @Test func clearedHandlerLeavesTheOutstandingRequestToTheNextHandler() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        _ = coordinator.handle(self.rejected("alice", used: self.old, newest: self.old))
        #expect(coordinator.handle(.handlerSet(false)) == [])
        #expect(
            coordinator.handle(self.rejected("alice", used: self.old, newest: self.old)) == [
                .waitForToken(userId: "alice")
            ]
        )
        #expect(coordinator.handle(.handlerSet(true)) == [self.ask(.expired)])
        // Outstanding again: no more asks until a token arrives.
        #expect(
            coordinator.handle(self.rejected("alice", used: self.old, newest: self.old)) == [
                .waitForToken(userId: "alice")
            ]
        )
    }

    @Test func handlerSwapsCannotExceedTheBound() {
        var coordinator = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        var asks = coordinator.handle(self.rejected("alice", used: self.old, newest: self.old)).count - 1
        for _ in 0..<10 {
            _ = coordinator.handle(.handlerSet(false))
            asks += coordinator.handle(.handlerSet(true)).count
        }
        #expect(asks == 3)
    }

    @Test func handlerSetWithNothingWaitingDoesNothing() {
        var coordinator = AuthRefreshCoordinator(hasHandler: false, currentUser: "alice")
        #expect(coordinator.handle(.handlerSet(true)) == [])
        #expect(coordinator.handle(.handlerSet(false)) == [])
    }

    @Test func coordinatorIsAValue() {
        var first = AuthRefreshCoordinator(hasHandler: true, currentUser: "alice")
        let copy = first
        _ = first.handle(self.rejected("alice", used: self.old, newest: self.old))
        #expect(first != copy)
        #expect(copy.waitingUsers.isEmpty)
    }
}
