//===----------------------------------------------------------------------===//
//
// This source file is part of the CallbackRouter open source project
//
// Copyright (c) 2026 the CallbackRouter project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The benchmark's inputs: realistic callback URLs of every dialect, short and long,
/// loopback and claimed https, and a hostile set.
enum Corpus {
    static let jwt =
        "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IjFlOWdkazcifQ."
        + "eyJpc3MiOiJodHRwczovL3NlcnZlci5leGFtcGxlLmNvbSIsInN1YiI6IjI0ODI4OTc2MTAwMSIsImF1ZCI6InM2QmhkUmtxdDMiLCJub25jZSI6Im4tMFM2X1d6QTJNaiIsImV4cCI6MTMxMTI4MTk3MCwiaWF0IjoxMzExMjgwOTcwfQ."
        + "ggW8hZ1EuVLuxNuuIJKX_V8a_OMXzR0EHR9R6jgdqrOOF4daGU96Sr_P6qJp6IcmD3HP99Obi1PRs-cwh3LO-p146waJ8IhehcwL7F09JdijmBqkvPeB2T9CJNqeGpe-gccMg4vfKjkM8FcGvnzZUN4_KSP0aAp1tOJ1zZwgjxqGByKHiOtX7TpdQyHE5lcMiKPXfEIQILVq0pc_E2DzL7emopWoaoZTF_m0_N0YzFC6g6EJbOEoRoSK5hoDalrcvRYLSrQAZZKflyuVCyixEoV9GfNQC3_osjzw2PAithfubEEBLuVVk4XUVrWOLrLl0nx7RkKU8NXNHq-rvKMzqg"
    static let longState = String(repeating: "s0Me-St4te_", count: 187) // ~2 KB

    /// A typical OAuth 2.0 callback of about 120 bytes.
    static let typical =
        "com.example.app:/oauth2redirect?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkjAbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_"

    static let realistic: [String] = [
        typical,
        "com.example.app:/oauth2redirect?code=4%2F0AeaYSHBvX7_kjR9pLmZ&scope=email%20openid%20https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.email&authuser=0&prompt=consent&state=Xb3Fh2mK9qL",
        "com.example.app:/oauth2redirect?code=4/0AeaYSHBvX7_kjR9pLmZ&scope=email openid".replacingSpaces() + "&state=Xb3Fh2mK9qL",
        "com.example.app:/oauth2redirect?code=c0de&state=st4te&iss=https%3A%2F%2Faccounts.google.com",
        "com.example.app:/oauth2redirect?error=access_denied&error_description=The+user+denied+the+request&state=af0ifjsldkj",
        "com.example.app:/oauth2redirect?error=invalid_request&error_description=AADSTS50011%3A+The+reply+URL%0D%0Adoes+not+match&state=af0ifjsldkj",
        "com.example.app:/oauth2redirect?code=\(jwt.prefix(64))&state=\(longState)",
        "com.example.app://example.auth0.com/ios/com.example.app/callback?code=AUTH0c0deWithSomeLength12345&state=QmFzZTY0VXJsU3RhdGU",
        "https://example.auth0.com/ios/com.example.app/callback?code=AUTH0c0deWithSomeLength12345&state=QmFzZTY0VXJsU3RhdGU",
        "auth0test1://test?code=abcdef0123456789&state=9876543210fedcba",
        "myapp://oauth-callback?challenge_token=\(jwt)",
        "demo://oauth?challenge_token=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJwcjNsdWQzLWNoNGxsM25nMy10MGszbiJ9.nKQ3w68i1LRHRfIxc9KmFlFZQ-8sgkz347kxuCayvaM",
        "myapp://oauth-callback?challenge_token=eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJzaG9ydCJ9.-bAHi131ltLqGQEMABu9AJ5lHeLFfo-341XzHrnT9zk",
        "com.example.app://callback?code=ory_sessiontokenexchange_second_half_abcdef",
        "https://myapp.com/oauthredirect?code=ory_ste_AbCdEfGh1234567890",
        "my-app:/oauthRedirect?action=login&status=success&tracking_id=1234&session_id=5678abcd-ef01-2345-6789-abcdef012345",
        "https://myapp.com/oauthredirect?action=login&status=success&tracking_id=t-99&session_id=s-99",
        "my-app:/oauthRedirect?action=register&status=partial&state_key=sk_1234567890&identifier=user%40example.com",
        "my-app:/oauthRedirect?action=login&status=failure&message=User+cancelled+the+login",
        "com.example.app://callback?rotating_token_nonce=rtn_2abcDEF123&created_session_id=sess_2abcdef&state=clerkstate123",
        "com.example.app://callback?rotating_token_nonce=rtn_2abcDEF123",
        "http://127.0.0.1:49152/callback?code=loopbackc0de&state=loopbackstate",
        "http://127.0.0.1:8400/?code=4/P7q7W91a-oMsCeLvIaQm6bTrgtp7&scope=openid%20email&state=abc",
        "http://[::1]:61234/callback?code=v6c0de&state=v6state",
        "http://localhost:19006/Callback?code=ory_second_half_0123456789",
        "https://app.example.com/auth/callback?code=claimedHttpsCode&state=claimedHttpsState&session_state=abc.def",
        "https://app.example.com/auth/callback?code=c&state=s#_=_",
        "com.example.app:/oauth2redirect?code=c&state=s#",
        "com.googleusercontent.apps.123456789012-abcdefghijklmnopqrstuvwxyz012345:/oauth2redirect?code=4/0Ae&scope=email%20profile&state=xyz",
        "msauth.com.example.app://auth?code=0.AAAA-msal-code-value&client_info=eyJ1aWQiOiIxIn0&state=msalstate&session_state=ss",
        "fb123456789://authorize/?code=fbc0de&state=fbstate#_=_",
        "com.example.app:/oauth2redirect?code=a%2Bb%2Fc%3D&state=p%25q",
        "com.example.app:/oauth2redirect?state=only-state-no-code",
        "com.example.app:/oauth2redirect?code=c&state=s&extra1=v1&extra2=v2&extra3=v3&extra4=v4&extra5=v5",
        "com.example.app:/oauth2redirect?q=[a]{b}|c^d\\e`f&code=c&state=s",
        "io.identityserver.demo:/oauthredirect?code=ids_code&scope=openid%20profile%20api&state=ids_state&session_state=x",
        "com.okta.dev-123456:/callback?code=okta_code_value&state=okta_state_value",
        "net.openid.appauthdemo:/oauth2redirect?code=appauth&state=appauthstate",
        "x-github-client://oauth?code=ghc0de1234567890abcd&state=ghstate",
        "slack://oauth?code=123.456.abcdef&state=sl",
        "com.example.app:/oauth2redirect?code=\(String(repeating: "x", count: 900))&state=s",
    ]

