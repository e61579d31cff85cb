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

/// A provider's documented departure from a rule the router enforces, switched on per route
/// (`Route(…, profiles: [.entra])`, `callback-router parse --profile entra`).
///
/// The defaults stay strict: a profile relaxes exactly one named rule, for the route that
/// opts in, and nothing else. Each profile's doc says what it relaxes, why, and where the
/// behaviour is documented or captured. docs/providers.md lists every provider.
///
/// | profile | relaxes |
/// |---|---|
/// | ``entra`` | path `""` ≡ `/` for a redirect URI with an authority (`msauth.<bundle>://auth`) |
/// | ``apple`` | `id_token` next to `code` (`response_type=code id_token`) is not refused as an implicit grant |
/// | ``supabase`` | no `state` on success (one pending attempt per route); errors in the fragment of a query route and errors without state are *unbound* |
/// | ``cognito`` | errors without `state` are *unbound* |
/// | ``clerkHosted`` | (tightens) Clerk's hosted auth: `state` required and matched, `created_session_id` required; the route is not stateless |
/// | ``spotify`` | a loopback redirect URI's path matches the callback's with one trailing `/` added (`/callback` ↔ `/callback/`) |
/// | ``auth0SPA`` | a fragment that is exactly `/` (`?code=…&state=…#/`, an SPA hash router's) is ignored |
///
/// An *unbound* provider error (``CallbackOutcome/isUnbound``) is reported as an
/// `authorization_error` but is tied to no login: anyone can forge one, so it never ends an
/// attempt. The router refuses it (`state_missing`, the detail names the provider's error
/// code) and leaves the pending attempt as it was; `CallbackValidator` (and
/// `callback-router parse`) return it so that an app can tell the user what went wrong.
///
/// A struct with static members rather than an enum, so that new profiles do not break
/// users' exhaustive `switch`es.
public struct ProviderProfile: Hashable, Sendable, CustomStringConvertible {
    /// The name used on the command line (`--profile entra`): lowercase.
    public let name: String
    /// What the profile relaxes, in one sentence.
    public let summary: String
    /// Where the provider's behaviour is documented or captured.
    public let source: String
    let relaxations: Relaxations

    /// The rules a profile can relax. Internal: the public surface is the named profiles.
    struct Relaxations: OptionSet, Hashable, Sendable {
        let rawValue: UInt16
        /// A redirect URI with an authority matches a callback whose path is `/` where the
        /// registered path is empty, and the reverse. Nothing else about the path.
        static let emptyPathEqualsSlash = Relaxations(rawValue: 1 << 0)
        /// `id_token` in the same component as `code` (the hybrid `code id_token` response)
        /// is passed through as an extra instead of refused. `access_token` is still refused,
        /// and so is an `id_token` without a `code`.
        static let idTokenWithCode = Relaxations(rawValue: 1 << 1)
        /// On a query route, a fragment that carries `error` while the query carries no
        /// response parameter is read as the (unbound) error response.
        static let errorsInFragment = Relaxations(rawValue: 1 << 2)
        /// An error response without `state` is unbound instead of `state_missing`.
        static let unboundErrors = Relaxations(rawValue: 1 << 3)
        /// The provider's success redirect carries no `state` of the app's: the route is
        /// stateless (one pending attempt at a time; PKCE binds the code to it).
        static let noState = Relaxations(rawValue: 1 << 4)
        /// Clerk's hosted auth: the nonce callback must carry the attempt's `state` and a
        /// `created_session_id`, and the route keeps its state (not stateless). A tightening.
        static let clerkHosted = Relaxations(rawValue: 1 << 5)
        /// A loopback redirect URI matches a callback whose path is its non-empty path with one
        /// `/` added, and the reverse. Nothing else about the path.
        static let loopbackTrailingSlash = Relaxations(rawValue: 1 << 6)
        /// A fragment that is exactly `/` is ignored, like Facebook's `#_=_`.
        static let hashSlashFragment = Relaxations(rawValue: 1 << 7)
        /// On a query route, a fragment that carries Clerk's `flow_id` / `approval_token` while
        /// the query carries no response is read as the response. No profile: the `clerk`
        /// dialect implies it (clerk-android reads magic links from either component).
        static let magicLinkInFragment = Relaxations(rawValue: 1 << 8)
    }

