import Testing
@testable import CallbackParsing

@Suite struct CharacterClassMaskTests {
    /// The constant masks the parser tests bytes with must say exactly what the readable
    /// table (built from the RFC 3986 sets) says, for every byte and class.
    @Test func masksEqualTheTable() {
        let classes: [CharacterClass] = [.scheme, .userinfo, .regName, .path, .query, .fragment, .hexDigit]
        for cls in classes {
            for byte in 0 ... 255 {
                let inTable = CharacterClass.table[byte] & cls.rawValue != 0
                #expect(cls.contains(UInt8(byte)) == inTable, "class \(cls.rawValue), byte \(byte)")
            }
        }
    }
}
