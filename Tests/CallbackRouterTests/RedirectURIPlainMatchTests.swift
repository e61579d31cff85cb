import Testing
@testable import CallbackRouter

/// The one-reading match of a redirect URI without authority or query
/// (`com.example.app:/oauth2redirect`) against the component-by-component rules it stands in
/// for: the same scheme (case-insensitively), no authority, the same path byte for byte.
@Suite struct RedirectURIPlainMatchTests {
    static let registered = [
        "com.example.app:/oauth2redirect", "Com.Example.App:/oauth2redirect", "myapp:/cb", "a:", "a:/",
        "x-y.z+w:/p/q/%2F/r", "com.example.app:/a-path-longer-than-sixteen-bytes/and/more",
    ]

    /// Every one-byte change of each registered URI (each position, a few replacement
    /// bytes), shortened and lengthened copies, and the same with an authority: the answer is
    /// the one the scheme, authority and path rules give, and `check` agrees with `matches`.
    @Test func everyOneByteChangeIsJudgedAsTheComponentRulesJudgeIt() throws {
        var compared = 0
        for text in Self.registered {
            let redirect = try RedirectURI(text)
            let registered = redirect.url
            var candidates = [text, text + "x", text + "/", String(text.dropLast()), text.uppercased(), text.lowercased()]
            candidates.append(text.replacingFirst(":", with: "://host"))
            let bytes = Array(text.utf8)
            for position in bytes.indices {
                for replacement in Array("aAzZ0:/.%-".utf8) where replacement != bytes[position] {
                    var changed = bytes
                    changed[position] = replacement
                    candidates.append(String(decoding: changed, as: UTF8.self))
                }
            }
            for candidate in candidates {
                guard let callback = try? CallbackURL(parsing: candidate + "?code=c&state=s") else { continue }
                let expected =
                    callback.scheme == registered.scheme && callback.hasAuthority == registered.hasAuthority
                    && callback.host == registered.host && callback.port == registered.port && callback.path == registered.path
                #expect(redirect.matches(callback) == expected, "\(text) against \(candidate)")
                #expect(((try? redirect.check(callback)) != nil) == expected, "\(text) against \(candidate)")
                compared += 1
            }
        }
        #expect(compared > 500)
    }
}

extension String {
    fileprivate func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
    }
}