    private init(name: String, summary: String, source: String, relaxations: Relaxations) {
        self.name = name
        self.summary = summary
        self.source = source
        self.relaxations = relaxations
    }

    /// The profile with this name; nil for a name that is not one of ``allCases``.
    public init?(name: String) {
        guard let known = ProviderProfile.allCases.first(where: { $0.name == name }) else { return nil }
        self = known
    }

    /// Microsoft Entra ID (MSAL): the redirect URI the portal gives an iOS/macOS app is
    /// `msauth.<bundle>://auth`, and the redirect arrives as `msauth.<bundle>://auth/?code=…`
    /// (clients must register or expect the trailing slash, or the callback is never
    /// matched). Relaxes only the empty path ↔ `/` of a redirect URI with an authority:
    /// `msauth.com.example.app://auth` matches `…://auth/?code=…` and the reverse; `//`,
    /// `/x` or another host still mismatch.
    ///
    /// Sources: https://github.com/FormidableLabs/react-native-app-auth/pull/519,
    /// https://github.com/FormidableLabs/react-native-app-auth/issues/1103
    public static let entra = ProviderProfile(
        name: "entra",
        summary:
            "a redirect URI with an authority matches a callback whose path is '/' where the registered path is empty, and the reverse (msauth.<bundle>://auth ↔ msauth.<bundle>://auth/)",
        source: "https://github.com/FormidableLabs/react-native-app-auth/pull/519",
        relaxations: .emptyPathEqualsSlash)

    /// Sign in with Apple: with `response_type=code id_token` Apple posts `code`,
    /// `id_token`, `state` and, on the first authorization only, `user` (JSON with the
    /// name) to the redirect URI (`response_mode=form_post`, or `fragment`). The `id_token`
    /// next to the `code` is passed through as an extra (redacted in descriptions like every
    /// value) instead of refused as an implicit grant. `access_token`, and an `id_token`
    /// without a `code`, are still refused.
    ///
    /// Sources: https://developer.apple.com/forums/thread/660531,
    /// https://github.com/mikebronner/laravel-sign-in-with-apple/pull/12
    public static let apple = ProviderProfile(
        name: "apple",
        summary:
            "an id_token next to a code (response_type=code id_token, form_post or fragment) is passed through as an extra instead of refused as an implicit grant",
        source: "https://developer.apple.com/forums/thread/660531",
        relaxations: .idTokenWithCode)

    /// Supabase Auth (PKCE flow): the success redirect is `?code=…` with no `state` of the
    /// app's (the route becomes stateless: one pending attempt, the code verifier binds the
    /// code to it), and failures arrive in the fragment even though the flow answers in the
    /// query (`#error=unauthorized_client&error_code=401&error_description=Email+link+is+invalid+or+has+expired`).
    /// Such an error, and any error without `state`, is an unbound provider error: reported,
    /// never ending an attempt.
    ///
    /// Sources: https://github.com/supabase/supabase/issues/15472,
    /// https://github.com/supabase/supabase/issues/22036
    public static let supabase = ProviderProfile(
        name: "supabase",
        summary:
            "no state on success (one pending attempt per route); an error in the fragment of a query route, or an error without state, is an unbound provider error that never ends an attempt",
        source: "https://github.com/supabase/supabase/issues/15472",
        relaxations: [.noState, .errorsInFragment, .unboundErrors])

