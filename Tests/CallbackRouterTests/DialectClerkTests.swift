import Testing
@testable import CallbackRouter

/// Clerk native OAuth (seed 003): `{bundle_id}://callback?rotating_token_nonce=…`.
@Suite struct DialectClerkTests {
    static let accepted: [Accepted] = [
        Accepted(
            source: "seed 003 default redirect", url: "com.example.app://callback?rotating_token_nonce=rtn_2b8c4d5e",
            dialect: .clerk, kind: .rotatingTokenNonce, decided: .clerk, fields: [Pair("rotating_token_nonce", "rtn_2b8c4d5e")]),
        Accepted(
            source: "hosted auth with a created session",
            url: "com.example.app://callback?rotating_token_nonce=rtn_1&created_session_id=sess_2abc",
            dialect: .clerk, kind: .rotatingTokenNonce, decided: .clerk,
            fields: [Pair("rotating_token_nonce", "rtn_1"), Pair("created_session_id", "sess_2abc")]),
        Accepted(
            source: "with state", url: "com.example.app://callback?state=st1&rotating_token_nonce=rtn_1",
            dialect: .clerk, kind: .rotatingTokenNonce, decided: .clerk,
            fields: [Pair("state", "st1"), Pair("rotating_token_nonce", "rtn_1")]),
        Accepted(
            source: "picked by auto", url: "com.example.app://callback?rotating_token_nonce=rtn_1",
            kind: .rotatingTokenNonce, decided: .clerk, fields: [Pair("rotating_token_nonce", "rtn_1")]),
        Accepted(
            source: "custom redirect URL", url: "myapp://sso-callback?rotating_token_nonce=rtn_1&__clerk_status=ok",
            dialect: .clerk, kind: .rotatingTokenNonce, decided: .clerk,
            fields: [Pair("rotating_token_nonce", "rtn_1")], extra: [Pair("__clerk_status", "ok")]),
    ]

    @Test(arguments: accepted)
    func readsTheNonce(_ testCase: Accepted) throws {
        try expectAccepted(testCase)
    }

    static let refused: [Refused] = [
        Refused(
            source: "no nonce", url: "com.example.app://callback?created_session_id=sess_1", dialect: .clerk, reason: .missingParameter),
        Refused(source: "empty nonce", url: "com.example.app://callback?rotating_token_nonce=", dialect: .clerk, reason: .invalidParameter),
        Refused(
            source: "session id with a control", url: "com.example.app://callback?rotating_token_nonce=a&created_session_id=%0A",
            dialect: .clerk, reason: .invalidParameter),
        Refused(
            source: "nonce and error", url: "com.example.app://callback?rotating_token_nonce=a&error=x", dialect: .clerk,
            reason: .ambiguousResponse),
        Refused(
            source: "wrong state", url: "com.example.app://callback?rotating_token_nonce=a&state=b", dialect: .clerk,
            expecting: CallbackExpectations(state: "c"), reason: .stateMismatch),
    ]

    @Test(arguments: refused)
    func refusesWhatIsNotANonce(_ testCase: Refused) {
        expectRefused(testCase)
    }

    @Test func exposesTypedAccessors() throws {
        let outcome = try classify("com.example.app://callback?rotating_token_nonce=N&created_session_id=S", .clerk)
        #expect(outcome.rotatingTokenNonce == "N")
        #expect(outcome.createdSessionID == "S")
        #expect(!Dialect.clerk.isStateless)
    }
}