    static let hostile: [String] = [
        "com.example.app:/oauth2redirect?code=abc&code=evil&state=s",
        "com.example.app:/oauth2redirect?code=%zz&state=s",
        "com.example.app:/oauth2redirect?code=a b&state=s",
        "http://127.0.0.1.evil.com/callback?code=c&state=s",
        "http://0x7f.1/callback?code=c&state=s",
        "http://[fe80::1%25eth0]/callback?code=c",
        "javascript:alert(1)//?code=c",
        "com.example.app:/oauth2redirect?code=%C0%AF&state=s",
        "com.example.app:/oauth2redirect#access_token=at&state=s",
        "http://evil.com\\@127.0.0.1/callback?code=c",
        "http://user:pass@127.0.0.1/callback?code=c",
        "//no-scheme/callback?code=c",
        "com.example.app:/oauth2redirect?code=c%00&state=s",
        "http://127.0.0.1:99999/callback?code=c",
        "http://a@b@127.0.0.1/callback",
        String(repeating: "%41", count: 5000),
    ]

    /// URLs of 1, 4 and 16 KiB (just under the limit), to show cost grows linearly.
    /// Built of ~1 KiB parameters, so that no value passes the 8 KiB limit.
    static func sized(_ bytes: Int) -> String {
        var url = "com.example.app:/oauth2redirect?code=c&state=s"
        var index = 0
        while url.utf8.count < bytes {
            let room = bytes - url.utf8.count - "&pNN=".utf8.count
            url += "&p\(index)=" + String(repeating: "a", count: max(1, min(1000, room)))
            index += 1
        }
        return url
    }

    /// A callback with `count` parameters.
    static func withParameters(_ count: Int) -> String {
        "com.example.app:/oauth2redirect?" + (0 ..< count).map { "p\($0)=value\($0)" }.joined(separator: "&")
    }
}

extension String {
    fileprivate func replacingSpaces() -> String { String(map { $0 == " " ? "+" : $0 }) }
}
