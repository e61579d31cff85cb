/// The JSON reader's invariants, for the fuzzer (`Fuzz/Sources/fuzz-json`). Not API.
@_spi(Fuzzing) public enum JSONFuzzing {
    /// The reasons a refusal may carry; any other is a bug.
    static let allowedReasons: Set<ReasonCode> = [
        .emptyInput, .invalidCharacter, .invalidUTF8, .duplicateParameter, .tooLong, .tooManyParameters,
    ]

    /// Reads `bytes` with the default limits and with tight ones (depth 4, 16-byte strings,
    /// 4 members), and traps unless: a refusal carries one of the reader's reasons and an
    /// offset inside the document; a value read prints to JSON that reads back to the same
    /// value and prints identically; a non-contiguous copy of the input reads the same.
    public static func check(_ bytes: [UInt8]) {
        for limits in [JSONLimits.default, JSONLimits(maxBytes: 4096, maxDepth: 4, maxStringBytes: 16, maxMembers: 4)] {
            let result = Result { () throws(CallbackError) -> JSONValue in try JSONReader.parse(bytes, limits: limits) }
            let again = Result { () throws(CallbackError) -> JSONValue in try JSONReader.parse(bytes.lazy.map { $0 }, limits: limits) }
            switch (result, again) {
            case (.success(let value), .success(let other)):
                precondition(value == other, "a non-contiguous input reads differently")
                let printed = value.serialized()
                let reread: JSONValue
                do {
                    reread = try JSONReader.parse(
                        printed,
                        limits: JSONLimits(
                            maxBytes: Int.max, maxDepth: limits.maxDepth, maxStringBytes: limits.maxStringBytes,
                            maxMembers: limits.maxMembers))
                } catch {
                    preconditionFailure("the serialization of a value does not read back: \(error)")
                }
                precondition(reread == value, "the serialization reads back to another value")
                precondition(reread.serialized() == printed, "the serialization is not stable")
            case (.failure(let error), .failure(let other)):
                precondition(error == other, "a non-contiguous input is refused differently: \(error) vs \(other)")
                precondition(allowedReasons.contains(error.reason), "unexpected reason \(error.reason)")
                precondition(
                    (error.offset ?? -1) >= 0 && (error.offset ?? -1) <= max(bytes.count, limits.maxBytes),
                    "offset out of the document: \(error)")
            default:
                preconditionFailure("a non-contiguous input is read differently")
            }
        }
    }
}
