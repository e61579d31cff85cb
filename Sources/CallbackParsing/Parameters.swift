/// Where one `name=value` pair stands in the input. Offsets are into the whole URL.
struct RawParameter: Sendable {
    var nameStart: Int32
    var nameEnd: Int32
    var valueStart: Int32
    var valueEnd: Int32
    /// False for a bare `name` with no `=` (its value is empty).
    var hasEquals: Bool
}

/// One decoded form-urlencoded parameter (`+` is a space, `%XX` decoded).
///
/// `description`, `debugDescription` and `dump()` show the name and the value's length,
/// never the value: read ``value`` explicitly.
public struct Parameter: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The name and the value's length: values are secrets until proven otherwise.
    public var description: String { "\(Parameters.displayName(name)): <redacted, \(value.utf8.count) bytes>" }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["name": Parameters.displayName(name), "value": "<redacted, \(value.utf8.count) bytes>"],
               displayStyle: .struct)
    }
}

/// The parameters of a query or a fragment, decoded on access, in order, duplicates kept.
///
/// The parser keeps duplicates; callers decide. ``value(named:)`` refuses a duplicated name
/// with `duplicate_parameter` instead of silently picking the first or the last
/// (RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once").
/// Names are compared after decoding, so `st%61te` and `state` are the same name.
public struct Parameters: RandomAccessCollection, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable {
    let source: String
    let raw: ArraySlice<RawParameter>

    /// Positions count from 0 in both lists: `fragmentParameters[0]` is the fragment's
    /// first parameter even when the query has some (the storage is one shared array).
    public var startIndex: Int { 0 }
    public var endIndex: Int { raw.count }

    public subscript(position: Int) -> Parameter {
        let item = raw[raw.startIndex + position]
        return Parameter(name: decode(item.nameStart, item.nameEnd), value: decode(item.valueStart, item.valueEnd))
    }

    /// The names, decoded, in order.
    public var names: [String] { raw.map { decode($0.nameStart, $0.nameEnd) } }

    /// How many parameters have this (decoded) name.
    public func count(named name: String) -> Int {
        raw.reduce(0) { $0 + (nameEquals($1, name) ? 1 : 0) }
    }

    /// Whether a parameter has this name.
    public func contains(named name: String) -> Bool {
        raw.contains { nameEquals($0, name) }
    }

    /// The value of the one parameter with this name; nil when absent.
    /// Throws `duplicate_parameter` (with the offset of the second one) when it occurs twice.
    public func value(named name: String) throws(ParseError) -> String? {
        var found: RawParameter?
        for item in raw where nameEquals(item, name) {
            if found != nil {
                throw ParseError(.duplicateParameter, at: Int(item.nameStart),
                                 "the parameter '\(Parameters.displayName(name))' occurs more than once")
            }
            found = item
        }
        return found.map { decode($0.valueStart, $0.valueEnd) }
    }

    /// Every value given for this name, in order (empty when absent).
    public func values(named name: String) -> [String] {
        raw.filter { nameEquals($0, name) }.map { decode($0.valueStart, $0.valueEnd) }
    }

    /// The first name that occurs more than once, with the offset of its second occurrence.
    public func firstDuplicate() -> (name: String, offset: Int)? {
        var seen = Set<String>()
        for item in raw {
            let name = decode(item.nameStart, item.nameEnd)
            if !seen.insert(name).inserted { return (name, Int(item.nameStart)) }
        }
        return nil
    }

    /// Where the parameter at `position` starts in the URL (its name's first byte).
    public func offset(at position: Int) -> Int { Int(raw[raw.startIndex + position].nameStart) }

    /// Where the value of the first parameter with this name starts in the URL.
    public func valueOffset(named name: String) -> Int? {
        raw.first { nameEquals($0, name) }.map { Int($0.valueStart) }
    }

    /// `[code: <redacted, 10 bytes>, state: <redacted, 43 bytes>]`.
    public var description: String { redactedSummary }

    public var debugDescription: String { redactedSummary }

    /// `dump()` shows the redacted parameters, never the stored input.
    public var customMirror: Mirror {
        Mirror(self, children: map { (label: String?.none, value: $0 as Any) }, displayStyle: .collection)
    }

    var redactedSummary: String {
        "[" + map(\.description).joined(separator: ", ") + "]"
    }

    /// A name as diagnostics show it: as is when it looks like a parameter name, else
    /// redacted (a bare `?SECRET` puts the secret in the name).
    static func displayName(_ name: String) -> String {
        let looksLikeName = !name.isEmpty && name.utf8.count <= 32 && name.utf8.allSatisfy {
            ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39)
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
        return looksLikeName ? name : "<redacted name, \(name.utf8.count) bytes>"
    }

    private func decode(_ start: Int32, _ end: Int32) -> String {
        var source = source
        return source.withUTF8 { bytes in
            PercentDecoding.decode(UnsafeBufferPointer(rebasing: bytes[Int(start) ..< Int(end)]), plusIsSpace: true)
        }
    }

    /// Compares the decoded name with `name` without allocating.
    private func nameEquals(_ item: RawParameter, _ name: String) -> Bool {
        var source = source
        var name = name
        return source.withUTF8 { bytes in
            name.withUTF8 { expected in
                let raw = UnsafeBufferPointer(rebasing: bytes[Int(item.nameStart) ..< Int(item.nameEnd)])
                if raw.count == expected.count && !PercentDecoding.needsDecoding(raw, plusIsSpace: true) {
                    return raw.elementsEqual(expected)
                }
                var index = 0
                var equal = true
                PercentDecoding.forEachDecodedByte(raw, plusIsSpace: true) { byte in
                    if index < expected.count && expected[index] == byte { index += 1 } else { equal = false }
                }
                return equal && index == expected.count
            }
        }
    }
}