    /// Amazon Cognito: errors from managed login and federation are appended as
    /// `?error_description=…&error=…`, without the app's `state`. Such an error is an
    /// unbound provider error: reported, never ending an attempt. A success still needs
    /// its `state`.
    ///
    /// Source: https://docs.aws.amazon.com/cognito/latest/developerguide/federation-endpoint-idp-responses.html
    public static let cognito = ProviderProfile(
        name: "cognito",
        summary: "an error without state is an unbound provider error that never ends an attempt",
        source: "https://docs.aws.amazon.com/cognito/latest/developerguide/federation-endpoint-idp-responses.html",
        relaxations: .unboundErrors)

    /// Clerk's hosted auth (Account Portal; clerk-ios `HostedAuth.swift`, clerk-android
    /// `HostedAuthCallback.kt`, Expo `useHostedAuth`): unlike Clerk's native OAuth, the app
    /// sends a `state` and the callback must carry it back with the `rotating_token_nonce`
    /// and a `created_session_id`, each exactly once, to a custom-scheme redirect URI
    /// (`?state=S&rotating_token_nonce=N&created_session_id=sess_…`). A route with this
    /// profile is not stateless: its attempts are matched by state. It tightens rather than
    /// relaxes: no `state` is `state_missing`, no `created_session_id` `missing_parameter`.
    /// Clerk's failure, transfer and bare callbacks stay unbound outcomes.
    ///
    /// Source: https://github.com/clerk/clerk-ios/blob/main/Sources/ClerkKit/Domains/Auth/HostedAuth.swift
    public static let clerkHosted = ProviderProfile(
        name: "clerk-hosted",
        summary:
            "Clerk's hosted auth: the callback must carry the attempt's state and a created_session_id with the rotating_token_nonce; the route is not stateless",
        source: "https://github.com/clerk/clerk-ios/blob/main/Sources/ClerkKit/Domains/Auth/HostedAuth.swift",
        relaxations: .clerkHosted)

    /// Spotify: with a loopback redirect URI (Spotify allows only `http://127.0.0.1:PORT/…`
    /// or `[::1]` for plain http), a `/` has been seen appended to the redirect
    /// (`http://127.0.0.1:8888/callback/?code=…` for `/callback`). Relaxes only that, and only
    /// for a loopback redirect URI: `//`, another segment, the host, the scheme, the query
    /// still mismatch.
    ///
    /// Source: https://github.com/AudioBand/AudioBand/issues/57
    public static let spotify = ProviderProfile(
        name: "spotify",
        summary:
            "a loopback redirect URI's path matches a callback whose path adds one trailing '/' (/callback ↔ /callback/), and the reverse",
        source: "https://github.com/AudioBand/AudioBand/issues/57",
        relaxations: .loopbackTrailingSlash)

    /// Auth0 in a single-page app with a hash router: the redirect arrives as
    /// `https://app.example.com/?code=…&state=…#/`, the router's `#/` left after the query.
    /// A fragment that is exactly `/` is ignored (as Facebook's `#_=_` is); any other
    /// fragment with data is still `parameters_in_fragment`.
    ///
    /// Source: https://github.com/auth0/auth0-spa-js/issues/407
    public static let auth0SPA = ProviderProfile(
        name: "auth0-spa",
        summary: "a fragment that is exactly '/' (an SPA hash router's '#/' after the query) is ignored",
        source: "https://github.com/auth0/auth0-spa-js/issues/407",
        relaxations: .hashSlashFragment)

    /// Every profile, by name.
    public static let allCases: [ProviderProfile] = [.apple, .auth0SPA, .clerkHosted, .cognito, .entra, .spotify, .supabase]

    /// The profile's lowercase name, as `--profile` takes it.
    public var description: String { name }

    /// Two profiles are the same when their names are.
    public static func == (a: ProviderProfile, b: ProviderProfile) -> Bool { a.name == b.name }
    /// Hashes the profile's name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension Collection where Element == ProviderProfile {
    /// The union of the profiles' relaxations.
    var relaxations: ProviderProfile.Relaxations {
        reduce(into: []) { $0.formUnion($1.relaxations) }
    }
}
