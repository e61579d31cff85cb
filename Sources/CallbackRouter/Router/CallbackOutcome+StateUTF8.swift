extension CallbackOutcome {
    /// Calls `body` with the UTF-8 bytes of the callback's `state` (the same bytes as
    /// ``state``), or returns nil when it has none. The bytes are valid only during the call.
    ///
    /// The router looks attempts up by these bytes and compares them in constant time:
    /// making the `String` first cost ~850 instructions and an allocation a callback
    /// (issue 17). On the classifier's common path the bytes come straight from the
    /// callback's storage (decoded on the stack where escaped), otherwise from the
    /// outcome's own string. `CallbackOutcomeStateUTF8Tests` checks both against ``state``.
    func withStateUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        switch storage {
        case .query(let query, let mask, let positions):
            let id = CallbackClassifier.FieldID.state
            guard mask & CallbackClassifier.FieldID.bit(id) != 0 else { return nil }
            let position = Int(positions[id])
            var index = 0
            var result: R?
            query.forEachDecodedUTF8 { _, value in
                if index == position { result = body(value) }
                index += 1
            }
            return result
        case .strings:
            guard var state = value("state") else { return nil }
            return state.withUTF8(body)
        }
    }
}
