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

/// Whether a refreshed ID token's `auth_time` must be the login's, when the two are compared
/// (``TokenSet/checkRefreshedIDToken(previousIDToken:clientID:issuer:signingAlgorithms:maxClockSkew:maxIssuedAtAge:clock:authTime:)``).
///
/// OpenID Connect Core §12.2 says it MUST be: a refresh does not authenticate the user again,
/// so the time of the original authentication cannot change. Some providers send the time of
/// the refresh instead (django-oauth-toolkit 3.4.1 does); ``mayChange`` accepts such a token,
/// and the returned claims say that it changed (``IDTokenClaims/authTimeChanged``) so that the
/// caller can tell the user. The issuer, subject, audiences and `azp` are compared whatever
/// this says.
public enum RefreshedAuthTime: Sendable, Hashable {
    /// The login's `auth_time`, when it had one, and nothing else (`auth_time_mismatch`):
    /// the specification's rule and the default.
    case mustMatch
    /// Any `auth_time` (a well-formed one), reported in ``IDTokenClaims/authTimeChanged``
    /// when it is not the login's.
    case mayChange
}
